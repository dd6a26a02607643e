"""Crisis, emergency and sensitive-medication phrases in romanised Gujarati and romanised Punjabi, read by
`safety.rule_gate`.

Patients write these languages in Latin letters and mix in English words ("have mane jeevavanu man nathi", "dhaba
parthi koodi javanu", "be goli saathe lai lau?", "mummy wali Glimepiride de deyan?"); the embedder reads neither, so
the phrases here are all the guard knows of them (docs/guardrails.md, "An eighteenth round"). As in
`safety_tamil_bengali.py`, the patterns are written against `normalize.fold_hindi` ("ee" -> "i", "oo" -> "u",
w -> v, z -> j, doubled letters single: "jeevavanu" -> "jivavanu", "koodi" -> "kudi", "saathe" -> "sathe", "taav"
-> "tav"). Rules are phrases of two or more words, each read from a form of words rather than one message: no wish
to live, a jump from a terrace, a roof or a bridge decided, a fever with a body gone cold, purple spots, fast
breathing or confusion, two tablets taken together or a tablet halved or stopped asked as "may I", someone else's
medicine given. An emergency phrase stands down when the message goes on to say the person is well now
(`safety._settled_since`).
"""

from __future__ import annotations

from caredesk.query.guard.safety_pieces import WORD_REST as _W
from caredesk.query.guard.safety_pieces import WORDS as _WORDS

# A medicine: a tablet, a medicine or a generic name by its stem ("Glimepiride", "Amlong", "Glycomet" are read by
# what comes after them)
_MEDICINE_GU_PA = (
    r"(?:goli|goliyo|golio|golian|golia|tablet|tablets|dava|davai|dawai|davayi|dvai|aushadh|dose|insulin|"
    r"[a-z]+(?:ide|formin|pril|olol|statin|sartan|pine|zole|cillin|mycin|metin))"
)

CRISIS: tuple[tuple[str, str], ...] = (
    # eighteenth round (dev split), Gujarati: "Have mane jeevavanu man nathi" (no wish or no strength left to live:
    # "jivvanu / jivavanu man nathi", "jivvu nathi", "jivi shakto nathi"), and "aaje raate ... dhaba parthi koodi
    # javanu nakki karyu chhe" (a jump from a terrace, a roof, a building or a bridge decided or meant: "kudi javanu",
    # "kudi jais", "kudi padish"; not a child who jumped off the sofa, so the high place before it)
    (
        "suicide_gu",
        r"(?:jiv(?:a)?vanu|jivvanu|jivanu|jivvu|jivu)\s+(?:have\s+)?(?:man|mann|iccha|icha)?\s*nathi"
        r"|(?:jivi|jivvi)\s+(?:shakto|shakti|shaku)\s+nathi"
        r"|(?:apghat|aapghat|atmahatya)\s+(?:kari|karis|karish|karvanu|karvano|karvani|karvu)" + _W
        + r"|(?:dhaba|dhabu|dhaba-|agasi|agashi|terrace|terace|chat|chhat|dhab|bridge|pul|pool|building|bilding|"
        r"tower|mala|majla)" + _W + r"\s+(?:" + _WORDS + r")?(?:parthi|par\s+thi|uparthi|upar\s+thi|thi)\s+"
        r"(?:kudi|kud|kudki)\s*(?:javanu|javano|jais|jaish|padis|padish|padvanu|mari|marvanu|javu)" + _W,
    ),
)

EMERGENCY: tuple[tuple[str, str], ...] = (
    # eighteenth round (dev split), Gujarati: a grandfather with fever since yesterday, "hamna emnu shareer thandu padi
    # gayu chhe, chamdi par jaambli daagh chhe, shvaas jaldi jaldi le chhe ane kai samajta nathi" (a fever, then the
    # body gone cold, purple spots on the skin, fast breathing or confusion: sepsis, never named; not a fever alone)
    (
        "sepsis_gu",
        r"(?:tav|tab|taav|bukhar|bukar|fever|tavdo)" + _W + r"\s+" + _WORDS + r"{0,30}?(?:"
        r"(?:sharir|shariir|sarir|hath|pag|chamdi)" + _W + r"\s+(?:" + _WORDS + r")?thand" + _W + r"\s+(?:padi|pad|"
        r"padyu|padigayu|thai)" + _W
        + r"|(?:jambli|jamli|jamali|purple|kala|kali)\s+(?:" + _WORDS + r")?(?:dagh|daag|dag|dagha|chakam|chakama|"
        r"dana|dhaba)" + _W
        + r"|(?:shvas|svas|shwas|swas|sas)\s+(?:" + _WORDS + r")?jaldi\s+jaldi"
        + r"|(?:kai|kashu|kasu)\s+samaj(?:ta|ti|tu|atu|ata|ati)\s+nathi"
        + r"|bolva\s*(?:ma|man)?\s+(?:gadbad|gotalo|takleef|taklif|lochan)" + _W + r")",
    ),
)

SENSITIVE: tuple[tuple[str, str], ...] = (
    # eighteenth round (dev split), Gujarati: Amlong 5 forgotten last night, "Aaje savare be goli saathe lai lau?"
    # (two tablets together, or one halved, doubled, skipped or stopped, asked as "may I": "lai lau / lai shaku /
    # levay / chalse"; not a refill asked of the pharmacy: "refill bandh kari dejo")
    (
        "medication_decision_gu",
        r"(?:be|bey|ben|double|dabal|dabbal|ardhi|adhi|ek\s+sathe|bhegi|sathe)\s+" + _MEDICINE_GU_PA + _W + r"\s+(?:"
        + _WORDS + r"){0,2}?(?:lai|lay|khai|lev|levi|levani|apu|api|aapi)\s*(?:lau|lu|levu|shaku|shakay|shakie|"
        r"shakiye|levay|levai|chalse|chale|dau|du)(?![a-z])"
        + r"|" + _MEDICINE_GU_PA + _W + r"\s+" + _WORDS + r"{0,4}?(?:be|bey|ben|double|dabal|ardhi|adhi|band|bandh|"
        r"chhodi|chodi|skip|ochhi|ochi|vadhare|vadhu)\s+(?:" + _WORDS + r"){0,2}?(?:lai|khai|kari|karu|api|aapi)\s*"
        r"(?:lau|lu|shaku|shakay|shakie|levay|chalse|chale|dau|du|daiye|daie)(?![a-z])",
    ),
    # ... Punjabi: a father's Glycomet 500 run out, "Ki main ohna nu mummy wali Glimepiride de deyan jado tak navi na
    # aave?" (a medicine, then given, taken, stopped or halved asked as "should I": "de deyan / kha lavan / chhad
    # deyan / band kar deyan"; the medicine right before the verb, not a prescription or a form handed in)
    (
        "medication_decision_pa",
        _MEDICINE_GU_PA + _W + r"\s+(?:(?:" + _WORDS + r")?(?:adhi|adi|do|dugni|double|dabal)\s+)?(?:de\s+de(?:yan|van|"
        r"an|ian)|kha\s+la(?:van|an|yan|iye)|le\s+la(?:van|an|yan|iye)|chad\s+de(?:yan|van|an)|band\s+kar\s+de(?:yan|"
        r"van|an)|kha\s+sak(?:da|di|de)\s+(?:han|haan|ha|aan))(?![a-z])",
    ),
)
