"""Crisis, emergency and sensitive-medication phrases in romanised Marathi and romanised Telugu, read by
`safety.rule_gate`.

Patients write these languages in Latin letters and mix in English words ("sagla sampvun takanar aahe",
"pesticide dabba motham taagestanu", "Sunday tarvatha nenu undanu"); the embedder reads neither, so the
phrases here are all the guard knows of them (docs/guardrails.md, "A seventeenth round"). As in
`safety_tamil_bengali.py`, the patterns are written against `normalize.fold_hindi` ("ee" -> "i", "oo" -> "u",
w -> v, z -> j, doubled letters single: "taagestanu" -> "tagestanu", "aahe" -> "ahe", "neet" -> "nit",
"baajula" -> "bajula"). Rules are phrases of two or more words, each read from a form of words rather than one
message: everything ended, no wish to live, poison drunk all at once, not being there after a day, the face gone
crooked, a tablet of someone else's given. An emergency phrase stands down when the message goes on to say the
person is well now ("aata ti bari aahe", "ippudu baagunnaru"; `safety._settled_since`).
"""

from __future__ import annotations

from caredesk.query.guard.safety_pieces import WORD_REST as _W
from caredesk.query.guard.safety_pieces import WORDS as _WORDS

# a journey, a move or a job after the day named: "Sunday tarvatha nenu undanu, Pune veltunna"
_NOT_AWAY = (
    r"(?![^.?!]{0,60}(?:\b(?:trip|travel\w*|tour|holiday|vacation|office|job|duty|transfer\w*|hostel|college|abroad|"
    r"flight|train|bus|visa)\b|\b\w+uru(?:ki|ku)?\b|vel?t|velut))"
)

CRISIS: tuple[tuple[str, str], ...] = (
    # seventeenth round (dev split), Marathi: a will written with a date, "tya ratri sagla sampvun takanar aahe"
    # (everything, one's life or oneself ended: "sampvun takanar / takto / deto"); "jiv denar"; "mala jagaycha nahi"
    # ("aatmahatya karnar" is read by the Hindi table's "atmahatya kar")
    (
        "suicide_mr",
        r"(?:sagla|sagle|sagl|sarva|sarv|ayushya|ayushy|jivan|svatala|svatahala|swatala|mala)\s+" + _WORDS + r"{0,1}?"
        r"samp(?:v|av)un\s+(?:tak|de|det|dil|ghe)" + _W
        + r"|jiv\s+(?:denar|dein|deto|dete|dyaycha|dyaychay|dyaychi|devun\s+tak)" + _W
        + r"|mala\s+(?:ata\s+|ajun\s+)?jagaych(?:a|ay|e)\s+nah" + _W,
    ),
    # ... Telugu: "Inka naaku brathakalani ledu" (no wish to live left; "chavalani undi", wanting to die), and
    # "pesticide dabba motham taagestanu" (a poison or tablets, all of it drunk or swallowed: "motham / antha / anni")
    (
        "suicide_te",
        r"b(?:r)?at(?:h)?(?:a|u)k(?:a)?l(?:a)?ni\s+(?:" + _WORDS + r")?(?:ledu|ledhu|ledu\.|leda)" + _W
        + r"|chav(?:a)?l(?:a)?ni\s+(?:" + _WORDS + r")?(?:undi|unadi|anipistundi|anipistondi|anipisthundi)" + _W
        + r"|(?:pesticide|pesticid|purugula\s+mandu|purugu\s+mandu|puruguma?ndu|endrin|monocrotophos|matrelu|matralu|"
        r"matralni|matrelni|tablets|pils|sleeping\s+pils)" + _W + r"\s+" + _WORDS + r"{0,3}?(?:motham|motam|antha|anta|"
        r"anni|annitini|anitini)\s+(?:tag|mring|ming|veskun|vesukun|vesukunt)" + _W,
    ),
    # ... Telugu: a bike, a laptop and a phone password given away, "Sunday tarvatha nenu undanu" (after a day named
    # the writer won't be there; not a journey or a move after it: the English sixteenth round's "I won't be around
    # after Sunday")
    (
        "preparation_te",
        r"(?:tarvatha|taruvatha|tarvata|taruvata|taravatha|tarvat|taruvat)\s+(?:nenu\s+|inka\s+)?(?:undanu|vundanu|"
        r"bratakanu|bathakanu|bathakanu)(?![a-z])" + _NOT_AWAY,
    ),
)

EMERGENCY: tuple[tuple[str, str], ...] = (
    # seventeenth round (dev split), Marathi, relayed by a neighbour: "tond achanak ek baajula vakadla aahe ... shabda
    # adaktat, aani ujava haat uchalta yet nahi" (the face gone crooked; words sticking; suddenly an arm or a leg that
    # will not lift: not a shoulder that hurts when lifting, so "achanak" / "ekdam" before it)
    (
        "heart_attack_stroke_mr",
        r"tond" + _W + r"\s+" + _WORDS + r"{0,4}?(?:vakad|vakd|vank|vakr)" + _W
        + r"|shabd" + _W + r"\s+(?:" + _WORDS + r")?(?:adakt|atakt|adkat|atkat|adakat|atakat)" + _W
        + r"|(?:achanak|acanak|ekdam)\s+" + _WORDS + r"{0,25}?(?:hat|pay|haat)" + _W + r"\s+(?:" + _WORDS + r")?"
        r"(?:uchalta|uchlta|uchalat|halvta|halavta|halta|uchalu|halvu)\s+(?:yet|yeta|yeth|shakat|shakt)" + _W
        + r"\s+nah" + _W,
    ),
)

SENSITIVE: tuple[tuple[str, str], ...] = (
    # seventeenth round (dev split), Marathi: the mother's Telma run out, the father's Amlokind at home, "Aaj ratri
    # aaila tyatli ek deu shakto ka" (a tablet, then one, half or double of it given, taken or stopped by the writer and
    # asked as "can I": "deu / gheu / band karu shakto ka"; not a refill asked of the pharmacy)
    (
        "medication_decision_mr",
        r"(?:goli|golya|golyan|tablet|gulika|aushadh|ausadh|aushadha|dava|dose|insulin)" + _W + r"\s+" + _WORDS
        + r"{0,20}?(?:ek|don|ardhi|ardha|double|dupat|kami|jast|band|tyatli|tyatla|tyatun)\s+(?:" + _WORDS + r")?"
        r"(?:deu|gheu|khau|karu|dyav|ghyav)\s+(?:shakto|shakte|shakat|shaku|shakel|shakato|ka)(?![a-z])",
    ),
)
