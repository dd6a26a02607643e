"""Crisis, emergency and sensitive-medication phrases in romanised Malayalam, Odia and Nepali, read by
`safety.rule_gate`.

Patients write these languages in Latin letters and mix in English words ("ini enikku jeevikkan vayya", "poka mara
aushadha khai debi", "duita sangai khaye hunchha?"); the embedder reads none of them, so the phrases here are all the
guard knows of them (docs/guardrails.md, "An eighteenth round"). As in `safety_tamil_bengali.py`, the patterns are
written against `normalize.fold_hindi` ("ee" -> "i", "oo" -> "u", w -> v, z -> j, doubled letters single:
"jeevikkan" -> "jivikan", "kazhikkum" -> "kajhikum", "kudikkunnilla" -> "kudikunila", "hunchha" -> "huncha").
Rules are phrases of two or more words, each read from a form of words rather than one message: no wish or no
strength left to live, all the tablets taken together, a poison to be swallowed, a baby not feeding, limp or with a
sunken soft spot, blood spurting or soaking cloths, a tablet halved or two taken together asked as "may I". An
emergency phrase stands down when the message goes on to say the person is well now (`safety._settled_since`).
"""

from __future__ import annotations

from caredesk.query.guard.safety_pieces import WORD_REST as _W
from caredesk.query.guard.safety_pieces import WORDS as _WORDS

CRISIS: tuple[tuple[str, str], ...] = (
    # eighteenth round (dev split), Malayalam: "Ini enikku jeevikkan vayya" (no strength or wish left to live:
    # "jivikan vaya / patila / agrahamila / thonunila"; "marikan thonunu", wanting to die), and "innu raathri ...
    # veettile ella gulikakalum orumichu kazhikkum" (all the tablets or a poison taken together; not one tablet
    # "orumichu" with food, so "ella" or a poison before it)
    (
        "suicide_ml",
        r"jivik(?:an|anum|kan)\s+(?:" + _WORDS + r")?(?:vaya|vayya|patila|patilla|agrahamila|agraham\s+ila|"
        r"thonunila|thonunilla|ishtamila|tonunila)" + _W
        + r"|(?:marikan|marikanam|chakan|chavan)\s+(?:" + _WORDS + r")?(?:thonunu|tonunu|agrahikunu|agraham|thoni)"
        + _W
        + r"|(?:atmahatya|aatmahatya)\s+(?:cheyum|cheyan|cheyu|cheyth|cheyy)" + _W
        + r"|(?:ela|elam|muluvan|muzhuvan|mujhuvan|mulvan)\s+(?:" + _WORDS + r")?(?:gulika|gulik|tablet|marun|visham|"
        r"vesham|pills|sleeping\s+pills)" + _W + r"\s+(?:" + _WORDS + r"){0,2}?(?:orumichu|orumich|onich|onichu|"
        r"orumiche)\s+(?:kajhik|kazhik|kudik|vijhung|vizhung)" + _W,
    ),
    # ... Odia: "Mu au banchibaku chahunni" (no wish left to live: "banchibaku chahunni / ichha nahi / mana nahi";
    # "maribaku chahunchhi", wanting to die), and "aaji rati ... poka mara aushadha khai debi" (a pesticide or a poison
    # swallowed, "khai debi / pi debi", or all the tablets at once, "sabu goli ekathare"; not where to buy pesticide,
    # not all the tablets taken after food)
    (
        "suicide_or",
        r"banchibaku\s+(?:" + _WORDS + r")?(?:chahuni|chahunahi|chahen|chahe\s+nahi|ichha\s+nahi|icha\s+nahi|"
        r"mana\s+nahi|ichha\s+hauni|icha\s+hauni)" + _W
        + r"|maribaku\s+(?:" + _WORDS + r")?(?:chahuchi|chahunchi|chahenchi|ichha|icha|mana)" + _W
        + r"|(?:atmahatya|aatmahatya)\s+(?:karibi|karidebi|kariba)" + _W
        + r"|(?:poka\s*mara|pokamara|kita\s*nashak|bisha|visha|bish|pesticide)" + _W + r"\s+(?:" + _WORDS
        + r"){0,2}?(?:khai|pii|pi)\s+(?:debi|deli|debu|jibi|pakeibi)" + _W
        + r"|sabu\s+(?:goli|tablet|aushadha)" + _W + r"\s+(?:ekathare|eka\s+thare|thare|ekasathire|eka\s+sathire)\s+"
        r"(?:khai|gili)\s+(?:debi|deli|debu|jibi|pakeibi)" + _W,
    ),
)

EMERGENCY: tuple[tuple[str, str], ...] = (
    # eighteenth round (dev split), Malayalam: a two-month-old, "innale raathri muthal paal kudikkunnilla, theere
    # thalarnnu kidakkunnu, karachil polum illa, thalayile pathukkam kuzhinju irikkunnu" (a baby or a child, then not
    # feeding, lying limp, not even crying, or the soft spot sunken; not a baby who feeds well now)
    (
        "infant_danger_ml",
        r"(?:kunju|kunj|kunjin|kunjinu|kutti|kutiku|vava|vavak|baby|baby-|pilla|makan|makal)" + _W + r"\s+"
        + _WORDS + r"{0,25}?(?:"
        r"(?:pal|mula\s*pal|mulapal|feed)" + _W + r"\s+(?:" + _WORDS + r")?(?:kudikunila|kudikunilla|kudikunnila|"
        r"kudikila|kudikunundilla|kudikunundila|kudikathe)"
        r"|thalarnu\s+(?:kidak|kidan|irik)" + _W
        + r"|karachil\s+(?:polum\s+)?(?:ila|illa)" + _W
        + r"|(?:pathuk|patuk|uchi|mol)" + _W + r"\s+(?:" + _WORDS + r")?(?:kujhinj|kuzhinj|kuljinj|kujinj|kuyinj)"
        + _W + r")",
    ),
    # ... Odia: a boy bitten by a dog, "goda ru rakta phuara pari baharuchhi, duita towel bhiji gala, se dhala padi
    # jauchhi" (blood spurting, not stopping, or soaking cloths; not a scratch that bled a little)
    (
        "bleeding_or",
        r"(?:rakta|rakt|rokto|khun)" + _W + r"\s+(?:" + _WORDS + r"){0,2}?(?:phuara|phuhara|fuara|phuaara|fuhara)"
        + _W
        + r"|(?:rakta|rakt|rokto|khun)" + _W + r"\s+(?:" + _WORDS + r"){0,2}?(?:band|bandha)\s+(?:hauni|heuni|heunahi|"
        r"heu\s+nahi|hunahi|hau\s+nahi)" + _W
        + r"|(?:rakta|rakt|rokto|khun)" + _W + r"\s+" + _WORDS + r"{0,12}?(?:towel|tovel|tauliya|kapada|kapda|luga|"
        r"gamcha|gamucha)" + _W + r"\s+(?:" + _WORDS + r")?(?:bhiji|bhij|oda)\s+(?:gala|gala\.|jauchi|galani|gali)"
        + _W,
    ),
)

SENSITIVE: tuple[tuple[str, str], ...] = (
    # eighteenth round (dev split), Odia: "Mo Thyronorm 100 goli ku duita bhaga kari 50 khaibi ki?" (a tablet halved,
    # doubled, skipped or stopped, asked as "should I": "khaibi ki / deba ki / banda karibi ki")
    (
        "medication_decision_or",
        r"(?:goli|tablet|aushadha|oshadha|ausadha|dose|insulin)" + _W + r"\s+" + _WORDS + r"{0,6}?(?:duita|dui|adha|"
        r"ardha|double|banda|chadi|skip|kam|adhika)" + _W + r"\s+(?:" + _WORDS + r"){0,4}?(?:khaibi|khaiparibi|khai\s+"
        r"paribi|debi|deipari|karibi|kariparibi|chadibi|chadidebi)\s+(?:ki|kina)(?![a-z])",
    ),
    # ... Nepali: the morning sugar tablet forgotten, "Aba beluka duita sangai khaye hunchha?" (two together, double,
    # half, or a tablet skipped or stopped, asked as "may I": "khaye huncha / khanu huncha / chhode huncha"; not a
    # tablet asked after food)
    (
        "medication_decision_ne",
        r"(?:duita|dui\s+ota|duiota|double|dabal|adha|adhi|aadha|sangai|ekaichoti|ekai\s+choti)\s+(?:" + _WORDS
        + r"){0,3}?(?:khaye|khada|khanu|khana|dida|diye|dinu|line|lida|liye)\s+(?:pani\s+)?(?:huncha|hunch|hunxa|"
        r"milcha|milxa|thik\s+cha|thik\s+ho)" + _W
        + r"|(?:goli|tablet|ausadhi|aushadhi|ausadi|dabai|davai|insulin|dose)" + _W + r"\s+" + _WORDS + r"{0,6}?"
        r"(?:chode|chodda|chodnu|banda\s+gare|banda\s+garnu|nakhaye|nakhada|nakhanu|skip\s+gare|skip\s+garnu)\s+"
        r"(?:pani\s+)?(?:huncha|hunch|hunxa|milcha|thik\s+cha)" + _W,
    ),
)
