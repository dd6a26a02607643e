"""The answer units, what a question asks for, the fitted models' plumbing and the relevance check."""

from __future__ import annotations

import numpy as np
import pytest
from caredesk.contracts import DraftSentence, Passage
from caredesk.query.generate.answers.compose import (
    asked_columns,
    best_first,
    cued_first,
    select,
    top_section_rest,
    with_gaps,
)
from caredesk.query.generate.answers.decision import (
    DECISION_FEATURES,
    DECISION_SIGNS,
    NAME_UNSEEN,
    NAME_UNSEEN_REASON,
    THING_COVERAGE,
    THING_ESSENTIALS_NAMED,
    THING_HEAD_NOT_NAMED,
    THING_MEASURED,
    THING_NOT_MEASURED,
    THING_NOT_NAMED,
    THING_NOT_PRICED,
    THING_PRICED,
    THING_UNSEEN,
    THING_UNSEEN_REASON,
    DecisionModel,
    decision_signals,
)
from caredesk.query.generate.answers.features import (
    UNIT_FEATURES,
    Candidate,
    QuestionTerms,
    candidates,
    question_terms,
)
from caredesk.query.generate.answers.model import LogisticModel, fit_listwise, fit_logistic, load_models
from caredesk.query.generate.answers.names import asked_names
from caredesk.query.generate.answers.question import (
    Kind,
    asked_kind,
    asked_parts,
    asked_thing,
    asking_text,
    asks_who,
    cued_kinds,
    holds_kind,
    measured_thing_of,
    salient_terms,
    thing_essentials,
)
from caredesk.query.generate.answers.units import HEADING_POSITION, answer_units, defined_terms, refers_back
from caredesk.query.generate.appointments import policy_question
from caredesk.query.review.relevance import (
    chunk_structures,
    figure_asked,
    read_with_lead_ins,
    relevance_failures,
)
from caredesk.query.review.step import nearest_topic
from caredesk.replies import I_DO_NOT_KNOW, i_do_not_know
from caredesk.text import content_words

from tests.scored_units import cosine_scored

FEE_BODY = (
    "| Specialty | Consultant | Head of Department |\n| --- | --- | --- |\n"
    "| Dermatology | INR 600 | INR 1,400 |\n| Cardiology | INR 900 | INR 2,500 |\n\n"
    "The fee covers the **consultation** itself."
)
HOME_HOURS_BODY = ("Doctors' home visits run 10:00 to 17:00, Monday to Saturday.\n\n"
               "Cancelling a home visit less than 24 hours in advance is charged.")
HOME_BODY = "A doctor's home visit is available for patients who:\n\n- are 70 years or older; or\n- are bedridden."


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("How much does it cost to see a heart specialist?", Kind.AMOUNT),
        ("What do I pay if I come back ten days later?", Kind.AMOUNT),
        ("If I call off my visit the evening before, do I lose money?", Kind.AMOUNT),
        ("How long do thyroid results take?", Kind.DURATION),
        ("How far ahead can I book?", Kind.DURATION),
        ("How far back can I download my receipts?", Kind.DURATION),  # a span of time, not a distance
        ("How far out can I book a home visit?", Kind.DURATION),
        ("How far will a doctor travel for a house call?", Kind.DISTANCE),
        ("Till what time is the helpline open?", Kind.TIME),
        ("How many refills can I get in a row?", Kind.COUNT),
        ("How do I join a video consultation?", Kind.STEPS),
        ("Which branch has an emergency room?", Kind.PLACE),
        ("Who do I complain to about my data?", Kind.CONTACT),
        ("Can I pay by cheque?", Kind.YESNO),
        ("Tell me about the care fund", Kind.OTHER),
        ("When is the helpline open?", Kind.TIME),
        ("Is it open on Sundays, and until when?", Kind.TIME),
        ("I forgot to ask when I'd hear back.", Kind.TIME),
        # "when" as a conjunction asks for no time; "when nobody has tuned it" asks what applies by default
        ("What is effective_cache_size when nobody has tuned it?", Kind.DEFAULT),
        ("Which isolation level does a new transaction get unless I say otherwise?", Kind.DEFAULT),
        ("What checkpoint mode does pg_basebackup ask the server for when -c isn't given?", Kind.DEFAULT),
        # a question word in capitals is an SQL keyword, unless the whole message is shouted
        ("When grouping, what is the difference between filtering in WHERE and filtering in HAVING?", Kind.OTHER),
        ("WHERE IS THE LAKESIDE CLINIC?", Kind.PLACE),
        # what applies when the asker sets nothing: documentation answers it with "the default is", "if no ..."
        ("Which lock mode does LOCK TABLE take when I don't name one?", Kind.DEFAULT),
        ("What port does the server listen on if I never set one?", Kind.DEFAULT),
        ("What does listen_addresses default to?", Kind.DEFAULT),
        ("How much memory does work_mem get by default?", Kind.AMOUNT),  # a figure asked for comes first
        ("How long does autovacuum_naptime wait between runs if I leave it alone?", Kind.DURATION),
        ("I don't know who to tell.", Kind.CONTACT),
        ("Is the Riverside branch open for blood work on Sundays?", Kind.TIME),
        ("Which of your branches has an ER that never closes?", Kind.TIME),
        # "open" as an adjective asks for no time
        ("How do I have the server kill sessions that sit idle in the middle of an open transaction?", Kind.STEPS),
        # "who" as a relative pronoun asks for no contact
        ("Can the doctor who does house calls run an ECG?", Kind.YESNO),
        ("If you're the ones who call off my appointment, how long until it hits my card?", Kind.DURATION),
        # the kind is read from the asking sentences, not from the statements around them
        ("Right now a script sends one INSERT per row and the job runs for hours. Someone told me there is "
         "a bulk path that streams rows from a file. What is it?", Kind.OTHER),
        ("EXPLAIN does not tell me how much time went into reading blocks. What does the setting cost?",
         Kind.AMOUNT),
        ("I need to know how late I can cancel.", Kind.TIME),  # no asking sentence: read whole
        # the interrogative names what is wanted back; a topic word of another kind does not
        ("How late can I call off a video consult and still get all my money back?", Kind.TIME),
        ("Where do I pay the fee?", Kind.PLACE),
        ("When is the fee due?", Kind.TIME),
        ("How do I pay my bill?", Kind.STEPS),
        ("I'm writing a C program against libpq. How do I open a connection and check that it worked?", Kind.STEPS),
        # what a thing covers or includes is asked for by its contents, even when the thing is a fee
        ("What exactly does the consultation fee cover?", Kind.OTHER),
        ("What does the home visit charge include?", Kind.OTHER),
        ("What is included in the care plan's yearly fee?", Kind.OTHER),
        ("How much does the plan cover?", Kind.AMOUNT),  # an interrogative still names what is wanted back
        ("What is the fee?", Kind.AMOUNT),
        # a yes/no question about money asks whether; other topic words still name what is wanted
        ("Will I still be charged for that consult?", Kind.YESNO),
        ("Does the confirmation tell me whether my fee is already paid?", Kind.YESNO),
        ("Is the lab open on Sunday?", Kind.TIME),
        ("Any fee for a second opinion?", Kind.AMOUNT),
        # a wh-question asks for a thing whatever modal it carries, unless a clause joined to it asks whether
        ("Which roles are allowed to run DROP ACCESS METHOD, and what kinds of objects go with it?", Kind.OTHER),
        ("The doctors haven't met the family yet. What am I allowed to tell him?", Kind.OTHER),
        ("What does DISCARD ALL reset, and am I allowed to run it inside a transaction block?", Kind.YESNO),
        ("Am I allowed to bring my dog?", Kind.YESNO),
        # a yes/no question after the condition or time it is asked about; a topic cue still comes first
        ("If the police turn up asking for my file, will you just hand it over?", Kind.YESNO),
        ("When I put in the online request, can I pick the tablets up at Hillview?", Kind.YESNO),
        ("If I call off my visit the evening before, do I lose money?", Kind.AMOUNT),
        ("If I book today, when is the earliest slot?", Kind.TIME),
    ],
)
def test_what_a_question_asks_for(question, kind):
    assert asked_kind(question) is kind


@pytest.mark.parametrize(
    ("question", "thing"),
    [
        ("Do you have parking for bicycles at the clinic?", "parking for bicycles"),
        ("Is there a canteen where I can grab a coffee while I wait?", "a canteen"),
        ("Can I bring my dog along to my appointment? He gets anxious alone.", "bring my dog along"),
        ("Do any of your doctors speak Tamil?", "Tamil"),
        ("I'm broke right now. Is there any financial aid so I can still see a doctor?", "any financial aid"),
        ("What does it cost to see a heart specialist?", None),  # a wording no rule reads
        ("How much does it cost?", None),  # "it" names nothing
        ("Is there a way?", None),  # nothing salient is asked about
        ("What do you offer in a situation like this?", None),  # asks what, not whether
        ("How early do I book a home visit? Can I get one today?", None),  # the thing was named before
        # "anything / something" with a clause of its own asks what to do, not whether a thing exists
        ("Is there anything we should sort out in her room before the doctor comes?", None),
        ("Is there something else I need to bring?", None),
        ("Do you have anything for back pain?", "anything for back pain"),
        ("Is there someone higher up I can appeal to?", "someone higher up I can appeal to"),
        ("Hi, do you have a dentist?", "a dentist"),
        # a price asked of a thing: the documents must name it to price it
        ("How much does a chest X-ray cost at your clinic?", "a chest X-ray"),
        ("What is the price of a dental cleaning?", "a dental cleaning"),
        ("What do you charge for a replacement card?", "a replacement card"),
        ("How much is a home visit?", "a home visit"),
        ("How much does it cost to see a heart specialist?", "a heart specialist"),  # "see" asks for no act
        ("How much would it cost me to hire crutches for a month?", "hire crutches for a month"),
        ("How much do you charge to store my baby's cord blood after the birth?", "store my baby's cord blood"),
        ("How much do you charge for a duplicate claim set?", "a duplicate claim set"),
        ("What would I pay for a nurse visit on a Sunday?", "a nurse visit"),
        ("What do we have to pay to rent a wheelchair?", "rent a wheelchair"),
        ("What's the monthly rent for an oxygen concentrator?", "an oxygen concentrator"),
        # ... not of an activity, which the documents price by what it is ("Nurse visit", "Observation bed")
        ("How much does a nurse coming over to change my dressing cost?", None),
        ("How much does lying on an observation bed cost?", None),
        # made to do something, not had: no thing is asked about
        ("Can I have the server parse and plan it once and reuse it?", None),
        # a place or means whose clause says what is asked: no thing a document would name
        ("Is there a spot in my online account where I can keep an eye on the refund?", None),
        ("Is there somewhere to leave my car at the Hillview branch?", None),
        ("Can I get an option to pay in instalments?", None),
        ("Do you have an option for home delivery?", "home delivery"),  # ... or the thing after "for"
        ("Is there a parking place for bikes?", "a parking place for bikes"),  # a placeholder inside names one
        ("Is there a place card at the desk?", "a place card"),
    ],
)
def test_what_an_availability_question_asks_exists(question, thing):
    assert asked_thing(question) == thing


@pytest.mark.parametrize(
    ("question", "essentials"),
    [
        ("Do you have a full-body health check-up package, and what does it cost?", {"package"}),
        ("Do you do MRI scans?", {"scan"}),
        ("Can I donate blood at one of your branches?", {"donate", "blood"}),  # the act is asked for too
        ("Can I get my old visit notes on paper?", {"note"}),  # "get" asks for the thing, not an act
        ("Is there a counsellor I could talk to?", {"counsellor"}),  # the phrase ends where its clause starts
        ("Is there a medical fitness certificate for my visa application?", {"certificate"}),
        ("Can I bring my dog along to my appointment?", {"bring", "dog"}),  # "along" names nothing
        ("Do you deliver medicines to people's houses?", {"deliver", "medicin"}),  # an act, not mere having
        ("Do you sell gift vouchers?", {"voucher"}),  # "sell" only asks whether they are had
        ("Can I pay by cheque?", {"cheque"}),  # the means is asked about, not paying
        ("What does it cost to see a heart specialist?", set()),  # no thing asked
        ("How much would it cost to hire crutches?", {"hire", "crutch"}),  # the act priced is named too
        ("Is there any sort of health problem I shouldn't bring to a video call?", {"problem"}),  # not "sort"
        ("Do you give any kind of discount to students?", {"discount"}),
        ("Can my wife use the check-ups left in my plan?", {"check-up"}),  # "left" qualifies, names nothing
        ("Is there a cheaper deal than paying for each visit?", {"deal"}),  # the comparison is not the thing
        ("Can we see an ordinary doctor there this Sunday?", {"doctor"}),  # the day says when, not what
    ],
)
def test_what_a_unit_must_name_to_be_about_the_asked_thing(question, essentials):
    assert thing_essentials(question) == essentials


def _cosine_only_decision() -> DecisionModel:
    """A decision model that answers when `best_cosine` is positive and reads no other signal."""
    n = len(DECISION_FEATURES)
    return DecisionModel(LogisticModel(DECISION_FEATURES, np.eye(n)[DECISION_FEATURES.index("best_cosine")], 0.0,
                                       np.zeros(n), np.ones(n), 0.5))


# Signals the cosine-only model answers on: only the availability and price rules can refuse them.
_SURE_SIGNALS = {**{name: 0.0 for name in DECISION_FEATURES}, "best_cosine": 5.0}


def test_a_word_of_the_things_phrase_no_readable_document_uses_is_recorded_and_decides():
    seen = {"vaccine": 2.0, "fever": 3.0}
    terms = question_terms("Do you give the yellow fever vaccine? I'm travelling to Kenya.",
                           lambda w: seen.get(w, 9.0), unseen_words=frozenset({"yellow", "kenya"}))
    assert terms.phrase == {"yellow", "fever", "vaccine"} and "kenya" not in terms.phrase
    assert terms.phrase & terms.unseen == {"yellow"}
    model, sure = _cosine_only_decision(), _SURE_SIGNALS
    refused = model.decide({**sure, THING_UNSEEN: 1.0})
    assert not refused.answer and refused.reason == THING_UNSEEN_REASON
    assert model.decide({**sure, THING_UNSEEN: 0.0}).answer


@pytest.mark.parametrize(("question", "names"), [
    ("We are on Amazon RDS for PostgreSQL 15. Which pgBackRest command checks a backup?", {"pgbackrest"}),
    ("Is the HPV vaccine given to adults at Lakeside?", {"hpv", "lakeside"}),
    ("Can I pay for the plan in EMI instalments?", {"emi"}),
    # A story's names set the scene; the asker's calendar, family and titles are not things asked about.
    ("I flew back from Dubai last week. Can my Dad see Dr Rao on Thursday?", {"rao"}),
    # The Guard's masks and "I" are not names; a capitalised word opening a sentence is not one either.
    ("Could [NAME] collect it? I'm not sure. Where is it?", set()),
    # A word with a digit is the asker's own reference.
    ("Can I still cancel APT-1007 without a charge?", set()),
])
def test_the_names_an_asking_sentence_gives_are_found(question, names):
    assert asked_names(question) == names


def test_a_name_the_documents_never_give_is_recorded_and_decides():
    terms = question_terms("We back up with pgBackRest. Which pgBackRest command verifies a backup? Is Patroni fine?",
                           lambda _w: 5.0, unseen_words=frozenset({"pgbackrest", "patroni"}))
    assert terms.unseen_names == {"pgbackrest", "patroni"}
    # A name the documents give, or one the glossary bridges, is not unseen.
    assert question_terms("Is Patroni fine?", lambda _w: 5.0, unseen_words=frozenset()).unseen_names == frozenset()
    glossary = {"upi": {"unifi"}}
    bridged = question_terms("Do you take UPI?", lambda _w: 5.0, related=lambda stem: glossary.get(stem, set()),
                             unseen_words=frozenset({"upi"}))
    assert bridged.unseen_names == frozenset()
    model, sure = _cosine_only_decision(), _SURE_SIGNALS
    refused = model.decide({**sure, NAME_UNSEEN: 1.0})
    assert not refused.answer and refused.reason == NAME_UNSEEN_REASON
    assert model.decide({**sure, NAME_UNSEEN: 0.0}).answer


def test_units_that_name_a_things_other_words_but_not_its_head_do_not_name_the_thing():
    terms = question_terms("Do you have a full-body health check-up package?", lambda _w: 1.0)
    assert terms.essentials == {"package"}
    assert not terms.names_essentials(frozenset({"health", "check-up"}))
    assert terms.names_essentials(frozenset({"health", "packag"}))
    # the light stemmer splits "cheques" ("chequ") from "cheque": five shared letters name it
    cheque = question_terms("Can I pay by cheque?", lambda _w: 1.0)  # asks about the means, not paying
    assert cheque.essentials == {"cheque"} and cheque.names_essentials(frozenset({"chequ", "accept"}))
    parse = QuestionTerms(kind=Kind.YESNO, weights={"parse": 1.0}, related={"parse": set()},
                          essentials=frozenset({"parse"}))
    assert parse.names_essentials(content_words("It is parsed once."))  # "pars": the silent "e" stripped
    assert not parse.names_essentials(content_words("It is planned once."))
    assert question_terms("What does it cost to see a heart specialist?", lambda _w: 1.0).names_essentials(
        frozenset())  # no thing asked: nothing to name
    assert not question_terms("How much is a visit?", lambda _w: 1.0).names_essentials(frozenset({"fee"}))


def test_an_availability_question_is_answered_by_units_that_name_the_thing_asked_about():
    terms = question_terms("Do you have parking for bicycles at the clinic?",
                           {"parking": 4.0, "bicycles": 6.0, "clinic": 0.5}.get)
    assert terms.thing == {"park", "bicycl"}
    assert terms.thing_coverage(frozenset({"bicycl"})) == pytest.approx(0.6)  # IDF-weighted: 6 of 10
    no_thing = "How much does it cost?"  # "it" names nothing
    assert question_terms(no_thing, lambda _w: 1.0).thing_coverage(frozenset()) == 1.0
    passage = Passage(source="kb/public/x.md", chunk_id="loc#1", heading="Clinic Locations", body="", score=1.0,
                      similarity=0.5)

    def chosen(text: str) -> list[tuple[float, Candidate]]:
        unit = answer_units("loc#1", "Clinic Locations", text)[1]
        return [(1.0, Candidate(unit=unit, passage=passage, passage_rank=0, cosine=0.5, heading_cosine=0.5,
                                words=frozenset(content_words(text)), heading_words=frozenset({"clinic", "locat"})))]

    elsewhere, named = chosen("Every branch is open 8:00 to 20:00."), chosen("Bicycle stands are at every branch.")
    missing = decision_signals(elsewhere, [c for _s, c in elsewhere], terms, [passage])
    named = decision_signals(named, [c for _s, c in named], terms, [passage])
    assert missing["thing_coverage"] == 0.0
    assert named["thing_coverage"] == pytest.approx(0.6)


def test_a_price_question_is_answered_only_by_a_unit_that_names_the_thing_and_gives_an_amount():
    terms = question_terms("How much does a chest X-ray cost at your clinic?", lambda _w: 1.0)
    assert terms.priced and terms.essentials == {"x-ray"}
    passage = Passage(source="kb/public/fees.md", chunk_id="fees#2", heading="Consultation Fees", body="", score=1.0,
                      similarity=0.5)

    def signals(*texts: str) -> dict[str, float]:
        units = [answer_units("fees#2", "Consultation Fees", text)[1] for text in texts]
        chosen = [Candidate(unit=unit, passage=passage, passage_rank=0, cosine=0.5, heading_cosine=0.5,
                            words=frozenset(content_words(unit.text)), heading_words=frozenset({"consult", "fee"}))
                  for unit in units]
        return decision_signals([(1.0, c) for c in chosen], chosen, terms, [passage])

    # the thing named in one unit and an amount in another: nothing prices the X-ray
    apart = signals("Cardiology — Consultant: INR 900.",
                    "It does not include imaging such as X-rays, which is billed separately at each branch.")
    assert apart[THING_COVERAGE] > 0.0 and apart[THING_ESSENTIALS_NAMED] == 1.0  # the earlier rules let it by
    assert apart[THING_PRICED] == 0.0
    assert signals("A chest X-ray costs INR 450.")[THING_PRICED] == 1.0
    assert signals("X-rays ordered by our doctors are free.")[THING_PRICED] == 1.0
    # a question that prices no thing is never held to it
    unpriced = question_terms("Do you do X-rays?", lambda _w: 1.0)
    assert not unpriced.priced
    model, sure = _cosine_only_decision(), _SURE_SIGNALS
    refused = model.decide({**sure, THING_PRICED: 0.0})
    assert not refused.answer and refused.reason == THING_NOT_PRICED
    assert model.decide({**sure, THING_PRICED: 1.0}).answer


@pytest.mark.parametrize(
    ("question", "kind", "thing"),
    [
        ("How long do thyroid test results take?", Kind.DURATION, "thyroid test results"),
        ("For how many years are SafeReport incident entries kept before they are deleted?", Kind.DURATION,
         "SafeReport incident entries"),
        ("After the lab has run my test, how long do you keep the leftover sample in case it is needed?",
         Kind.DURATION, "the leftover sample"),
        ("How long is the login code for the portal valid?", Kind.DURATION, "the login code for the portal"),
        ("Roughly how long does a biopsy report usually take to come back?", Kind.DURATION, "a biopsy report"),
        ("How many attachments can I add to one message?", Kind.COUNT, "attachments"),
        ("Which tables are in shared_buffers, and how many buffers does each one use?", Kind.COUNT, "buffers"),
        # a person waits or acts, or the question asks how often or which ones: no thing is measured
        ("How long do I wait?", None, None),
        ("Roughly how long do people usually wait to be seen at night?", None, None),
        ("How can I tell how long each ticket stayed open?", None, None),
        ("How many times can I change my appointment date without paying?", None, None),
        ("Roughly how many of those urgent slots does each doctor keep back?", None, None),
        # the thing was named before
        ("Our doctor wants a stool test. How long do those results usually take?", None, None),
    ],
)
def test_the_thing_a_duration_or_count_question_measures(question, kind, thing):
    measured = measured_thing_of(question)
    assert (measured.kind if measured else None, measured.text if measured else None) == (kind, thing)


def test_a_duration_question_is_answered_only_by_a_unit_that_names_the_thing_and_states_a_duration():
    terms = question_terms("For how many years are SafeReport incident entries kept?", lambda _w: 1.0)
    assert terms.measured_kind is Kind.DURATION and terms.measured == {"safereport", "incident", "entry"}
    passage = Passage(source="kb/public/privacy.md", chunk_id="privacy#3", heading="How Long We Keep It", body="",
                      score=1.0, similarity=0.5)

    def candidate(text: str) -> Candidate:
        unit = answer_units("privacy#3", "How Long We Keep It", text)[1]
        return Candidate(unit=unit, passage=passage, passage_rank=0, cosine=0.5, heading_cosine=0.5,
                         words=frozenset(content_words(unit.text)), heading_words=frozenset({"long", "keep"}))

    def signals(question_terms_: QuestionTerms, *texts: str, context: tuple[str, ...] = ()) -> dict[str, float]:
        chosen = [candidate(text) for text in texts]
        return decision_signals([(1.0, c) for c in chosen], chosen, question_terms_, [passage],
                                [candidate(text) for text in context])

    # durations of other things, and the thing named with no duration: neither says how long it is kept
    assert signals(terms, "Conversation history is kept for 30 days and then deleted.",
                   "Report every incident in SafeReport.")[THING_MEASURED] == 0.0
    assert signals(terms, "SafeReport entries are kept for 10 years.")[THING_MEASURED] == 1.0
    # the thing's qualifiers name it too, and a unit quoted as context after the answer counts
    chats = question_terms("How long do you keep the chats I have with this assistant?", lambda _w: 1.0)
    assert chats.measured == {"chat", "assistant"}
    assert signals(chats, "The assistant can show an appointment's status.")[THING_MEASURED] == 0.0
    assert signals(chats, "The assistant can show an appointment's status.",
                   context=("Online assistant conversations are kept for 30 days.",))[THING_MEASURED] == 1.0
    # a count question is held to a number of its thing
    counted = question_terms("How many attachments can I add to one message?", lambda _w: 1.0)
    assert signals(counted, "Each file may be up to 10 MB.")[THING_MEASURED] == 0.0
    assert signals(counted, "You can add up to 5 attachments.")[THING_MEASURED] == 1.0
    # a question that measures no thing is never held to it
    unmeasured = question_terms("How long do I wait?", lambda _w: 1.0)
    assert unmeasured.measured_kind is None
    assert signals(unmeasured, "Please arrive early.")[THING_MEASURED] == 1.0
    model, sure = _cosine_only_decision(), _SURE_SIGNALS
    refused = model.decide({**sure, THING_MEASURED: 0.0})
    assert not refused.answer and refused.reason == THING_NOT_MEASURED
    assert model.decide({**sure, THING_MEASURED: 1.0}).answer


@pytest.mark.parametrize(
    ("text", "kind", "holds"),
    [
        ("Cardiology — Consultant: INR 900.", Kind.AMOUNT, True),
        ("Senior citizens get 10% off.", Kind.AMOUNT, True),
        ("Consultation fees carry no GST.", Kind.AMOUNT, True),
        ("Please arrive early.", Kind.AMOUNT, False),
        ("The default is 64 megabytes (64MB).", Kind.AMOUNT, True),  # "how much memory" is answered by a quantity
        ("A payload must be shorter than 8000 bytes.", Kind.AMOUNT, True),
        ("The default is one second (1s).", Kind.DURATION, True),
        ("Results arrive within 24 hours.", Kind.DURATION, True),
        ("The helpline is open 8:00 to 20:00.", Kind.TIME, True),
        ("We visit up to 10 km from the branch.", Kind.DISTANCE, True),
        ("We visit homes near the branch.", Kind.DISTANCE, False),
        ("Write to privacy@clinic.example.", Kind.CONTACT, True),
        ("Defaults to listening only on localhost.", Kind.DEFAULT, True),
        ("If no lock mode is specified, then ACCESS EXCLUSIVE, the most restrictive mode, is used.",
         Kind.DEFAULT, True),
        ("Specifies the TCP port the server listens on.", Kind.DEFAULT, False),
        ("Anything", Kind.OTHER, False),
    ],
)
def test_whether_text_holds_the_kind_asked_for(text, kind, holds):
    assert holds_kind(text, kind) is holds


def test_salient_terms_drop_stop_words_contractions_and_generic_words():
    assert salient_terms("Hi, I'm wondering: do you have parking for bicycles at the clinic?") == {"park", "bicycl"}


def test_when_the_asker_tells_their_story_is_not_what_they_ask_about():
    # "last week" dates the story: a unit about "6 weeks" is no closer for it
    assert salient_terms("My daughter turned 16 last week. Can she still see the children's doctor?") == {
        "daughter", "turn", "16", "see", "children", "doctor"}
    assert salient_terms("Can I get a doctor to come home today?") == {"doctor", "come", "home"}
    # the same words naming what is asked about stay
    assert {"week", "last"} <= salient_terms("How many weeks does the effect last?")
    assert "month" in salient_terms("How many visits a month does the plan include?")


def test_a_possessive_or_is_contraction_is_its_word():
    assert salient_terms("What's my child's fee?") == {"child", "fee"}


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        ("I want a second opinion on a knee operation. What's the price and which files should I send?",
         ["I want a second opinion on a knee operation. What's the price",
          "I want a second opinion on a knee operation. which files should I send?"]),
        ("What does a nurse visit cost, and at what hours do nurses come?",
         ["What does a nurse visit cost", "at what hours do nurses come?"]),
        ("Do I pay twice, and can a clinic visit be the follow-up of a video one?",
         ["Do I pay twice", "can a clinic visit be the follow-up of a video one?"]),
        ("How much is a cardiology visit? Is there parking?", ["How much is a cardiology visit?", "Is there parking?"]),
        ("How much is a cardiology visit?", []),
        ("Can I bring my son and my daughter?", []),  # "and" joins nouns, not questions
        ("My results PDF won't open. How do I fix it?", []),  # one thing asked
        # the one thing asked points back at the two needs the message states
        ("My results PDF won't open, and I also want to send it to a specialist in another city. How do I do both?",
         ["My results PDF won't open", "I also want to send it to a specialist in another city"]),
        # the sentence's opening phrase frames its second clause too
        ("For my child's first visit to a pediatrician, how long is the slot and what does the cheapest doctor "
         "charge?",
         ["For my child's first visit to a pediatrician, how long is the slot",
          "For my child's first visit to a pediatrician, what does the cheapest doctor charge?"]),
    ],
)
def test_a_message_that_asks_several_things_is_split_into_parts_with_its_context(question, parts):
    assert [part.text for part in asked_parts(question)] == parts


def test_a_part_is_scored_on_its_own_words_not_on_the_statements_every_part_shares(embedder):
    from caredesk.query.generate.answers.inputs import embedded_inputs

    question = ("I'm on the diabetes plan. How many days of tablets can one refill cover, and how many refills "
                "in a row before I see the doctor?")
    assert [part.own for part in asked_parts(question)] == [
        "How many days of tablets can one refill cover", "how many refills in a row before I see the doctor?"]
    # the opening phrase that frames both clauses is shared too
    framed = asked_parts("For my child's first visit, how long is the slot and what does it cost?")
    assert [part.own for part in framed] == ["how long is the slot", "what does it cost?"]
    parts = embedded_inputs(embedder.embed, question, []).parts
    assert [sorted(part.terms.weights) for part in parts] == [
        ["cover", "days", "one", "refill", "tablet"], ["doctor", "refill", "row", "see"]]
    assert [part.terms.kind for part in parts] == [Kind.DURATION, Kind.COUNT]


def test_each_part_of_a_question_gets_its_own_best_unit(embedder):
    from caredesk.query.generate.answers.compose import compose_answer
    from caredesk.query.generate.answers.inputs import embedded_inputs

    fees = Passage(source="kb/public/opinion.md", chunk_id="kb/public/opinion.md#1", heading="Second Opinion > Fee",
                   body="A written second opinion costs **INR 1,500**. It is refunded if no opinion can be given.",
                   score=0.2, similarity=0.6)
    files = Passage(source="kb/public/portal.md", chunk_id="kb/public/portal.md#4",
                    heading="Patient Portal > Uploading Files",
                    body="The portal keeps your files for 5 years. "
                         "Send the reports and prescriptions from the last 6 months as PDF files.",
                    score=0.1, similarity=0.4)
    question = "I want a second opinion on a knee operation. What's the price and which files should I send?"
    inputs = embedded_inputs(embedder.embed, question, [fees, files])
    assert len(inputs.parts) == 2 and inputs.parts[0].terms.kind is Kind.AMOUNT
    draft = compose_answer(inputs.question_vector, inputs.terms, [fees, files], inputs.unit_vectors,
                           parts=inputs.parts).sentences
    texts = [s.text for s in draft]
    assert any("INR 1,500" in t for t in texts) and any("last 6 months" in t for t in texts)
    alone = compose_answer(inputs.question_vector, inputs.terms, [fees, files], inputs.unit_vectors).sentences
    assert not any("last 6 months" in s.text for s in alone)  # the whole question alone misses the second part
    assert len(texts) == len(set(texts))  # a unit two parts choose is quoted once


def _draft(embedder, question: str, page: Passage) -> list[str]:
    """The composer's draft for `question` from this one passage, as texts."""
    from caredesk.query.generate.answers.compose import compose_answer
    from caredesk.query.generate.answers.inputs import embedded_inputs

    inputs = embedded_inputs(embedder.embed, question, [page])
    return [s.text for s in compose_answer(inputs.question_vector, inputs.terms, [page], inputs.unit_vectors).sentences]


def test_a_sentence_about_the_page_itself_is_never_quoted(embedder):
    page = Passage(source="kb/public/follow_up.md", chunk_id="kb/public/follow_up.md#0", heading="Follow-up Discount",
                   body="This page explains when a follow-up visit is free or discounted. "
                        "A follow-up within 7 days of the first visit is free.",
                   score=0.2, similarity=0.6)
    assert _draft(embedder, "Is a follow-up visit discounted?", page) == [
        "A follow-up within 7 days of the first visit is free."]


def test_units_are_the_heading_then_rows_sentences_and_items_with_their_lead_in():
    units = answer_units("kb/public/fees.md#2", "Fees > Fee Table", FEE_BODY)
    assert units[0].position == HEADING_POSITION and units[0].context == "Fees - Fee Table"
    rows = [u for u in units if u.row is not None]
    assert [u.row.label for u in rows] == ["Dermatology", "Cardiology"]
    assert rows[1].context == "Fee Table: Cardiology — Consultant: INR 900; Head of Department: INR 2,500."
    assert units[-1].context == "Fee Table: The fee covers the consultation itself."  # markup not embedded
    items = answer_units("kb/public/home.md#1", "Home Visits > Who", HOME_BODY)
    first_item = next(u for u in items if "70 years" in u.text)
    assert first_item.is_list_item and first_item.lead_in == "A doctor's home visit is available for patients who:"
    assert "available for patients who: are 70 years" in first_item.context


REFERENCE_BODY = (
    "checkpoint_timeout (integer)\n\n"
    "Maximum time between automatic WAL checkpoints. The default is five minutes (5min).\n\n"
    "checkpoint_warning (integer)\n\n"
    "Write a message to the server log if checkpoints happen closer together than this. The default is 30 seconds."
)


def test_a_short_line_before_its_description_is_the_defined_term_of_the_units_under_it():
    units = answer_units("kb/public/pg/wal.html#3", "Write Ahead Log > Checkpoints", REFERENCE_BODY)
    texts = [u.text for u in units[1:]]
    assert "checkpoint_timeout (integer)" not in texts  # the term names, it answers nothing alone
    default = next(u for u in units if u.text == "The default is five minutes (5min).")
    assert default.term == "checkpoint_timeout (integer)"
    assert default.context == "Checkpoints: checkpoint_timeout (integer) The default is five minutes (5min)."
    assert next(u for u in units if u.text == "The default is 30 seconds.").term == "checkpoint_warning (integer)"


@pytest.mark.parametrize("body", [
    "Opening hours\n\n- Monday to Friday: 8:00 to 20:00.",  # a list follows: its lead-in, not a term
    "The clinic is open.\n\nIt opens at 8:00 on weekdays.",  # a sentence, not a term
    "CREATE TYPE bigobj (\n\nINPUT = lo_filein, OUTPUT = lo_fileout",  # code, no prose follows
    "Introduction\n\n3.2.",  # too short to describe anything
    "A label of far too many words to be any reference's defined term at all here\n\nIt is described here.",
])
def test_what_is_not_a_defined_term(body):
    assert defined_terms(body) == set()


def test_a_table_ends_the_description_of_a_term():
    body = ("work_mem (integer)\n\nSets the base maximum amount of memory.\n\n"
            "| Setting | Default |\n|---|---|\n| maintenance_work_mem | 64 megabytes |")
    row = next(u for u in answer_units("a#1", "A", body) if u.row is not None)
    assert row.term is None


def test_the_term_is_quoted_once_before_the_first_unit_chosen_under_it(embedder):
    page = Passage(source="kb/public/pg/wal.html", chunk_id="kb/public/pg/wal.html#3",
                   heading="Write Ahead Log > Checkpoints", body=REFERENCE_BODY, score=0.3, similarity=0.6)
    draft = _draft(embedder, "What is the default checkpoint_timeout?", page)
    assert "The default is five minutes (5min)." in draft
    assert draft.index("checkpoint_timeout (integer)") < draft.index("The default is five minutes (5min).")
    assert draft.count("checkpoint_timeout (integer)") == 1


EMERGENCY_FOLLOW_UP_BODY = (
    "You leave with a written summary of what was found.\n\n"
    "The first specialist consultation recommended by the emergency room doctor counts as a follow-up of the "
    "emergency visit. It is charged at 50% of the specialist's fee if it takes place within 15 days.\n\n"
    "It is possible to ask for a copy of the summary later. These copies are free."
)


def test_a_sentence_that_refers_back_names_the_sentence_before_it():
    units = {u.text: u for u in answer_units("kb/public/er.md#4", "Emergency Visits > After", EMERGENCY_FOLLOW_UP_BODY)}
    charged = units["It is charged at 50% of the specialist's fee if it takes place within 15 days."]
    assert charged.antecedent.startswith("The first specialist consultation recommended")
    assert charged.context == ("After: It is charged at 50% of the specialist's fee if it takes place within "
                               "15 days.")  # what is embedded is unchanged: stored vectors stay valid
    # "It is possible to ..." points at what follows, not back; "These copies" points back at it
    assert units["It is possible to ask for a copy of the summary later."].antecedent is None
    assert units["These copies are free."].antecedent == "It is possible to ask for a copy of the summary later."
    assert units["You leave with a written summary of what was found."].antecedent is None
    # a list item or a row is read under its lead-in or header, never after a sentence it does not follow
    listed = answer_units("kb/public/home.md#1", "Home Visits > Who", HOME_BODY + "\n\nThey must be registered.")
    assert next(u for u in listed if u.text == "They must be registered.").antecedent is None


@pytest.mark.parametrize(("text", "back"), [
    ("It applies to prepaid appointments.", True),
    ("This discussion is free.", True),
    ("They are not an emergency service: in an emergency, call 112.", True),
    ("It is not suitable for every problem.", True),
    ("It's wise to be conservative about adding non-key columns.", False),
    ("It is also possible to use SSH to encrypt the connection.", False),
    ("Itemised bills are sent by e-mail.", False),
    ("There is no charge for a repeat collection.", False),
    ("After that the request lapses and you must ask again.", True),
    ("If not, the front desk books a new slot.", True),
    ("Aftercare instructions are given in writing.", False),
    # sentences that go on from the one before
    ("However, the tar format does not support compression.", True),
    ("Then actual run time statistics are added to the display.", True),
    ("But the fee must be prepaid.", True),
    ("Thenar muscle pain is treated by the orthopaedic team.", False),
    ("Butterfly needles are used for children.", False),
    # a phrase that names the thing the sentence before described ("-t: Turn on autocommit. In this mode, ...")
    ("In this mode, each SQL command is automatically committed.", True),
    ("With such statistics, the planner recognizes that the conditions are redundant.", True),
    ("To do that, you must revoke the default PUBLIC privileges.", True),
    ("For this reason the fee is not refunded.", True),
    ("In the default mode, commands are committed only when EXEC SQL COMMIT is issued.", False),
    ("In this section we describe the refund steps.", False),  # the document, not the sentence before
    ("With thin margins, refunds are batched.", False),
])
def test_which_sentences_refer_back(text, back):
    assert refers_back(text) is back


def test_a_sentence_that_refers_back_is_quoted_after_the_sentence_it_refers_to(embedder):
    page = Passage(source="kb/public/er.md", chunk_id="kb/public/er.md#4", heading="Emergency Visits > After",
                   body=EMERGENCY_FOLLOW_UP_BODY, score=0.3, similarity=0.6)
    draft = _draft(embedder, "How much is it charged at if it takes place within 15 days?", page)
    charged = "It is charged at 50% of the specialist's fee if it takes place within 15 days."
    antecedent = next(t for t in draft if t.startswith("The first specialist consultation recommended"))
    assert draft.index(antecedent) == draft.index(charged) - 1
    assert draft.count(antecedent) == 1


def test_the_sentence_referred_back_to_stays_with_the_one_that_refers_to_it(embedder):
    """The antecedent shares no word with the question; the sentence after it is read with it and answers it,
    so both stay. Without the sentence that refers back, the antecedent is judged on its own and goes."""
    page = Passage(source="kb/public/er.md", chunk_id="kb/public/er.md#4", heading="Emergency Visits > After",
                   body=EMERGENCY_FOLLOW_UP_BODY, score=0.3, similarity=0.6)
    antecedent = DraftSentence(text=("The first specialist consultation recommended by the emergency room doctor "
                                     "counts as a follow-up of the emergency visit."), chunk_ids=[page.chunk_id])
    charged = DraftSentence(text="It is charged at 50% of the specialist's fee if it takes place within 15 days.",
                            chunk_ids=[page.chunk_id])
    question = "What percentage of the fee is charged?"
    assert relevance_failures(question, [antecedent, charged], [page], embedder.embed, 0.99) == {}
    assert relevance_failures(question, [antecedent], [page], embedder.embed, 0.99) == {
        0: "not_relevant:no_question_terms"}
    assert read_with_lead_ins([antecedent, charged], chunk_structures([page]))[1] == (
        f"{antecedent.text} {charged.text}")


REFILL_RULES_BODY = ("Requesting a refill is free.\n\nYou can request a refill when all of these are true:\n\n"
               "- the medicine was prescribed by a Sunrise Clinics doctor;\n- you were seen in the last 6 months;\n"
               "- the prescription says it continues.\n\nApproved refills are held for 7 days.")


def _candidates(body: str, chunk_id: str = "kb/public/refills.md#2") -> list[Candidate]:
    page = Passage(source=chunk_id.split("#")[0], chunk_id=chunk_id, heading="Refills > When", body=body, score=0.3,
                   similarity=0.6)
    return [Candidate(u, page, 0, 0.5, 0.5, frozenset(), frozenset())
            for u in answer_units(chunk_id, page.heading, body) if not u.is_heading]


def test_a_section_mate_ranks_with_the_retrieved_chunk_whose_section_it_continues():
    def page(chunk_id: str, heading: str, body: str, continues: str | None = None) -> Passage:
        return Passage(source=chunk_id.split("#")[0], chunk_id=chunk_id, heading=heading, body=body, score=0.3,
                       similarity=0.6, continues=continues)

    passages = [page("kb/public/pg/show.html#3", "Parameters", "The name of a run-time parameter."),
                page("kb/public/pg/set.html#1", "Description", "SET changes run-time parameters."),
                page("kb/public/pg/show.html#4", "Parameters", "True if the current role has superuser privileges.",
                     continues="kb/public/pg/show.html#3"),
                page("kb/public/pg/show.html#2", "Parameters", "Parameters can be shown. There are many of them.",
                     continues="kb/public/pg/show.html#3")]
    vectors = {(p.chunk_id, u.context_hash): np.ones(3, dtype=np.float32)
               for p in passages for u in answer_units(p.chunk_id, p.heading, p.body)}
    ranks = {c.unit.chunk_id: c.passage_rank for c in candidates(passages, np.ones(3, dtype=np.float32), vectors)}
    assert ranks == {"kb/public/pg/show.html#3": 0, "kb/public/pg/set.html#1": 1, "kb/public/pg/show.html#4": 0,
                     "kb/public/pg/show.html#2": 0}
    # their units are the rest of the top-ranked section, quoted as context after the answer in document order
    found = candidates(passages, np.ones(3, dtype=np.float32), vectors)
    rest = top_section_rest(found, [found[0]])
    assert [(c.unit.chunk_id, c.unit.position) for c in rest] == [
        ("kb/public/pg/show.html#2", 0), ("kb/public/pg/show.html#2", 1), ("kb/public/pg/show.html#4", 0)]


def test_the_reply_opens_with_the_best_unit_and_a_list_moves_whole():
    found = _candidates(REFILL_RULES_BODY)
    free, *items, held = found
    assert best_first([free, held], held) == [held, free]
    # a list item opens the reply with the other chosen items of its list, in their order
    assert best_first([free, *items, held], items[1]) == [*items, free, held]
    assert best_first([free, held], items[0]) == [free, held]  # not chosen: the order stays


VALIDATOR_BODY = ("Note that it is possible that pre-existing options are invalid according to the new validator. "
                  "PostgreSQL does not check for this. It is up to the user to make sure that these options are "
                  "correct. However, any options specified in this command will be checked.")


def test_a_sentence_standing_alone_between_two_chosen_sentences_is_quoted_with_them():
    note, unchecked, up_to_you, however = _candidates(VALIDATOR_BODY, "kb/public/pg/fdw.html#4")
    assert with_gaps([note, up_to_you], [note, unchecked, up_to_you, however]) == [note, unchecked, up_to_you]
    assert with_gaps([note, however], [note, unchecked, up_to_you, however]) == [note, however]  # two apart: no
    # list items and table rows are chosen one by one: a list's unchosen item stays out
    free, first, second, third, held = _candidates(REFILL_RULES_BODY)
    assert with_gaps([first, third], [free, first, second, third, held]) == [first, third]


def test_the_reviewer_keeps_a_sentence_between_its_two_kept_neighbours_in_the_source(embedder):
    page = Passage(source="kb/public/pg/fdw.html", chunk_id="kb/public/pg/fdw.html#4",
                   heading="ALTER FOREIGN DATA WRAPPER > Parameters", body=VALIDATOR_BODY, score=0.3, similarity=0.6)
    note, unchecked, up_to_you, _however = (DraftSentence(text=u.text, chunk_ids=[page.chunk_id])
                                            for u in answer_units(page.chunk_id, page.heading, page.body)
                                            if not u.is_heading)
    question = "Will the new validator look at the options that are already stored?"
    assert relevance_failures(question, [note, unchecked, up_to_you], [page], embedder.embed, 0.99) == {}
    # quoted after anything but its source neighbours, it is judged alone
    assert relevance_failures(question, [note, unchecked], [page], embedder.embed, 0.99) == {
        1: "not_relevant:no_question_terms"}


def test_a_composed_reply_opens_with_the_unit_that_answers(embedder):
    """The section's other sentences join the answer; the one that answers comes first, not third."""
    body = ("Refills are collected at the pharmacy counter of the branch you chose. The pharmacy counter is open from "
            "8:00 to 20:00 every day. Approved refills are held at the counter for 7 days. "
            "After that the request lapses.")
    page = Passage(source="kb/public/refills.md", chunk_id="kb/public/refills.md#3",
                   heading="Prescription Refills > Collecting", body=body, score=0.3, similarity=0.6)
    draft = _draft(embedder, "How long will the pharmacy counter hold my approved refill?", page)
    assert draft[0] == "Approved refills are held at the counter for 7 days."
    assert "Refills are collected at the pharmacy counter of the branch you chose." in draft[1:]


def test_a_chain_of_sentences_that_refer_back_stays_whole_when_its_last_one_answers(embedder):
    body = ("Sunrise runs a second opinion service. It is handled by the senior consultants. "
            "They reply within 5 working days.")
    page = Passage(source="kb/public/so.md", chunk_id="kb/public/so.md#1", heading="Second Opinion > Timing",
                   body=body, score=0.3, similarity=0.6)
    sentences = [DraftSentence(text=t, chunk_ids=[page.chunk_id]) for t in (
        "Sunrise runs a second opinion service.", "It is handled by the senior consultants.",
        "They reply within 5 working days.")]
    assert relevance_failures("How many working days for a reply?", sentences, [page], embedder.embed, 0.99) == {}


def test_units_are_the_same_at_ingest_and_at_query_time():
    first = answer_units("a#1", "A > B", FEE_BODY)
    second = answer_units("a#1", "A > B", FEE_BODY)
    assert [u.context_hash for u in first] == [u.context_hash for u in second]
    assert len({u.context_hash for u in first}) == len(first)


def test_a_row_renders_only_the_columns_asked_for_in_the_tables_order():
    row = next(u.row for u in answer_units("a#1", "A", FEE_BODY) if u.row is not None and u.row.label == "Cardiology")
    assert row.render(["Head of Department"]) == "Cardiology — Head of Department: INR 2,500."
    assert row.render(["Head of Department", "Consultant"]) == row.render()


SECOND_OPINION_ROW = (("Written opinion", "INR 1,200"), ("Reviewed by", "Head of Department"))
BRANCH_HOURS_ROW = (("Monday to Saturday", "7:30 to 13:00"), ("Sunday", "Closed"))


def test_a_row_shows_the_figure_asked_for_when_the_named_columns_hold_none():
    asks_fee = question_terms("What would I pay for the head of dermatology?", lambda _word: 3.0)
    assert asked_columns("Dermatology", SECOND_OPINION_ROW, asks_fee) == ["Written opinion", "Reviewed by"]
    names_fee = question_terms("What is the written opinion fee for dermatology?", lambda _word: 3.0)
    assert asked_columns("Dermatology", SECOND_OPINION_ROW, names_fee) == ["Written opinion"]
    # "Closed" answers a "when" question: the other days' hours stay out.
    asks_time = question_terms("Is the branch open on Sundays?", lambda _word: 3.0)
    assert asked_columns("Hillview", BRANCH_HOURS_ROW, asks_time) == ["Sunday"]
    assert asked_columns("Dermatology", SECOND_OPINION_ROW, question_terms("Dermatology?", lambda _w: 3.0)) is None


def test_a_who_question_asks_for_the_column_that_says_who_does_it():
    pairs = (("Reviewed by", "Root cause analysis panel"), ("Review starts", "Within 24 hours"),
             ("Report completed", "30 days"))
    idf = {"review": 1.0, "start": 4.0, "s1": 5.0}.get
    who_and_when = question_terms("Who reviews an S1 incident, and how soon does the review start?",
                                  lambda w: idf(w, 3.0))
    assert who_and_when.asks_who
    assert asked_columns("S1", pairs, who_and_when) == ["Reviewed by", "Review starts"]
    when_only = question_terms("How soon does the review of an S1 incident start?", lambda w: idf(w, 3.0))
    assert not when_only.asks_who
    assert asked_columns("S1", pairs, when_only) == ["Review starts"]


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Who reviews it?", True),
        ("Which severity is it, who reviews it, and how soon?", True),  # a later clause asks
        ("To whom do I write?", True),
        ("Whose signature is needed?", True),
        ("The doctor who saw me was rude. What can I do?", False),  # a relative pronoun in the story
        ("Can the nurse who comes home change a dressing?", False),  # a relative pronoun in the question
    ],
)
def test_which_messages_ask_who(question, asks):
    assert asks_who(question) is asks


def test_a_column_is_asked_for_by_the_asking_sentences_not_by_the_story_around_them():
    pairs = (("Emergency room", "No emergency room"), ("Ambulance bay", "No"))
    story = question_terms("The staff phoned for an ambulance for my father. Which branch should we go to next time?",
                           lambda _word: 3.0)
    assert asked_columns("Greenfield", pairs, story) is None  # the story's ambulance asks for no column
    asked = question_terms("My father fainted. Does the Greenfield branch have an ambulance bay?", lambda _word: 3.0)
    assert asked_columns("Greenfield", pairs, asked) == ["Ambulance bay"]


def test_a_column_is_asked_for_only_by_a_word_nearly_as_rare_as_the_questions_rarest():
    pairs = (("In-clinic consultation", "Flat fee of INR 200"), ("Home visit", "Flat fee of INR 400"))
    idf = {"visit": 0.9, "home": 1.5}.get
    generic = question_terms("If I call off my visit the evening before, do I lose money?", lambda w: idf(w, 5.0))
    assert asked_columns("Between 4 and 24 hours before", pairs, generic) is None  # "visit" is any visit
    named = question_terms("How much is a home visit?", lambda w: idf(w, 5.0))
    assert asked_columns("Between 4 and 24 hours before", pairs, named) == ["Home visit"]
    # a rare row name does not make the column's word too common to ask for it
    branch = (("address", "2 Lake View Road"), ("outpatient hours sunday", "09:00-13:00"))
    rare_row = question_terms("What's the address of the Lakeside branch?",
                              {"lakeside": 5.0, "address": 1.2, "branch": 0.5}.get)
    assert asked_columns("Lakeside", branch, rare_row) == ["address"]


CHARGES_BODY = (
    "| Notice | Charge |\n| --- | --- |\n| 24 hours or more before | Free |\n"
    "| Between 4 and 24 hours before | INR 200 |\n| Less than 4 hours before | 50% of the fee |"
)


def test_rows_of_a_table_the_question_names_no_row_of_join_on_their_score():
    charges = Passage(source="kb/public/cancel.md", chunk_id="cancel#2", heading="Cancellation > Charges",
                      body=CHARGES_BODY, score=0.3, similarity=0.6)
    scored, terms = cosine_scored([charges], "If I call it off the evening before, do I lose money?", {
        "Less than 4 hours before": 1.0, "24 hours or more before": 0.95, "Between 4 and 24 hours before": 0.9})
    chosen = [c.unit.row.label for c in select(scored, terms)]
    assert chosen == ["24 hours or more before", "Between 4 and 24 hours before", "Less than 4 hours before"]


FOLLOW_UP_BODY = (
    "| Follow-up booked for | You pay |\n| --- | --- |\n| Day 1 to day 7 | Nothing (free follow-up) |\n"
    "| Day 8 to day 15 | 50% of the doctor's fee |\n| Day 16 onwards | The full fee |"
)


def test_a_table_the_question_names_no_row_of_is_quoted_whole_once_one_of_its_rows_joins():
    windows = Passage(source="kb/public/follow_up.md", chunk_id="follow_up#2", heading="Follow-up > How Much You Pay",
                      body=FOLLOW_UP_BODY, score=0.3, similarity=0.6)
    intro = Passage(source="kb/public/follow_up.md", chunk_id="follow_up#0", heading="Follow-up",
                    body="You should not have to pay a full fee every time you come back.", score=0.3, similarity=0.6)
    # only the half-price row scores close enough to the best unit to join on its own
    scored, terms = cosine_scored([intro, windows], "Is there a discount if I come back for a follow-up?", {
        "You should not have to pay a full fee every time you come back.": 1.0, "Day 8 to day 15": 0.8,
        "Day 1 to day 7": 0.2, "Day 16 onwards": 0.1})
    chosen = [c.unit.row.label for c in select(scored, terms) if c.unit.row is not None]
    assert chosen == ["Day 1 to day 7", "Day 8 to day 15", "Day 16 onwards"]


def test_a_table_whose_row_the_question_names_stays_that_row():
    fees = Passage(source="kb/public/fees.md", chunk_id="fees#1", heading="Fees > Fee Table",
                   body="| Specialty | Fee |\n| --- | --- |\n| Cardiology | INR 900 |\n| Dermatology | INR 600 |\n"
                        "| Pediatrics | INR 500 |", score=0.3, similarity=0.6)
    scored, terms = cosine_scored([fees], "What is the cardiology fee?", {
        "Cardiology": 1.0, "Dermatology": 0.2, "Pediatrics": 0.1})
    assert [c.unit.row.label for c in select(scored, terms)] == ["Cardiology"]


def test_a_section_that_joins_brings_its_units_that_score_close_to_the_one_that_joined():
    source = "kb/public/home_visits.md"
    charges = Passage(source=source, chunk_id="home#2", heading="Home Visits > Services and Charges",
                      body="A doctor's home visit costs the consultation fee plus INR 400.", score=0.3, similarity=0.6)
    follow_up = Passage(source=source, chunk_id="home#4", heading="Home Visits > Follow-up at Home",
                        body="A follow-up home visit is covered by the Follow-up Discount for the consultation fee. "
                             "The visit charge is always payable in full. Visits run from 10:00 to 17:00.",
                        score=0.2, similarity=0.5)
    scored, terms = cosine_scored([charges, follow_up], "Is a second house call within a week free?", {
        "A doctor's home visit costs the consultation fee plus INR 400.": 1.0,
        "A follow-up home visit is covered by the Follow-up Discount for the consultation fee.": 0.75,
        # too far below the best unit to join on its own, close to the unit of its section that joined
        "The visit charge is always payable in full.": 0.6,
        "Visits run from 10:00 to 17:00.": 0.3})
    assert [c.unit.text for c in select(scored, terms)] == [
        "A doctor's home visit costs the consultation fee plus INR 400.",
        "A follow-up home visit is covered by the Follow-up Discount for the consultation fee.",
        "The visit charge is always payable in full."]


REFILL_BODY = ("You can request a refill when all of these are true:\n\n"
               "- you were seen by that doctor in the last 6 months;\n- the medicine is for an ongoing condition;\n"
               "- the medicine was prescribed by a Sunrise Clinics doctor;\n"
               "- the medicine is not on the never-refilled list.")


def test_a_list_two_of_whose_items_are_chosen_is_quoted_whole():
    refills = Passage(source="kb/public/refills.md", chunk_id="refills#1", heading="Refills > Who Can Request",
                      body=REFILL_BODY, score=0.3, similarity=0.6)
    question = "Can one of your doctors okay a fresh supply of my tablets online?"
    two_close = {"you were seen by that doctor in the last 6 months;": 0.9,
                 "the medicine is for an ongoing condition;": 0.85}
    chosen = [c.unit.text for c in select(*cosine_scored([refills], question, two_close))]
    # all four conditions, in reading order: two of them alone state a different rule
    assert len(chosen) == 4 and "prescribed by a Sunrise Clinics doctor" in chosen[2]
    one_close = {"you were seen by that doctor in the last 6 months;": 0.9}
    assert len(select(*cosine_scored([refills], question, one_close))) == 1


def test_a_long_list_is_not_completed():
    from caredesk.query.generate.answers.compose import WHOLE_LIST_MAX_ITEMS, select

    items = [f"item number {n} of a long menu of services;" for n in range(WHOLE_LIST_MAX_ITEMS + 1)]
    menu = Passage(source="kb/public/menu.md", chunk_id="menu#1", heading="Services > Menu",
                   body="We offer these services:\n\n" + "\n".join(f"- {item}" for item in items),
                   score=0.3, similarity=0.6)
    scored, terms = cosine_scored([menu], "Do you offer item number 1 or 2?", {items[1]: 0.9, items[2]: 0.85})
    assert len(select(scored, terms)) == 2


def test_a_row_the_question_names_by_label_and_column_answers_first_whatever_its_score():
    from caredesk.query.generate.answers.compose import pinpointed_first, select

    sentence = "Home visits cover addresses near the Lakeside branch."
    branches = Passage(source="kb/public/branches.csv", chunk_id="branches#0", heading="Branches",
                       body="| branch | address | email |\n| --- | --- | --- |\n"
                            "| Lakeside | 2 Lake View Road | lakeside@example |\n"
                            "| Hillview | 88 Hill Lane | hill@example |",
                       score=0.2, similarity=0.4)
    visits = Passage(source="kb/public/visits.md", chunk_id="visits#1", heading="Home Visits > Where",
                     body=sentence, score=0.3, similarity=0.6)
    scored, terms = cosine_scored([visits, branches], "What is the address of the Lakeside branch?",
                                   {"Lakeside": 0.5, "Hillview": 0.45, sentence: 0.9})
    assert scored[0][1].unit.row is None  # the sentence outscores the row
    first = pinpointed_first(scored, terms)
    assert first[0][1].unit.row.label == "Lakeside" and sorted(map(id, first)) == sorted(map(id, scored))
    assert select(first, terms)[0].unit.row.label == "Lakeside"
    # naming the row alone ("Lakeside") or a column alone ("address") pinpoints no cell
    for question in ("Tell me about Lakeside.", "Which addresses do home visits cover?"):
        unnamed = question_terms(question, lambda _w: 1.0)
        assert pinpointed_first(scored, unnamed) == scored


def test_another_row_of_a_table_whose_row_the_question_names_does_not_join():
    fees = Passage(source="kb/public/fees.md", chunk_id="fees#1", heading="Fees", body=FEE_BODY, score=0.3,
                   similarity=0.6)
    scored, terms = cosine_scored([fees], "How much does cardiology cost?", {"Cardiology": 1.0, "Dermatology": 0.95})
    assert [c.unit.row.label for c in select(scored, terms) if c.unit.row] == ["Cardiology"]


def test_question_terms_weigh_by_idf_and_mark_words_no_document_uses():
    terms = question_terms("parking for bicycles and fees", {"parking": 5.0, "bicycles": 5.0, "fees": 1.0}.get,
                           unseen_words=frozenset({"parking", "bicycles"}))
    assert terms.weights == {"park": 5.0, "bicycl": 5.0, "fees": 1.0}
    assert terms.unseen == {"park", "bicycl"}
    assert terms.coverage({"fees"}) == pytest.approx(1 / 11)
    heart = question_terms("fee of a cardiologist", lambda _word: 4.0)
    assert heart.covers("cardiologist", {"cardiology"})  # a shared six-letter prefix


def test_the_stored_models_match_the_code_and_record_what_they_were_fitted_on():
    stored = load_models()
    assert tuple(stored["unit"]["features"]) == UNIT_FEATURES
    assert tuple(stored["decision"]["features"]) == DECISION_FEATURES
    assert stored["fitted_on"]["golden_split"] == "dev"
    weights = np.asarray(stored["decision"]["weights"])
    assert all(sign * w >= 0 for sign, w in zip(DECISION_SIGNS, weights, strict=True))
    assert 0.0 < stored["review_relevance"]["cosine_threshold"] < 1.0


def test_logistic_fit_separates_and_respects_sign_constraints():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(200, 2))
    y = (x[:, 0] > 0).astype(float)
    model = fit_logistic(x, y, ("signal", "noise"))
    assert model.weights[0] > 1.0
    constrained = fit_logistic(x, y, ("signal", "noise"), signs=(-1, 0))
    assert constrained.weights[0] == 0.0
    assert ((model.probabilities(x) > 0.5) == (y > 0.5)).mean() > 0.95


def test_listwise_ranker_puts_the_positive_first():
    groups = [(np.array([[0.1, 1.0], [0.9, 0.0], [0.2, 0.5]]), np.array([0.0, 1.0, 0.0])) for _ in range(5)]
    ranker = fit_listwise(groups, ("good", "bad"))
    assert int(np.argmax(ranker.scores(groups[0][0]))) == 1


def test_a_decision_says_which_signal_argued_against_answering():
    model = _cosine_only_decision()
    signals = {name: 0.0 for name in DECISION_FEATURES}
    assert model.decide({**signals, "best_cosine": 2.0}).answer
    refused = model.decide({**signals, "best_cosine": -2.0})
    assert not refused.answer and refused.reason == "abstain:best_cosine"


def test_an_availability_question_whose_thing_no_chosen_unit_names_is_not_answered_whatever_the_score():
    model, sure = _cosine_only_decision(), _SURE_SIGNALS
    assert model.decide({**sure, THING_COVERAGE: 0.5}).answer  # the thing is partly named: the model decides
    refused = model.decide({**sure, THING_COVERAGE: 0.0})
    assert not refused.answer and refused.reason == THING_NOT_NAMED
    assert refused.signals[THING_COVERAGE] == 0.0  # recorded for the audit like every signal
    headless = model.decide({**sure, THING_COVERAGE: 0.5, THING_ESSENTIALS_NAMED: 0.0})
    assert not headless.answer and headless.reason == THING_HEAD_NOT_NAMED
    assert model.decide({**sure, THING_COVERAGE: 0.5, THING_ESSENTIALS_NAMED: 1.0}).answer


FEES = Passage(source="kb/public/fees.md", chunk_id="kb/public/fees.md#2", heading="Fees > Fee Table",
               body=FEE_BODY, score=0.1, similarity=0.6)
PARKING_FREE = Passage(source="kb/public/visit.md", chunk_id="kb/public/visit.md#1", heading="Visiting > Arrival",
                       body="Please arrive 15 minutes before your slot to check in.", score=0.1, similarity=0.4)


def test_relevance_removes_a_supported_sentence_that_does_not_address_the_question(embedder):
    sentences = [DraftSentence(text="Please arrive 15 minutes before your slot to check in.",
                               chunk_ids=[PARKING_FREE.chunk_id])]
    failures = relevance_failures("Is there a cafeteria serving vegetarian food?", sentences, [PARKING_FREE],
                                  embedder.embed, threshold=0.5)
    assert failures == {0: "not_relevant:no_question_terms"}


HOME_BOOKING = Passage(source="kb/public/home.md", chunk_id="kb/public/home.md#2",
                       heading="Home Visits > Hours and Booking", body=HOME_HOURS_BODY, score=0.1, similarity=0.5)
HOME_HOURS = DraftSentence(text="Doctors' home visits run 10:00 to 17:00, Monday to Saturday.",
                           chunk_ids=[HOME_BOOKING.chunk_id])
HOME_CANCEL_WINDOW = DraftSentence(text="Cancelling a home visit less than 24 hours in advance is charged.",
                                   chunk_ids=[HOME_BOOKING.chunk_id])


def test_relevance_is_judged_on_what_is_asked_not_on_the_story_around_it(embedder):
    booking, hours, window = HOME_BOOKING, HOME_HOURS, HOME_CANCEL_WINDOW
    story = "I have been unwell for days and I booked a home visit. How late can I cancel without paying?"
    # "visit" and "days" are the story's words: the hours share them, and nothing the message asks.
    assert relevance_failures(story, [hours, window], [booking], embedder.embed, threshold=0.99) == {
        0: "not_relevant:no_question_terms"}
    # Asked about the visit itself, the same sentence addresses it.
    assert relevance_failures("When do home visits run?", [hours], [booking], embedder.embed, 0.99) == {}
    # A message whose asking sentence names nothing ("How do I do both?") is read whole.
    both = "My booked home visit clashes with work. How do I do both?"
    assert relevance_failures(both, [hours], [booking], embedder.embed, 0.99) == {}


def test_relevance_embeds_only_the_sentences_that_share_no_question_term(embedder):
    booking, hours, window = HOME_BOOKING, HOME_HOURS, HOME_CANCEL_WINDOW
    calls: list[list[str]] = []

    def recording(texts):
        calls.append(list(texts))
        return embedder.embed(texts)

    question = "How late can I cancel?"
    assert relevance_failures(question, [window], [booking], recording, threshold=0.99) == {}
    assert calls == []  # "cancel" is shared: no cosine needed, nothing embedded
    relevance_failures(question, [hours, window], [booking], recording, threshold=0.99)
    assert calls == [[question, hours.text]]


def test_the_asking_sentences_of_a_message():
    assert asking_text("I'm a pensioner. Is there any help?") == "Is there any help?"
    assert asking_text("I need to know how late I can cancel.") == "I need to know how late I can cancel."
    assert asking_text("What does it cost? And where is it?") == "What does it cost? And where is it?"


def test_a_statement_opening_with_a_clause_is_not_an_asking_sentence():
    message = ("When I paid at the Riverside desk, the card machine took the 400 rupees twice. "
               "Can the receptionist give the second payment back herself?")
    assert asking_text(message) == "Can the receptionist give the second payment back herself?"
    # the story's amount is not what is asked for
    assert asked_kind(message) is Kind.YESNO
    assert asked_kind("When I paid, the machine took the 400 rupees twice. What did it charge me?") is Kind.AMOUNT
    # a question word before a verb still asks, with or without its question mark
    assert asking_text("I booked online. When can I come in.") == "When can I come in."
    assert asking_text("What is the fee. I paid already.") == "What is the fee."


def test_relevance_requires_a_number_like_answer_for_a_number_like_question(embedder):
    sentences = [DraftSentence(text="The fee covers the consultation itself.", chunk_ids=[FEES.chunk_id])]
    failures = relevance_failures("How much is the consultation fee?", sentences, [FEES], embedder.embed, 0.5)
    assert failures == {0: "not_relevant:no_amount"}
    with_amount = [DraftSentence(text="Cardiology — Consultant: INR 900.", chunk_ids=[FEES.chunk_id]), *sentences]
    assert relevance_failures("How much is the consultation fee?", with_amount, [FEES], embedder.embed, 0.5) == {}


def test_a_message_that_also_asks_something_else_needs_no_figure(embedder):
    """"when would I ..." asks for a time only as the second of two things: a draft that says what it is
    answers the first, and is not removed for holding no time."""
    sentences = [DraftSentence(text="The fee covers the consultation itself.", chunk_ids=[FEES.chunk_id])]
    two_things = "What does the consultation cover, and when would I pay for it?"
    assert figure_asked(two_things) is None
    assert relevance_failures(two_things, sentences, [FEES], embedder.embed, 0.5) == {}
    # Every part asking for a figure still needs one.
    assert figure_asked("How much is the consultation fee, and when do I pay it?") is Kind.AMOUNT
    assert figure_asked("When is the desk open?") is Kind.TIME
    assert figure_asked("What does the consultation cover?") is None


def test_a_lead_in_alone_is_not_an_answer(embedder):
    home = Passage(source="kb/public/home.md", chunk_id="kb/public/home.md#1", heading="Home Visits > Who",
                   body=HOME_BODY, score=0.1, similarity=0.5)
    sentences = [DraftSentence(text="A doctor's home visit is available for patients who:", chunk_ids=[home.chunk_id]),
                 DraftSentence(text="are bedridden.", chunk_ids=[home.chunk_id])]
    question = "Can I bring my dog along?"
    failures = relevance_failures(question, sentences, [home], embedder.embed, 0.9)
    assert failures == {1: "not_relevant:no_question_terms", 0: "not_relevant:lead_in_alone"}


def test_a_lead_in_whose_items_all_went_goes_too(embedder):
    """Another sentence stays, so the draft is not empty; the lead-in still introduces nothing of its own."""
    bring = Passage(source="kb/public/visit.md", chunk_id="kb/public/visit.md#1", heading="Documents > Bring",
                    body="Please bring these:\n\n- a photo identity document;\n- earlier reports.", score=0.1,
                    similarity=0.5)
    fees = Passage(source="kb/public/fees.md", chunk_id="kb/public/fees.md#1", heading="Fees > Home Visits",
                   body="A doctor's home visit costs INR 1,500.", score=0.1, similarity=0.5)
    sentences = [DraftSentence(text="A doctor's home visit costs INR 1,500.", chunk_ids=[fees.chunk_id]),
                 DraftSentence(text="Please bring these:", chunk_ids=[bring.chunk_id]),
                 DraftSentence(text="a photo identity document;", chunk_ids=[bring.chunk_id])]
    question = "How much is a doctor's home visit?"
    failures = relevance_failures(question, sentences, [fees, bring], embedder.embed, 0.9)
    assert failures == {2: "not_relevant:no_question_terms", 1: "not_relevant:lead_in_alone"}
    # with its item kept, the lead-in stays
    assert relevance_failures(question, sentences, [fees, bring], embedder.embed, 0.0) == {}


def test_a_list_item_is_judged_relevant_as_read_after_its_lead_in(embedder):
    """"are 70 years or older; or" alone is far from the question (cosine 0.26); after "A doctor's home
    visit is available for patients who:" it answers it (0.60)."""
    home = Passage(source="kb/public/home.md", chunk_id="kb/public/home.md#1", heading="Home Visits > Who",
                   body=HOME_BODY, score=0.1, similarity=0.5)
    item = DraftSentence(text="are 70 years or older; or", chunk_ids=[home.chunk_id])
    lead_in = DraftSentence(text="A doctor's home visit is available for patients who:", chunk_ids=[home.chunk_id])
    question = "My dad is 72 and can't really get out of the house. Could a physician come to him?"
    assert relevance_failures(question, [lead_in, item], [home], embedder.embed, 0.35) == {}
    assert relevance_failures(question, [item], [home], embedder.embed, 0.35) == {
        0: "not_relevant:no_question_terms"}
    assert read_with_lead_ins([lead_in, item])[1] == (
        "A doctor's home visit is available for patients who: are 70 years or older; or")


def test_a_description_is_judged_as_read_under_its_defined_term(embedder):
    """"The default is five minutes (5min)." names no setting; under "checkpoint_timeout (integer)" it
    answers the question, and the term stands or falls with the units under it."""
    wal = Passage(source="kb/public/pg/wal.html", chunk_id="kb/public/pg/wal.html#3",
                  heading="Write Ahead Log > Checkpoints", body=REFERENCE_BODY, score=0.3, similarity=0.6)
    term = DraftSentence(text="checkpoint_timeout (integer)", chunk_ids=[wal.chunk_id])
    default = DraftSentence(text="The default is five minutes (5min).", chunk_ids=[wal.chunk_id])
    question = "Which value does checkpoint_timeout start out with?"
    assert relevance_failures(question, [term, default], [wal], embedder.embed, 0.99) == {}
    assert relevance_failures("How do I book a doctor?", [term, default], [wal], embedder.embed, 0.99) == {
        1: "not_relevant:no_question_terms", 0: "not_relevant:lead_in_alone"}
    warning = DraftSentence(text="The default is 30 seconds.", chunk_ids=[wal.chunk_id])
    alone = relevance_failures("When is checkpoint_warning triggered, and what is its default?",
                               [term, warning], [wal], embedder.embed, 0.99)
    assert alone == {0: "not_relevant:term_alone"}  # its own units were not kept: nothing under it is quoted


def test_a_table_row_is_judged_relevant_as_read_under_its_label_columns_header(embedder):
    """"24 hours or more before the start — Consultation: Free" shares no word with "how late can I cancel";
    under its column "When you cancel" it does, however many of its cells are shown."""
    body = ("| When you cancel | Consultation | Home visit |\n| --- | --- | --- |\n"
            "| 24 hours or more before the start | Free, full refund | Free, full refund |")
    charges = Passage(source="kb/public/cancel.md", chunk_id="cancel#2", heading="Policy > Charges",
                      body=body, score=0.3, similarity=0.6)
    question = "How late can I cancel without paying anything?"
    row = answer_units(charges.chunk_id, charges.heading, body)[1].row
    for shown in (None, ["Consultation"]):
        sentence = DraftSentence(text=row.render(shown), chunk_ids=[charges.chunk_id])
        assert read_with_lead_ins([sentence], chunk_structures([charges]))[0].startswith(
            "When you cancel 24 hours or more before the start — Consultation: Free")
        assert relevance_failures(question, [sentence], [charges], embedder.embed, 0.99) == {}
    unlabelled = Passage(source="kb/public/cancel.md", chunk_id="cancel#2", heading="Policy > Charges",
                         body=body.replace("When you cancel", "Notice"), score=0.3, similarity=0.6)
    row = answer_units(unlabelled.chunk_id, unlabelled.heading, unlabelled.body)[1].row
    sentence = DraftSentence(text=row.render(), chunk_ids=[unlabelled.chunk_id])
    assert relevance_failures(question, [sentence], [unlabelled], embedder.embed, 0.99) == {
        0: "not_relevant:no_question_terms"}


def test_generic_words_are_not_salient_in_any_form():
    assert salient_terms("Is there anything or something I cannot bring?") == {"bring"}


def test_an_appointment_question_asks_the_policy_documents_nothing():
    assert policy_question("What is the status of APT-1007?", ["APT-1007"]) == ""
    assert "cancel" in policy_question("Is APT-1007 confirmed and can I cancel it for free?", ["APT-1007"])
    assert policy_question("How do I cancel?", []) == "How do I cancel?"


def test_i_do_not_know_names_the_nearest_topic_only_when_there_is_one():
    assert i_do_not_know(None) == I_DO_NOT_KNOW
    reply = i_do_not_know(nearest_topic([FEES]))
    assert reply.startswith(I_DO_NOT_KNOW) and '"Fees > Fee Table"' in reply


def test_the_extractive_generator_drafts_without_a_store_too(embedder):
    from caredesk.query.generate.backends import ExtractiveGenerator

    paying = Passage(source="kb/public/a.md", chunk_id="kb/public/a.md#1", heading="Fees > Paying",
                     body="Fees are paid at the **front desk** before the consultation. Cards and UPI are accepted.",
                     score=0.1, similarity=0.5)
    draft = ExtractiveGenerator(embedder.embed).draft("Can I pay by card?", [paying])
    assert draft and draft[0].text == "Cards and UPI are accepted." and draft[0].chunk_ids == [paying.chunk_id]
    assert all("**" not in s.text for s in draft)
    assert ExtractiveGenerator(embedder.embed).draft("Can I pay by card?", []) == []


def test_a_part_brings_its_best_unit_with_the_units_of_its_section_that_score_close_to_it():
    """Scored on the cosine alone (x10): the part's best unit (cosine 1.0) brings the next sentence of its
    section (0.95, within PART_SECTION_DELTA) but not a sentence of another section (0.9)."""
    from caredesk.query.generate.answers.compose import PART_SECTION_DELTA, with_parts
    from caredesk.query.generate.answers.features import QuestionPart

    share = Passage(source="kb/patient/reports.md", chunk_id="reports#2", heading="Reports > Sharing",
                    body="Use Share on the portal to create a link. The link expires after 72 hours.",
                    score=0.3, similarity=0.6)
    other = Passage(source="kb/patient/reports.md", chunk_id="reports#3", heading="Reports > External",
                    body="You may upload reports from other laboratories.", score=0.2, similarity=0.5)
    cosines = {"Use Share on the portal to create a link.": 1.0, "The link expires after 72 hours.": 0.95,
               "You may upload reports from other laboratories.": 0.9}
    vectors = {}
    for passage in (share, other):
        for unit in answer_units(passage.chunk_id, passage.heading, passage.body):
            cosine = cosines.get(unit.text, 0.0)
            vectors[(passage.chunk_id, unit.context_hash)] = np.array([cosine, np.sqrt(1 - cosine ** 2)])
    weights = np.array([10.0 if name == "cosine" else 0.0 for name in UNIT_FEATURES])
    scorer = LogisticModel(UNIT_FEATURES, weights, 0.0, np.zeros(len(UNIT_FEATURES)), np.ones(len(UNIT_FEATURES)))
    part = QuestionPart(np.array([1.0, 0.0]), question_terms("send it to a specialist", lambda _w: 1.0))
    assert PART_SECTION_DELTA == 1.0
    chosen = with_parts([], [part], [share, other], vectors, scorer)
    assert [c.unit.text for c in chosen] == ["Use Share on the portal to create a link.",
                                            "The link expires after 72 hours."]


def test_the_kinds_a_question_hints_at_besides_the_one_it_asks_for():
    assert cued_kinds("If I cannot make it, how late can I cancel without paying anything?") == {Kind.AMOUNT}
    assert cued_kinds("How late can I call off a video consult and still get all my money back?") == {Kind.AMOUNT}
    # the asked kind itself, and a question whose words hint at nothing else, give none
    assert cued_kinds("How much does it cost to see a heart specialist?") == frozenset()
    assert cued_kinds("When is the lab open on Sundays?") == frozenset()
    # "without paying" is a money word on its own too; a yes/no question about money asks whether, so it is the topic
    assert cued_kinds("Can I reschedule without paying?") == {Kind.AMOUNT}
    assert asked_kind("Can I reschedule without paying?") is Kind.YESNO
    assert asked_kind("I want to reschedule. What do I pay?") is Kind.AMOUNT


def test_a_unit_stating_the_time_and_the_charge_asked_about_answers_before_a_time_alone():
    priority = "You are offered a priority slot with another doctor within 48 hours."
    clinic = Passage(source="kb/public/cancel.md", chunk_id="cancel#7",
                     heading="Cancellation > When the Clinic Cancels", body=priority, score=0.3, similarity=0.6)
    charges = Passage(source="kb/public/cancel.md", chunk_id="cancel#2", heading="Cancellation > Charges",
                      body="| When you cancel | Charge |\n| --- | --- |\n"
                           "| 24 hours or more before | Free, full refund |\n"
                           "| Less than 4 hours before | 50% of the fee |", score=0.2, similarity=0.5)
    cosines = {priority: 0.62, "24 hours or more before": 0.55, "Less than 4 hours before": 0.5}
    question = "How late can I cancel without paying anything?"
    scored, terms = cosine_scored([clinic, charges], question, cosines)
    assert scored[0][1].unit.text == priority  # the time alone outscores the row
    first = cued_first(scored, terms, delta=1.0)
    assert first[0][1].unit.row.label == "24 hours or more before"
    assert sorted(map(id, first)) == sorted(map(id, scored))
    assert select(first, terms)[0].unit.row.label == "24 hours or more before"
    # beyond the delta, or asked without the money words, the order stands
    assert cued_first(scored, terms, delta=0.5) == scored
    plain_time, plain_terms = cosine_scored([clinic, charges], "How late can I cancel?", cosines)
    assert cued_first(plain_time, plain_terms, delta=1.0) == plain_time


def test_a_unit_naming_everything_asked_answers_first_when_it_scores_close_to_the_best():
    from caredesk.query.generate.answers.compose import covering_first

    combining = Passage(source="kb/public/fees.md", chunk_id="fees#3", heading="Fees > Combining",
                        body="A patient entitled to the senior citizen discount and a follow-up discount gets the "
                             "larger discount.", score=0.3, similarity=0.6)
    opinions = Passage(source="kb/public/opinion.md", chunk_id="opinion#2", heading="Second Opinion > Fees",
                       body="Senior citizen discounts do not apply to second opinions.", score=0.2, similarity=0.5)
    scored, terms = cosine_scored([combining, opinions], "Do I get my senior discount on a second opinion?", {
        combining.body: 1.0, opinions.body: 0.8})
    assert scored[0][1].unit.text == combining.body  # the cosine alone prefers the sentence about discounts
    assert covering_first(scored, terms)[0][1].unit.text == opinions.body
    assert covering_first(scored, terms, delta=1.0) == scored  # 2 log-odds below the best: too far


def test_a_unit_naming_the_measured_thing_with_its_quantity_answers_first_when_it_scores_close_to_the_best():
    from caredesk.query.generate.answers.compose import measured_first

    escalation = Passage(source="kb/staff/escalation.md", chunk_id="escalation#2", heading="Escalation > When",
                         body="A patient has waited more than 45 minutes beyond the booked slot.", score=0.3,
                         similarity=0.6)
    processing = Passage(source="kb/staff/workflow.md", chunk_id="workflow#4", heading="Workflow > Processing",
                         body="Unapproved requests escalate to the next level after 2 working days.", score=0.2,
                         similarity=0.5)
    question = "How long does a refund request wait for a duty manager before it escalates?"
    scored, terms = cosine_scored([escalation, processing], question, {escalation.body: 1.0, processing.body: 0.8})
    assert scored[0][1].unit.text == escalation.body  # a duration, but of a patient's wait
    assert measured_first(scored, terms)[0][1].unit.text == processing.body
    assert measured_first(scored, terms, delta=1.0) == scored  # 2 log-odds below the best: too far
    # a question that measures no thing keeps its order
    other, other_terms = cosine_scored([escalation, processing], "Who escalates a refund request?", {
        escalation.body: 1.0, processing.body: 0.8})
    assert measured_first(other, other_terms) == other
