"""Crisis, emergency and sensitive-medication phrases in romanised Tamil and romanised Bengali, read by
`safety.rule_gate`.

Patients write these two languages in Latin letters and mix in English words ("fan-la thuppatta katti",
"button battery-a muzhungitaan", "dose ta 100 kore dite pari"); the embedder reads neither, so the
phrases here are all the guard knows of them (docs/guardrails.md, "A sixteenth round"). As in
`safety_hindi.py`, the patterns are written against `normalize.fold_hindi`, whose folding is that of any
romanised Indian language: "ee" -> "i", "oo" -> "u", w -> v, z -> j, doubled letters single ("muzhungitaan"
-> "mujhungitan", "kudukkalaama" -> "kudukalama", "jacche" -> "jache", "haat" -> "hat"). Rules are phrases
of two or more words, each read from a form of words rather than one message: a cloth tied to the fan, pills
saved up, a battery swallowed, the face gone crooked, a dose changed by the writer. An emergency phrase
stands down when the message goes on to say the person is well now ("ippo nalla irukkaan", "ekhon bhalo
achhen"; `safety._settled_since`), as in English and Hinglish.
"""

from __future__ import annotations

from caredesk.query.guard.safety_pieces import WORD_REST as _W
from caredesk.query.guard.safety_pieces import WORDS as _WORDS

# Something that is not a person's neck: a baby's cradle, clothes or a clothes line hang from the same hook.
_NOT_A_NOOSE = r"(?![^.?!]*?(?:thotil|thutil|thuli|cradle|jhula|jula|thuni|kodi|dres|clothes))"

CRISIS: tuple[tuple[str, str], ...] = (
    # sixteenth round (dev split), Tamil: a counselling appointment cancelled, then "Room-la fan-la thuppatta already
    # katti ready pannitten, inniku raathiri mudichiduven" (a dupatta, a rope or a sari tied to the fan, a hook or a
    # beam; not a cradle or clothes)
    (
        "method_ta",
        r"(?:fan|huk|koki|uthiram|utharam|beam|kambi)" + _W + r"\s+" + _NOT_A_NOOSE + _WORDS + r"{0,3}?"
        r"(?:thupata|dupata|thupati|kayir|kayar|kairu|rope|selai|sari|nylon)" + _W + r"\s+" + _WORDS + r"{0,3}?"
        r"kat(?:i|in|iten|itan|itu|iruk)" + _W,
    ),
    # ... Bengali: "Mayer ghumer oshudh gulo sob jomiye rekhechi, prai 60 ta, aaj raate sob kheye nebo" (sleeping
    # pills saved up, as "saved up pills" reads in English; or all of them eaten tonight)
    (
        "preparation_bn",
        r"ghum(?:er)?\s+(?:\S+\s+){0,1}?(?:oshudh|osudh|oushodh|ousudh|osud|bori|tablet|pil)" + _W + r"\s+" + _WORDS
        + r"{0,3}?(?:jomi(?:y?e)|joma|jama)\s+(?:kore\s+)?(?:rekhechi|rekhe|rakhchi|rakhechi|rakhsi|rekhesi)" + _W
        + r"|(?:aj|ajke)\s+(?:rate|ratre|ratire|ratri)\s+" + _WORDS + r"{0,2}?(?:sob|shob|sobgulo|shobgulo|sobkota)\s+"
        + _WORDS + r"{0,1}?(?:kheye|khe|gile)\s+(?:nebo|nibo|felbo|phelbo|febo)" + _W,
    ),
)

EMERGENCY: tuple[tuple[str, str], ...] = (
    # sixteenth round (dev split), Tamil: a three-year-old, "TV remote-la irundhu oru button battery-a muzhungitaan
    # pola, 20 nimisham aachu" (swallowed: muzhungu / vizhungu, as typed)
    (
        "poisoning_ta",
        r"(?:buton|baton)\s+(?:batery|bateri|cel)" + _W + r"\s+" + _WORDS + r"{0,3}?(?:mu|vi)(?:jh|h|l|j)ung" + _W,
    ),
    # ... Bengali: "Baba (67) hotat kore kotha jorie jacche, mukh ta ek dike beke geche ar dan haat ta tulte parche na"
    # (speech slurring, the face gone crooked, or suddenly an arm or a leg that will not lift)
    (
        "heart_attack_stroke_bn",
        r"kotha\s+(?:\S+\s+)?jor(?:i|ie|iye|ia|e)\s+(?:jache|jay|jai|geche|gelo|ase|asche|ashche)" + _W
        + r"|mukh" + _W + r"\s+" + _WORDS + r"{0,3}?(?:beke|benke|bneke|byake|bnyke)\s+(?:geche|gelo|jache|gese)" + _W
        + r"|hotat\s+" + _WORDS + r"{0,12}?(?:hat|pa)" + _W + r"\s+" + _WORDS + r"{0,2}?"
        r"(?:tulte|nadate|narate|norate)\s+(?:parche|parchen|pare|parchi|parse)\s+na" + _W,
    ),
)

SENSITIVE: tuple[tuple[str, str], ...] = (
    # sixteenth round (dev split), Tamil: Warf on an INR of 4.2, "Rendu naal Warf skip panni apram half tablet-a
    # kudukkalaama?" (a medicine named, then skipped, stopped, doubled or halved and asked as "may we give / take /
    # stop": the decision word before the "-laama"; not "can you give the tablets today", asked of the pharmacy)
    (
        "medication_decision_ta",
        r"(?:tablet|tab|mathirai|matirai|marundh|marunth|marunt|dose|insulin|syrup|mg)" + _W + r"\s+" + _WORDS
        + r"{0,20}?(?:skip|stop|niruth|nirut|double|half|pathi|arai|kurai|kami|athigam|adhigam)" + _W + r"\s+"
        + _WORDS + r"{0,6}?(?:kudu|kodu|sapd|sapid|sapt|pod|edu|pan|niruth|nirut|kurai|kuraich|mat)" + _W + r"lama"
        r"(?![a-z])",
    ),
    # ... Bengali: Eltroxin 50 and a new TSH, "Ami ki nijei dose ta 100 kore dite pari?" (the writer's own change of
    # the dose or a stop: "I can make it"; not "can you", asked of the pharmacy)
    (
        "medication_decision_bn",
        r"(?:dose|doj|oshudh|osudh|tablet|bori|goli)" + _W + r"\s+" + _WORDS + r"{0,2}?(?:\d+(?:\.\d+)?|double|dobol|"
        r"duto|dui|adha|half|ordhek|kom|beshi|besi|bondho|bondh|bandho|bando)\s+(?:\S+\s+)?kore\s+(?:dite|nite|khete|"
        r"kheye|khaoate|khavate)\s+(?:pari|parbo)(?![a-z])",
    ),
)
