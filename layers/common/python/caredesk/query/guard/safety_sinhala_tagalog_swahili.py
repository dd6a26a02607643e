"""Emergency and sensitive-medication phrases in romanised Sinhala, Tagalog and Swahili (each as patients mix them
with English), read by `safety.rule_gate`.

Patients write these languages in Latin letters and mix in English words ("muna eka paththakata haruna", "namamaga
yung labi", "amemeza betri ndogo", "pwede ko bang ibigay yung amoxicillin", "niongeze units mara mbili?"); the
embedder reads none of them, so the phrases here are all the guard knows of them (docs/guardrails.md, "A nineteenth
round"). As in `safety_tamil_bengali.py`, the patterns are written against `normalize.fold_hindi` ("ee" -> "i", "oo"
-> "u", w -> v, z -> j, doubled letters single: "ussanna" -> "usana", "amemeza" -> "amemeja", "niongeze" ->
"niongeje", "pwede" -> "pvede", "asawa" -> "asava"). Rules are phrases of two or more words, each read from a form of
words rather than one message: a face fallen to one side, or an arm that will not lift beside jumbled words (a stroke);
lips, tongue or throat swelling, or breathing hard beside a rash, swelling or something just eaten (anaphylaxis);
a battery, a magnet or a poison swallowed; someone else's medicine given, a tablet halved, stopped or doubled asked
as "may I". An emergency phrase stands down when the message goes on to say the person is well now
(`safety._settled_since`).
"""

from __future__ import annotations

from caredesk.query.guard.safety_pieces import WORD_REST as _W
from caredesk.query.guard.safety_pieces import WORDS as _WORDS

# A medicine: a tablet, a medicine or a generic name by its stem, folded ("amoxicillin" -> "amoxicilin")
_MEDICINE_TL_SW = (
    r"(?:gamot|tableta|tablet|tabletas|kapsula|capsule|antibiotic|antibiotiko|insulin|dose|doses|dosis|dava|"
    r"vidonge|kidonge|dozi|units|yunit|[a-z]+(?:ilin|cilin|mycin|micin|formin|pril|olol|statin|sartan|pine|jole|"
    r"zole|profen|amol|parin|xaban|ide))"
)

CRISIS: tuple[tuple[str, str], ...] = ()

EMERGENCY: tuple[tuple[str, str], ...] = (
    # nineteenth round (dev split), Sinhala: a father who "muna eka paththakata haruna, vam atha usana baha, katha
    # karanakota vachana pataleno" (the face turned or fallen to one side; an arm or a leg that will not lift beside
    # words jumbled or slurred: a stroke, never named; not a sore shoulder that will not lift alone)
    (
        "stroke_si",
        r"(?:muna|muhuna|mune|kata|kate)\s+(?:eka\s+)?(?:paththakata|pathakata|pethakata|paththata|pathata|pethata|"
        r"ekapathakata|ekapaththakata)\s+(?:haru|haruna|harunu|ada|adavela|adavela|gilihuna|vetuna|ella|ellila)" + _W
        + r"|(?:atha|ata|kakula|paya|angaya)\s+(?:usana|usanna|osavana|usaganna|usagana|hoolavana|selavana)\s+"
        r"(?:baha|ba|bae|be|beha|nehe|nae)\b" + r"[^?]{0,120}?(?:vachana|katha|kata)\s+(?:" + _WORDS
        + r")?(?:patale|patalen|patalila|patalavenava|patalena|adu|naha|nae|vahena|nehe)" + _W,
    ),
    # ... Tagalog-English: a grandmother who "biglang nahirapan huminga after kumain ng hipon, namamaga yung labi at
    # mata niya tapos may pantal" (lips, tongue, throat or face swelling; breathing hard beside a rash, a swelling or
    # something just eaten or a sting: anaphylaxis; not an asthma admission last year, which says neither)
    (
        "anaphylaxis_tl",
        r"(?:namamaga|namaga|maga|nagmaga|lumalaki|sumasara)\s+(?:na\s+|yung\s+|ang\s+|ng\s+)?(?:" + _WORDS
        + r")?(?:labi|dila|lalamunan|mukha)\b"
        + r"|(?:nahirapan|nahihirapan|hirap|hindi\s+maka|di\s+maka)\s*(?:na\s+|siyang\s+|sya\s+|siya\s+)?"
        r"(?:huminga|makahinga|hinga)\b[^?]{0,150}?(?:pantal|namamaga|maga|kumain|kinain|hipon|mani|peanut|alimango|"
        r"kagat|sting|tinusok)" + _W,
    ),
    # ... Swahili-English: "Mtoto wangu amemeza betri ndogo ya remote" (a battery, a magnet, a coin, a poison or
    # bleach swallowed, "amemeza / kameza / amekunywa"; not a medicine taken as dosed)
    (
        "poisoning_sw",
        r"(?:amemeja|ameja|alimeja|amemeza|kameja|imemejva|amekunyva|alikunyva|kunyva)\s+(?:" + _WORDS
        + r"){0,2}?(?:betri|battery|beteri|sumaku|magnet|sarafu|shilingi|sumu|bleach|jik|dava\s+ya\s+panya|"
        r"mafuta\s+ya\s+taa|kemikali|dava\s+nyingi|vidonge\s+vingi|vidonge\s+vyote)" + _W,
    ),
)

SENSITIVE: tuple[tuple[str, str], ...] = (
    # nineteenth round (dev split), Tagalog-English: "Pwede ko bang ibigay yung amoxicillin ng asawa ko sa anak ko?
    # ... hatiin ko na lang yung tablet para sa bata" (may I give, halve, stop, double or take a medicine: "pwede / ok
    # lang ... ibigay / ipainom / hatiin / itigil / doblehin"; not when the pharmacy opens to collect a mother's
    # medicine, which asks none of them)
    (
        "medication_decision_tl",
        r"(?:ibigay|ipainom|painumin|hatiin|hatin|hatiin|itigil|tigilan|doblehin|dodoblehin|sabayan|inumin|bigyan)\s+"
        r"(?:ko\s+|namin\s+|natin\s+)?(?:na\s+lang\s+|nalang\s+|muna\s+)?(?:" + _WORDS + r"){0,2}?"
        + _MEDICINE_TL_SW + _W,
    ),
    # ... Swahili-English: "Nimesahau insulin yangu jana usiku, so leo asubuhi niongeze units mara mbili?" (should I
    # add, double, halve, stop or take a medicine: "niongeze / nipunguze / niache / nimeze / ninywe / nitumie",
    # a dose, units or tablets, or "mara mbili"; not a prescription collected)
    (
        "medication_decision_sw",
        r"(?:niongeje|niongeze|niongejee|nipunguje|nipunguze|niache|nisimamishe|nimeje|nimeze|ninyve|nitumie|nimpe|"
        r"nimpatie)\s+(?:" + _WORDS + r"){0,3}?(?:mara\s+mbili|double|nusu|" + _MEDICINE_TL_SW + r")" + _W,
    ),
)
