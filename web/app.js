// CareDesk chat page: POST ask, keep the session across turns, show cited replies; for a staff caller
// token, the Handovers panel (GET handovers, GET handovers/<id>, POST handovers/<id>/close).
// Everything the server sends is inserted as text (textContent), never as HTML.
"use strict";

(function () {
  const SESSION_KEY = "caredesk.session_id";
  // A random id this browser keeps: the server binds a conversation to it (as a keyed hash), so a
  // session id seen on someone else's screen continues nothing of theirs.
  const CLIENT_KEY = "caredesk.client_id";
  const BADGES = {
    answered: "Answer from the clinic's documents",
    abstained: "I do not know",
    handover: "Handed over to staff",
    blocked: "Message blocked",
    crisis: "Urgent: please get help now",
    error: "Something went wrong",
  };
  // Phone numbers in a crisis reply: "112", "14416", "1-800-891-4416" (never "24/7").
  const PHONE = /\b\d[\d-]{1,13}\d\b/g;

  const form = document.getElementById("ask-form");
  const question = document.getElementById("question");
  const askButton = document.getElementById("ask-button");
  const newButton = document.getElementById("new-conversation");
  const log = document.getElementById("log");
  const statusLine = document.getElementById("status");
  const errorBox = document.getElementById("error");
  const emptyHint = document.getElementById("empty-hint");
  const replyTemplate = document.getElementById("reply-template");
  const contactRow = document.getElementById("contact-row");
  const contact = document.getElementById("contact");
  let busy = false;
  let citationCounter = 0;
  // A signed-in patient or staff member arrives from the clinic's portal at /#token=<caller token>.
  // The fragment never reaches a server or its logs; the token is kept in memory only and the
  // address bar is cleared, so it is not bookmarked, shared or left in the history.
  let callerToken = takeTokenFromFragment();
  // Only a signed-in caller can be called back (the server ignores a public caller's number).
  contactRow.hidden = !callerToken;
  window.addEventListener("hashchange", function () {
    callerToken = takeTokenFromFragment() || callerToken;
    contactRow.hidden = !callerToken;
    showStaffPanel();
  });

  function takeTokenFromFragment() {
    const match = /(?:^#|&)token=([A-Za-z0-9._-]+)/.exec(window.location.hash || "");
    if (!match) return null;
    try {
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
    } catch (e) { /* the token still works for this page */ }
    return match[1];
  }
  function authorized(headers) {
    if (callerToken) headers["Authorization"] = "Bearer " + callerToken;
    return headers;
  }

  function clientId() {
    let id = null;
    try { id = window.localStorage.getItem(CLIENT_KEY); } catch (e) { /* private mode */ }
    if (id && /^[A-Za-z0-9_-]{16,64}$/.test(id)) return id;
    const bytes = new Uint8Array(18);
    window.crypto.getRandomValues(bytes);
    id = Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
    try { window.localStorage.setItem(CLIENT_KEY, id); } catch (e) { /* memory only: this page's turns */ }
    return id;
  }
  const browserId = clientId();

  function sessionId() {
    try { return window.sessionStorage.getItem(SESSION_KEY); } catch (e) { return null; }
  }
  function rememberSession(id) {
    try { if (id) window.sessionStorage.setItem(SESSION_KEY, id); } catch (e) { /* private mode: memory only */ }
  }
  function forgetSession() {
    try { window.sessionStorage.removeItem(SESSION_KEY); } catch (e) { /* nothing stored */ }
  }

  function setBusy(on) {
    busy = on;
    askButton.disabled = on;
    log.setAttribute("aria-busy", on ? "true" : "false");
    statusLine.textContent = on ? "CareDesk is looking this up in the clinic's documents..." : "";
    statusLine.classList.toggle("busy", on);
    if (on) statusLine.scrollIntoView({ block: "nearest" });
  }

  function showError(message, traceId) {
    errorBox.textContent = "";
    const text = document.createElement("p");
    text.textContent = message;
    errorBox.appendChild(text);
    if (traceId) {
      const ref = document.createElement("p");
      ref.className = "error-trace";
      ref.append("Reference for support: ");
      const code = document.createElement("code");
      code.textContent = traceId;
      ref.appendChild(code);
      errorBox.appendChild(ref);
    }
    errorBox.hidden = false;
  }
  function clearError() {
    errorBox.hidden = true;
    errorBox.textContent = "";
  }

  function addUserTurn(text) {
    emptyHint.hidden = true;
    const item = document.createElement("li");
    item.className = "turn user";
    const who = document.createElement("p");
    who.className = "who";
    who.textContent = "You asked";
    const body = document.createElement("p");
    body.textContent = text;
    item.append(who, body);
    log.appendChild(item);
  }

  function addReply(reply) {
    const fragment = replyTemplate.content.cloneNode(true);
    const item = fragment.querySelector("li");
    const outcome = BADGES[reply.outcome] ? reply.outcome : "error";
    item.classList.add("outcome-" + outcome);
    item.dataset.outcome = outcome;
    const badge = item.querySelector(".badge");
    badge.textContent = BADGES[outcome];
    badge.classList.add("badge-" + outcome);

    const answer = item.querySelector(".answer");
    for (const paragraph of String(reply.answer || "").split(/\n{2,}/)) {
      const p = document.createElement("p");
      p.textContent = paragraph;
      answer.appendChild(p);
    }
    if (outcome === "crisis") {
      item.querySelector("article").setAttribute("role", "alert");
      const numbers = Array.from(new Set(String(reply.answer || "").match(PHONE) || []));
      if (numbers.length) {
        const list = item.querySelector(".resource-list");
        for (const number of numbers) {
          const li = document.createElement("li");
          const link = document.createElement("a");
          link.href = "tel:" + number.replace(/-/g, "");
          link.textContent = "Call " + number;
          li.appendChild(link);
          list.appendChild(li);
        }
        item.querySelector(".resources").hidden = false;
      }
    }
    const citations = Array.isArray(reply.citations) ? reply.citations : [];
    if (citations.length) {
      const list = item.querySelector(".citations");
      citations.forEach(function (citation, index) { list.appendChild(citationItem(citation, index + 1)); });
      item.querySelector(".sources").hidden = false;
    }
    item.querySelector(".disclaimer").textContent = reply.disclaimer || "";
    item.querySelector(".trace-id").textContent = reply.trace_id || "-";
    log.appendChild(fragment);
    // Bring the start of the reply into view; focus stays in the question box for the next turn.
    item.scrollIntoView({ block: "start", behavior: "auto" });
  }

  function citationItem(citation, number) {
    citationCounter += 1;
    const quoteId = "quote-" + citationCounter;
    const li = document.createElement("li");
    li.className = "citation";
    const toggle = document.createElement("button");
    toggle.type = "button";
    toggle.className = "cite-toggle";
    toggle.setAttribute("aria-expanded", "false");
    toggle.setAttribute("aria-controls", quoteId);
    toggle.textContent = (citation.heading || "Section") + " - show the quoted passage";
    const source = document.createElement("span");
    source.className = "cite-source";
    source.textContent = "[" + number + "] " + (citation.source || "");
    const quote = document.createElement("blockquote");
    quote.className = "quote";
    quote.id = quoteId;
    quote.hidden = true;
    toggle.addEventListener("click", function () { toggleQuote(toggle, quote, citation); });
    li.append(source, toggle, quote);
    return li;
  }

  async function toggleQuote(toggle, quote, citation) {
    const open = toggle.getAttribute("aria-expanded") === "true";
    if (open) {
      toggle.setAttribute("aria-expanded", "false");
      toggle.textContent = (citation.heading || "Section") + " - show the quoted passage";
      quote.hidden = true;
      return;
    }
    if (!quote.dataset.loaded) {
      quote.textContent = "Loading the passage...";
      quote.hidden = false;
      try {
        const response = await fetch("passage?chunk_id=" + encodeURIComponent(citation.chunk_id), {
          headers: authorized({ "Accept": "application/json" }),
        });
        const body = await response.json().catch(function () { return {}; });
        if (!response.ok) {
          quote.textContent = "The passage could not be shown (" + (body.message || response.status) + ").";
        } else {
          quote.textContent = body.text || "";
          quote.dataset.loaded = "true";
        }
      } catch (e) {
        quote.textContent = "The passage could not be loaded: the service did not answer.";
      }
    }
    quote.hidden = false;
    toggle.setAttribute("aria-expanded", "true");
    toggle.textContent = (citation.heading || "Section") + " - hide the quoted passage";
  }

  async function ask(text) {
    const body = { question: text, client_id: browserId };
    const session = sessionId();
    if (session) body.session_id = session;
    const number = callerToken ? contact.value.trim() : "";
    if (number) body.contact_number = number;
    let response;
    try {
      response = await fetch("ask", {
        method: "POST",
        headers: authorized({ "Content-Type": "application/json", "Accept": "application/json" }),
        body: JSON.stringify(body),
      });
    } catch (e) {
      showError("CareDesk could not be reached. Check your connection and try again.");
      return;
    }
    const payload = await response.json().catch(function () { return null; });
    if (payload && payload.outcome) {
      rememberSession(payload.session_id);
      addReply(payload);
      if (payload.outcome === "error") {
        showError("Your question could not be answered this time. Please try again, or contact the front desk.",
                  payload.trace_id);
      }
      return;
    }
    const reason = payload && payload.message ? payload.message : "HTTP " + response.status;
    if (response.status === 400) {
      showError("CareDesk could not read that question: " + reason);
    } else if (response.status === 401) {
      showError("Your sign-in has expired or is not valid. Please sign in again through the clinic's portal.");
    } else {
      showError("Something went wrong (" + reason + "). Please try again, or contact the front desk.",
                response.headers.get("x-amzn-requestid") || response.headers.get("x-request-id"));
    }
  }

  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    if (busy) return;
    const text = question.value.trim();
    if (!text) {
      showError("Please type a question first.");
      question.focus();
      return;
    }
    clearError();
    addUserTurn(text);
    question.value = "";
    setBusy(true);
    try {
      await ask(text);
    } finally {
      setBusy(false);
      question.focus();
    }
  });

  question.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });

  // -- staff: the handover work list ---------------------------------------------------------
  const handoversPanel = document.getElementById("handovers");
  const handoverList = document.getElementById("handover-list");
  const handoversStatus = document.getElementById("handovers-status");
  const handoverDetail = document.getElementById("handover-detail");
  const revealButton = document.getElementById("handover-reveal");
  const closeForm = document.getElementById("handover-close-form");
  const closeNote = document.getElementById("handover-note");
  let shownHandover = null;

  // The tier the token names, only to decide whether to show the panel: the API checks the
  // signature and refuses every caller but staff (a 403) whatever this says.
  function tokenTier(token) {
    try {
      const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
      return JSON.parse(window.atob(part + "===".slice((part.length + 3) % 4))).tier || null;
    } catch (e) {
      return null;
    }
  }

  function showStaffPanel() {
    const staff = Boolean(callerToken) && tokenTier(callerToken) === "staff";
    handoversPanel.hidden = !staff;
    if (staff) loadHandovers();
  }

  async function staffRequest(path, options) {
    let response;
    try {
      response = await fetch(path, Object.assign({}, options, {
        headers: authorized(Object.assign({ "Accept": "application/json" }, (options || {}).headers)),
      }));
    } catch (e) {
      return { ok: false, message: "CareDesk could not be reached. Check your connection and try again." };
    }
    const body = await response.json().catch(function () { return {}; });
    if (response.ok) return { ok: true, body: body };
    const reasons = {
      401: "Your sign-in has expired or is not valid. Please sign in again through the clinic's portal.",
      403: "Only clinic staff can see handovers.",
      404: "That handover does not exist.",
      409: "That handover was already closed (the audit trail shows by whom).",
    };
    return { ok: false, status: response.status,
             message: reasons[response.status] || ("Something went wrong (" + (body.message || response.status) + ").") };
  }

  async function loadHandovers() {
    handoversStatus.textContent = "Loading the open handovers...";
    const result = await staffRequest("handovers");
    if (!result.ok) {
      handoversStatus.textContent = result.message;
      return;
    }
    const items = Array.isArray(result.body.handovers) ? result.body.handovers : [];
    handoverList.textContent = "";
    for (const item of items) handoverList.appendChild(handoverItem(item));
    handoversStatus.textContent = items.length ? items.length + " open handover(s)." : "No open handovers.";
  }

  function handoverItem(item) {
    const li = document.createElement("li");
    li.dataset.handoverId = item.handover_id;
    const open = document.createElement("button");
    open.type = "button";
    open.className = "handover-open";
    open.textContent = item.handover_id + " - " + item.reason + " - opened " + item.opened_at;
    open.addEventListener("click", function () { showHandover(item.handover_id, false); });
    const summary = document.createElement("p");
    summary.className = "handover-summary";
    summary.textContent = item.masked_question || "";
    li.append(open, summary);
    return li;
  }

  function fact(list, term, value) {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = value;
    list.append(dt, dd);
  }

  async function showHandover(handoverId, revealContact) {
    handoversStatus.textContent = revealContact ? "Decrypting the call-back number..." : "Opening " + handoverId + "...";
    const result = await staffRequest("handovers/" + encodeURIComponent(handoverId) +
                                      (revealContact ? "?reveal_contact=true" : ""));
    if (!result.ok) {
      handoversStatus.textContent = result.message;
      return;
    }
    const item = result.body;
    shownHandover = item.handover_id;
    handoverDetail.querySelector("h3").textContent = "Handover " + item.handover_id + " (" + item.status + ")";
    const facts = handoverDetail.querySelector(".handover-facts");
    facts.textContent = "";
    fact(facts, "Opened", item.opened_at);
    fact(facts, "Reason", item.reason);
    fact(facts, "Caller", item.patient_id ? "patient " + item.patient_id : item.tier + " (not signed in)");
    if (item.contact_number) fact(facts, "Call-back number", item.contact_number);
    else if (item.contact) fact(facts, "Call-back number", "given (encrypted)");
    fact(facts, "Reference", item.trace_id);
    const conversation = handoverDetail.querySelector(".handover-conversation");
    conversation.textContent = "";
    for (const turn of (item.conversation || []).concat([item.masked_question])) {
      const li = document.createElement("li");
      li.textContent = turn;
      conversation.appendChild(li);
    }
    revealButton.hidden = !(item.contact && !item.contact_number);
    closeForm.hidden = item.status !== "open";
    handoverDetail.hidden = false;
    handoversStatus.textContent = "Showing " + item.handover_id + ".";
    handoverDetail.querySelector("h3").focus();
  }

  revealButton.addEventListener("click", function () {
    if (shownHandover) showHandover(shownHandover, true);
  });

  closeForm.addEventListener("submit", async function (event) {
    event.preventDefault();
    if (!shownHandover) return;
    const note = closeNote.value.trim();
    const result = await staffRequest("handovers/" + encodeURIComponent(shownHandover) + "/close", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(note ? { note: note } : {}),
    });
    if (!result.ok) {
      handoversStatus.textContent = result.message;
      return;
    }
    closeNote.value = "";
    handoverDetail.hidden = true;
    shownHandover = null;
    await loadHandovers();
    handoversStatus.textContent = "Closed " + result.body.handover_id + ". " + handoversStatus.textContent;
  });

  document.getElementById("handovers-refresh").addEventListener("click", loadHandovers);
  handoverDetail.querySelector("h3").tabIndex = -1;
  showStaffPanel();

  newButton.addEventListener("click", function () {
    forgetSession();
    log.textContent = "";
    clearError();
    emptyHint.hidden = false;
    statusLine.textContent = "Started a new conversation.";
    question.focus();
  });
})();
