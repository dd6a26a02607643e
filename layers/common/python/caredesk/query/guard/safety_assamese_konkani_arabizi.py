"""Sensitive-medication phrases in romanised Assamese and Konkani and in Arabizi (Egyptian Arabic in Latin letters
and digits), each as patients mix them with English, read by `safety.rule_gate`.

Patients write these languages in Latin letters and mix in English words ("ekhon dose erai dibo pari?", "golio bond
korunk zata?", "momken a5od etneen el naharda?"); the embedder reads none of them, so the phrases here are all the
guard knows of them (docs/guardrails.md, "A nineteenth round"). As in `safety_tamil_bengali.py`, the patterns are
written against `normalize.fold_hindi` ("ee" -> "i", "oo" -> "u", w -> v, z -> j, doubled letters single: "zata" ->
"jata", "etneen" -> "etnin", "metronidazole" -> "metronidajole"). Rules are phrases of two or more words, each read
from a form of words rather than one message: a dose skipped, a tablet stopped or two taken asked as "can I", a
medicine taken with drink. Nothing here is an emergency or a crisis; the next round's would be added beside them.
"""

from __future__ import annotations

from caredesk.query.guard.safety_pieces import WORD_REST as _W
from caredesk.query.guard.safety_pieces import WORDS as _WORDS

# A medicine: a tablet, a medicine or a generic name by its stem, folded
_MEDICINE_AS_KOK_AR = (
    r"(?:dose|doses|dosage|goli|golio|golia|gulli|tablet|tablets|oushadh|oxudh|dorob|dorov|derob|vokhad|okhad|"
    r"vakhat|insulin|dava|[a-z]+(?:ilin|mycin|formin|pril|olol|statin|sartan|pine|jole|zole|profen|amol|"
    r"parin|xaban|farin|ide))"
)

CRISIS: tuple[tuple[str, str], ...] = ()

EMERGENCY: tuple[tuple[str, str], ...] = ()

SENSITIVE: tuple[tuple[str, str], ...] = (
    # nineteenth round (dev split), Assamese: on metronidazole with a wedding tonight, "olop mod khabo lagibo ...
    # ekhon dose erai dibo pari?" (may I skip, stop or double a dose: "erai dibo / bondho koribo / duguna khabo ...
    # pari / neki"; a medicine taken and then drink, "mod / madh / alcohol ... khabo"; not a follow-up booked)
    (
        "medication_decision_as",
        _MEDICINE_AS_KOK_AR + _W + r"\s+(?:" + _WORDS + r")?(?:erai|eri|bondho|bond|band|duguna|dugun|double|adha)\s+"
        r"(?:kori\s+|kori|)(?:dibo|dim|dile|khabo|khaim|koribo|korim)\s*(?:pari|parim|parimne|neki|hobo)?\b"
        + r"|" + _MEDICINE_AS_KOK_AR + _W + r"\s+(?:khai|khaiche|khaisu|loi)\s+(?:asu|aso|ase|aaso)\b[^?]{0,80}?"
        r"(?:mod|madh|alcohol|drink|drinks|ber|bir|vhisky|vine|daru)\s+(?:" + _WORDS + r")?(?:khabo|khab|khaim|"
        r"khale)" + _W,
    ),
    # ... Konkani: BP good now, "doctorak vicharinastanam golio bond korunk zata?" (may a medicine be stopped, halved
    # or doubled: "bond / band / ordhi / dupet korunk zata / zait"; without asking the doctor, "vicharinastanam")
    (
        "medication_decision_kok",
        _MEDICINE_AS_KOK_AR + _W + r"\s+(?:" + _WORDS + r")?(?:bond|band|bandh|ordhi|ardhi|dupet|sodun|kami)\s+"
        r"(?:korunk|korun|kelear|kortat|kori|korum)\s+(?:jata|jait|jay|jatat|jayat|jatta)\b"
        + r"|(?:doctorak|doktorak|dactorak|dotorak)\s+(?:na\s+)?(?:vicharinastanam|vicharinastana|vicharinastan|"
        r"vicharinasta|vicharnastana)\s+(?:" + _WORDS + r"){0,2}?" + _MEDICINE_AS_KOK_AR + _W,
    ),
    # ... Arabizi: a warfarin dose forgotten yesterday, "momken a5od etneen el naharda?" (may I take two, double or
    # half, or stop a medicine: "momken / ynfa3 a5od / awa2af ..."; not an appointment taken, "a5od ma3ad")
    (
        "medication_decision_ar",
        r"(?:momken|mumkin|momkin|ynfa3|yenfa3|yinfa3|inf3|ينفع)\s+(?:ana\s+)?(?:a5od|akhod|a5ud|akhud|ak?hod|"
        r"ad5ol|ashrab|a5ad)\s+(?:el\s+)?(?:etnin|itnin|etnen|itnen|tnin|2|double|dabal|nos|nus|dose\S*|dava|"
        r"habaya|habayteen|[a-z]+(?:farin|pril|olol|statin|formin|ilin|mycin))\b"
        + r"|(?:momken|mumkin|ynfa3|yenfa3)\s+(?:ana\s+)?(?:ava2af|a2a2af|av2af|avaqaf|avaf|a2ta3)\s+"
        r"(?:el\s+)?(?:dava|dose\S*|habaya|[a-z]+(?:farin|pril|olol|statin|formin|ilin|mycin))\b",
    ),
)
