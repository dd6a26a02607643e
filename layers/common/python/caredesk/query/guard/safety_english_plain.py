"""Plain English crisis, emergency and medication wordings, as rules, so that a clinic question cannot hide them.

The exemplars and the probe read the whole message's vector. Alone, "I can't go on anymore", "I'm a burden to
everyone" or "My toddler swallowed a button battery" are caught by them; after "Is the Central branch open on
Sunday?" the vector is mostly the clinic question's and they are let through (2026-12-07: 24 of 60 such pairs
allowed, docs/guardrails.md). Reading each sentence on its own stops ordinary questions instead (measured: as many
look-alike sentences score as high as the warning signs), so the commonest plain wordings are phrases here, read
anywhere in the message like every rule. Written against `normalize.normalize_text` (lower case), and stood down by
what stands every rule down in `safety.py` (a negation, a hypothetical, an episode that is over).
"""

from __future__ import annotations

from caredesk.query.guard.safety_english import MEDICINE

# A medicine by name or class, not the generic nouns ("tablets", "medicines"): what a second medicine is called.
_NAMED_MEDICINE = (
    r"(?!(?:meds|medications?|medicines?|tablets?|pills?|capsules?|syrups?|injections?|inhalers?)\b)" + MEDICINE
)

# "I can't go on", "she can't carry on like this": only where the clause ends there (not "I can't go on waiting three
# weeks for a slot").
_CANNOT_GO_ON = (
    r"\b(?:i|he|she|they|we)\s+(?:just\s+|really\s+|honestly\s+)?(?:can'?t|cannot|can not|couldn'?t)\s+"
    r"(?:go on|carry on|keep going)(?:\s+living)?(?:\s+(?:any ?more|any longer|like this))*\s*(?:[.?!,;]|$)"
)

CRISIS: tuple[tuple[str, str], ...] = (
    ("hopelessness", _CANNOT_GO_ON),
    (
        "hopelessness",
        r"\bno (?:reason|point)\s+(?:to |in |of )?(?:live|living|go on|going on|carry on|carrying on|being alive|"
        r"being here|staying alive|keep going)\b"
        r"|\bwhat'?s the point (?:of|in) (?:living|going on|carrying on|being alive|life|anything)\b"
        r"|\b(?:don'?t|do not|can'?t|cannot) see the point (?:in|of) (?:anything|living|life|going on|carrying on|"
        r"being here)\b"
        r"|\bnothing (?:left )?to live for\b|\b(?:given|giving|give|gave) up on (?:life|living)\b"
        r"|\bnothing matters (?:any ?more|now)\b|\b(?:can'?t|cannot|don'?t) see (?:a|any) way out\b",
    ),
    # "I'm a burden to everyone", not "a financial burden on my family"
    (
        "burden",
        r"\b(?:i'?m|i am|i feel like i'?m|i feel like|i feel)\s+(?:just\s+|such\s+)?a burden\s+(?:to|on|for)\s+"
        r"(?:everyone|everybody|my family|them|you all|all of you|my (?:kids|children|wife|husband|parents|son|"
        r"daughter))\b",
    ),
    # "I want to disappear forever", "I wish I could go to sleep forever", not "so tired I could sleep forever"
    (
        "want_to_die",
        r"\b(?:want|wants|wanted|wish|wished|wishing|wanna)\s+(?:i could\s+|to\s+)?(?:just\s+)?(?:disappear|vanish|"
        r"go to sleep|sleep|fall asleep)\s+(?:forever|for good|and never come back)\b"
        r"|\bwant (?:it all|everything|all of it|life) to (?:stop|end)\b|\bend (?:the|this|my) pain for good\b"
        r"|\b(?:doesn'?t|does not)\s+want to (?:live|be alive|exist|be here any ?more)\b",
    ),
    # told by someone else: "my brother has been talking about killing himself", "she wants to end it" (not "tried to
    # take his life in 2020", a past attempt, nor a novel's heroine who "tries to take her own life": measured, dropped)
    (
        "end_life",
        r"\b(?:kill|killing)\s+(?:himself|herself|themselves|themself)\b"
        r"|\b(?:feel like|feels like|thinking (?:about|of)|talking about|wants? to|wanted to|going to|gonna)\s+"
        r"(?:just\s+)?end(?:ing)? it(?:\s+all)?\s*(?:[.?!,;]|$)",
    ),
)

EMERGENCY: tuple[tuple[str, str], ...] = (
    ("bleeding", r"\b(?:coughing|coughed|vomiting|vomited|throwing) up (?:a lot of |lots of |some )?blood\b"),
    (
        "poisoning",
        r"\b(?:swallowed|swallow|ate|eaten|has eaten)\s+(?:a |an |one of the |some )?(?:button |coin |lithium |watch )?"
        r"batter(?:y|ies)\b",
    ),
    (
        "serious_fall",
        r"\b(?:was|got|been|just been|has been)\s+(?:hit|knocked (?:down|over)|run over)\s+by\s+(?:a|an|the)\s+"
        r"(?:car|bus|truck|lorry|van|bike|motorbike|scooter|train|auto|rickshaw)\b",
    ),
    (
        "unconscious",
        r"\b(?:cold|blue|grey|gray|pale)\s+and\s+(?:limp|floppy)\b|\b(?:limp|floppy)\s+and\s+(?:cold|blue|grey|gray)\b",
    ),
    (
        "breathing",
        r"\b(?:inhaled|breathed in|breathing in)\s+(?:a lot of |lots of |so much |thick )?smoke\b|\bsmoke inhalation\b",
    ),
    # diabetic ketoacidosis by its smell (the ketone numbers and nail varnish remover are read in safety_english.py)
    ("dka_signs", r"\bbreath (?:smells?|smelling) (?:fruity|sweet|of pear drops|like pear drops)\b"),
)

SENSITIVE: tuple[tuple[str, str], ...] = (
    # "I ran out of my antidepressants two days ago, is it ok to just skip them till Monday?"
    (
        "medication_decision",
        r"\b" + MEDICINE + r"\b[^.?!]{0,80}?\bis it (?:ok|okay|fine|safe|alright|all right) (?:if i |to )(?:just )?"
        r"(?:skip|miss|stop|halve|double|cut down|go without)\s+(?:it|them|those|these|a (?:dose|day|few days))\b",
    ),
    # "My mum takes warfarin, can she take aspirin for her headache?"
    (
        "medication_decision",
        r"\b(?:on|takes?|taking|prescribed)\s+(?:\w+\s+)?" + _NAMED_MEDICINE + r"\b[^.?!]{0,60}?\b(?:can|could|may|"
        r"should)\s+(?:i|she|he|they|we|my \w+)\s+(?:also\s+)?(?:take|have|use|give (?:her|him|them))\s+"
        r"(?:an?\s+|some\s+|any\s+)?" + _NAMED_MEDICINE + r"\b",
    ),
)
