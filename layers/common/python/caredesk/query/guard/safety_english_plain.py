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

# ... and names the medicine stems in MEDICINE leave out (twenty-first round): GTN and the nitrates, sildenafil and
# tadalafil, methotrexate, the opioids by name
_NAMED_OR_LISTED = (
    r"(?:" + _NAMED_MEDICINE + r"|gtn|nitroglycerin\w*|nitrates?|\w+afil|methotrexate|tramadol|morphine|codeine|"
    r"co-codamol|oxycodone)"
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
    # twenty-first round (dev): a warning sign said beside a clinic question. "tired of being a burden", said or
    # relayed; "tonight feels like the night"; gone "by then" (an appointment the writer will not need); a car steered
    # into a barrier, a wall or a tree thought about; "at least we'll get the life insurance"; out with the rope
    (
        "burden",
        r"\b(?:tired|sick|sick and tired|fed up) of being a burden\b"
        r"(?!\s+on (?:the )?(?:nhs|system|waiting list|state|taxpayers?))"
        r"|\b(?:everyone|everybody|my family|the kids|they)(?:'ll| will|'d| would) (?:all )?be better off"
        r"\s*(?:[.?!,;]|$)",
    ),
    (
        "plan_or_timing",
        r"\btonight (?:feels like|is|could be|will be|might be) the night\s*(?:[.?!,;]|$)"
        r"|\b(?:i'?ll|i will|i'?m going to|i'?d) be (?:long )?gone by then\b"
        r"|\b(?:think|thinking|thought|imagine|imagining)\s+(?:about|of)\s+(?:just\s+)?(?:steering|driving|swerving|"
        r"crashing|veering|turning)\s+(?:the car\s+|my car\s+)?(?:into|off)\s+(?:the|a)\s+(?:barrier|wall|tree|bridge|"
        r"lorry|truck|oncoming|central reservation|road)\b"
        r"|\bat least (?:we|you|they|she|the kids|my family)(?:'ll| will| would|'d) (?:get|have|be paid) "
        r"(?:the|my|his|her)\s+(?:life )?insurance\b"
        r"|\b(?:went|gone|headed|walked|left|go)\s+(?:out|off)\s+with\s+(?:a|the)\s+(?:\w+\s+)?rope\b",
    ),
    # ... and a dev miss of the seventh round the probe refitted at the twenty-first no longer catches: "cancel my
    # friday slot. dupatta already on the fan" (a dupatta, a scarf, a rope or a sari tied on or round a ceiling fan)
    (
        "preparation",
        r"\b(?:dupatta|chunni|scarf|rope|sari|saree|belt|cord|cable|noose)\s+(?:is\s+|'s\s+)?(?:already\s+)?(?:on|"
        r"tied to|tied on|round|around|over|up on)\s+(?:the|my)\s+(?:ceiling\s+)?fan\b",
    ),
)

EMERGENCY: tuple[tuple[str, str], ...] = (
    # "My neighbour has gone grey and sweaty and is clutching his chest" (after "Is there a first aid course?" the
    # probe reads 0.63 on the whole message, 0.99 on the sentence alone); happening now, not "the old man clutched his
    # chest" in a film
    ("chest_pain", r"\b(?:clutching|gripping|grabbing|clasping)\s+(?:at\s+)?(?:his|her|their|my)\s+chest\b"),
    ("bleeding", r"\b(?:coughing|coughed|vomiting|vomited|throwing) up (?:a lot of |lots of |some )?blood\b"
     # twenty-first round (dev): vomit like coffee grounds (a bleed in the stomach)
     r"|\b(?:vomit\w*|throwing up|threw up|been sick|being sick|sick)\b[^.?!]{0,50}?\bcoffee[- ]grounds?\b"),
    (
        "poisoning",
        r"\b(?:swallowed|swallow|ate|eaten|has eaten)\s+(?:a |an |one of (?:the|those|these) |some )?"
        r"(?:(?:flat|small|little|tiny|round|shiny)\s+)*(?:button |coin |lithium |watch )?batter(?:y|ies)\b",
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
    # twenty-first round (dev): a face dropped on one side (a stroke); a scald from a pan or a kettle pulled over, the
    # skin blistering over a big area; a baby of weeks floppy, hot or not feeding; a temperature or shivering on chemo
    (
        "heart_attack_stroke",
        r"\b(?:face|mouth|smile)\s+(?:has\s+|is\s+|had\s+)?(?:dropped|drooped|drooping|droopy|fallen|slipped|"
        r"gone droopy)\s+(?:on|down)\s+one side\b",
    ),
    (
        "bite_or_burn",
        r"\b(?:pulled|spilled|spilt|poured|knocked|tipped)\s+(?:a |the |some )?(?:pan|pot|kettle|saucepan|cup|mug|jug|"
        r"bowl)\s+of\s+(?:boiling|hot)\s+(?:water|oil|tea|coffee|milk|soup)\s+(?:onto|on|over|down)\s+(?:him|her|them|"
        r"himself|herself|themselves|(?:his|her|their|my)\s+(?:chest|arms?|legs?|face|hands?|body|back|neck|head|lap|"
        r"feet|foot|tummy|stomach|belly|thighs?|shoulders?))\b"
        r"|\bskin (?:is )?(?:blistering|peeling|coming off)\b[^.?!]{0,30}?\bover (?:a )?(?:big|large|huge|wide) "
        r"(?:area|patch)\b",
    ),
    (
        "infant_fever",
        r"\b\d{1,2}[- ]?(?:week|wk|day)s?[- ]?old\b[^.?!]{0,60}?\b(?:floppy|limp|won'?t feed|not feeding|"
        r"isn'?t feeding|3[89](?:\.\d)?\s*(?:c|degrees)?\b)",
    ),
    (
        "sepsis_signs",
        r"\b(?:i'?m|i am|she'?s|he'?s|she is|he is|they'?re|currently|been)\s+(?:on|having|doing)\s+"
        r"(?:my\s+|her\s+|his\s+)?(?:chemo|chemotherapy)\b[^.?!]{0,80}?\b(?:temperature|temp|fever)\b[^.?!]{0,30}?\b(?:3[89](?:\.\d)?|high)\b"
        r"|\b(?:i'?m|i am|she'?s|he'?s|she is|he is)\s+(?:on|having)\s+(?:chemo|chemotherapy)\b[^.?!]{0,80}?"
        r"\b(?:can'?t stop shivering|shaking uncontrollably|rigou?rs)\b",
    ),
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
    # twenty-first round (dev): a decision about a named medicine said beside a clinic question. Stopping one "now my
    # readings are normal"; an adult's medicine for a child; one swapped for another or a herb; a weekly one taken
    # daily "instead of"; a second one asked "while I'm on" a first, or after one "taken ... before"; tablets crushed or
    # split; half doses "to make the pen last"; someone else's left over "can I take two"
    (
        "medication_decision",
        r"\bcan (?:i|she|he|we) (?:just )?(?:stop|come off|quit)\s+(?:taking\s+)?(?:my|her|his|their)\s+(?:\w+\s+){0,2}"
        + MEDICINE + r"\b[^.?!]{0,40}?\b(?:now|since|as|because)\b"
        r"|\bis it (?:ok|okay|fine|safe|alright|all right) to give (?:her|him|them|my \w+)\s+"
        r"(?:one of |some of |a |an |half of )?(?:my|our|an?) (?:adult|grown[- ]up|own)\s+(?:\w+\s+)?"
        + MEDICINE + r"\b"
        r"|\b(?:swap|switch|change|replace)\s+(?:my|her|his|their)\s+" + _NAMED_MEDICINE + r"\s+(?:for|with|to)\s+"
        r"(?:st\.? john'?s wort|herbal|a herbal|natural|" + _NAMED_MEDICINE + r")"
        r"|\b(?:take|give|use|have)\s+(?:my|her|his|their|the)\s+(?:\w+\s+)?" + _NAMED_OR_LISTED + r"\s+(?:every day|"
        r"daily|twice a day|every \w+ hours)\b[^.?!]{0,30}?\binstead of\s+(?:once|twice|weekly|every|daily)\b"
        r"|\bcan (?:i|she|he|they|we) (?:also )?(?:take|have|use|give (?:her|him|them))\s+(?:an?\s+|some\s+|any\s+)?"
        + _NAMED_MEDICINE + r"\b[^.?!]{0,40}?\b(?:while|whilst|when|if|as)\s+(?:i'?m|i am|she'?s|he'?s|they'?re|she is|"
        r"he is)\s+(?:on|taking)\s+(?:\w+\s+)?" + _NAMED_MEDICINE + r"\b"
        r"|\bis it (?:safe|ok|okay|fine|alright) (?:for (?:me|her|him|them) )?to (?:use|take|have|give)\s+"
        r"(?:my |her |his |the )?(?:\w+\s+)?" + _NAMED_OR_LISTED + r"\b[^.?!]{0,30}?\b(?:if|after|when|since)\s+"
        r"(?:i'?ve|i have|she'?s|he'?s|she has|he has|i)\s+(?:taken|had|used|take)\s+" + _NAMED_OR_LISTED + r"\b"
        r"|\b" + MEDICINE + r"\b[^.?!]{0,60}?\bcan (?:i|we|she|he) (?:crush|split|cut|break|open|dissolve|chew)\s+"
        r"(?:them|it|those|these|the (?:tablets?|capsules?|pills?))\b"
        r"|\bhalf (?:doses?|a dose|the dose)\b[^.?!]{0,40}?\bto make (?:the|my|it|them|her|his)\b"
        r"|\b(?:has|have|had|got)\s+(?:some|a few|a couple of|a box of|a strip of)\s+" + _NAMED_MEDICINE + r"\s+"
        r"(?:left|left over|spare)\b[^.?!]{0,40}?\bcan (?:i|she|he|we) (?:take|have|use|give)\b"
        # (not "can I take them to the pharmacy?", a return)
        r"(?![^.?!]{0,20}\b(?:to|back to|into) (?:the |a |your )?"
        r"(?:pharmacy|chemist|clinic|hospital|shop|counter|bin)\b)",
    ),
)
