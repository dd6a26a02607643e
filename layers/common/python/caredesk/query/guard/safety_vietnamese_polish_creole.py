"""Crisis, emergency and sensitive-medication phrases in Vietnamese written without diacritics, in Polish and in
Haitian Creole, each as patients write them, read by `safety.rule_gate`.

Patients write Vietnamese without its diacritics ("toi nay toi len san thuong lan cuoi"), Polish with or without its
own ("najgorszy ból głowy w życiu", "czy mogę wziąć ibuprofen") and Haitian Creole in its spelling ("li pa pipi depi
maten, je l fon"); the embedder reads none of them, so the phrases here are all the guard knows of them
(docs/guardrails.md, "A twentieth round"). As in `safety_tamil_bengali.py`, the patterns are written against
`normalize.fold_hindi` (w -> v, z -> j, q -> k, doubled letters single, "ee" -> "i", "oo" -> "u"; `normalize_text`
keeps the diacritics but ł -> l: "głowy" -> "glovy", "najgorszy" -> "najgorsjy", "czy" -> "cjy", "wziąć" -> "vjiąć",
"bwè" -> "bvè"). Rules are phrases of two or more words, each read from a form of words rather than one message: a
rooftop, a bridge or a river gone up to "for the last time", letters for a wife and children and the keys left; the
worst headache of a life or a stiff neck beside a headache (a bleed on the brain or meningitis, never named); a baby's
diarrhoea or vomiting and no urine since a time, sunken eyes or a dry mouth; a medicine asked as "may I take" with a
blood thinner or another medicine. Nothing here is read in Indonesian, Turkish or Yoruba-English: the round's dev split
had no safety message in them that the guard missed. An emergency phrase stands down when the message goes on to say
the person is well now (`safety._settled_since`).
"""

from __future__ import annotations

from caredesk.query.guard.safety_pieces import WORD_REST as _W
from caredesk.query.guard.safety_pieces import WORDS as _WORDS

# A medicine in Polish, or a generic name by its stem, folded ("tabletki", "leki", "xarelto", "ibuprofen")
_MEDICINE_PL = (
    r"(?:tabletk\w*|tabletki|lek|leki|leku|lekami|lekiem|leków|lekov|dav\w*|kapsulk\w*|antybiotyk\w*|insulin\w*|"
    r"ibuprofen\w*|paracetamol\w*|aspiryn\w*|xarelto|eliquis|[a-z]+(?:profen|xaban|farin|formin|pril|olol|statin|"
    r"sartan|pine|jole|ilin|mycin|amol|pirin))"
)

# A headache, "ból głowy" or "boli (go) głowa", folded
_HEADACHE_PL = r"(?:b[oó]l\w*\s+(?:\w+\s+)?g[lł]ov\w*|boli\s+(?:\w+\s+)?g[lł]ova)"

CRISIS: tuple[tuple[str, str], ...] = (
    # twentieth round (dev split), Vietnamese without diacritics: letters written for a wife and children, the car keys
    # left on the table, "toi nay toi len san thuong chung cu lan cuoi" (up to a rooftop, a roof, a bridge or a river
    # bank "for the last time", "lan cuoi"; letters of farewell or for the family written and keys, cards or a phone
    # left; not a last visit to a clinic, which names no height)
    (
        "preparation_vi",
        r"(?:len|leo len|leo|ra|den|toi|nhay tu|nhay xuong tu)\s+(?:\S+\s+){0,2}?(?:san thuong|s[aâ]n th[uư][oơợ]ng|"
        r"mai nha|noc nha|tang thuong|tang cao nhat|cau|c[aầ]u|bo song|b[oờ] s[oô]ng)\b[^.?!]{0,40}?"
        r"\bl[aầ]n cu[oố]i\b"
        r"|vi[eế]t th[uư] (?:tu biet|tuyet menh|tam biet|cho vo con|cho vo va con|cho gia dinh|cho bo me|cho cac con|"
        r"cho con)\b[^?]{0,80}?\b(?:de|bo) (?:lai )?(?:chia khoa|ch[iì]a kh[oó]a|the ngan hang|vi tien|dien thoai)\b",
    ),
)

EMERGENCY: tuple[tuple[str, str], ...] = (
    # ... Polish: a father's sudden headache, "mówi że najgorszy w życiu, jakby ktoś go uderzył w tył głowy. Wymiotuje
    # i sztywnieje mu kark" (a headache, "ból głowy", beside the worst of a life, a blow to the back of the head or a
    # neck going stiff, either order: a bleed on the brain or meningitis, never named; not a headache and a booking)
    (
        "sudden_headache_pl",
        r"najgorsj\w*\s+b[oó]l\w*\s+g[lł]ov\w*"
        r"|" + _HEADACHE_PL + r"[^?]{0,150}?(?:najgorsj\w*\s+(?:\w+\s+){0,2}?v\s+[jżź]yciu|jak(?:by)?\s+(?:kto[sś]|cos|"
        r"coś)\s+(?:\w+\s+)?uderj\w*|sjtyvn\w*\s+(?:\w+\s+){0,2}?kark\w*|kark\w*\s+(?:\w+\s+){0,2}?sjtyvn\w*)"
        r"|(?:najgorsj\w*\s+(?:\w+\s+){0,2}?v\s+[jżź]yciu|sjtyvn\w*\s+(?:\w+\s+){0,2}?kark\w*|kark\w*\s+"
        r"(?:\w+\s+){0,2}?sjtyvn\w*)[^?]{0,150}?" + _HEADACHE_PL,
    ),
    # ... Haitian Creole: an 8-month-old's diarrhoea and vomiting since yesterday, "li pa pipi depi maten, je l fon,
    # bouch li sèch" (diarrhoea or vomiting, then no urine since a time, sunken eyes or a dry mouth: dehydration in a
    # child, never named; not a delivery of medicines)
    (
        "dehydration_ht",
        r"(?:dyare|djare|vomisman|vomi|vomi[sz]\w*|kaka dlo|lakoliv)\b[^?]{0,150}?(?:(?:pa|poko|p)\s+(?:f[eè]\s+)?pipi"
        r"\s+depi|je\s*(?:l|li|yo|pitit la)?\s+(?:fon|anfonse|kreve)\b|bouch\s+(?:li\s+|yo\s+)?s[eè]ch\b)",
    ),
)

SENSITIVE: tuple[tuple[str, str], ...] = (
    # ... Polish: "czy mogę wziąć ibuprofen do mojego leku na rozrzedzenie krwi (Xarelto)?" (may I take, give, combine,
    # stop, halve or double a medicine, "czy mogę / można ... wziąć / dać / łączyć / odstawić"; a medicine taken "do"
    # another; not "czy mogę zapisać się" or a prescription collected, "odebrać receptę")
    (
        "medication_decision_pl",
        r"(?:cjy|cj)\s+(?:mog[eę]|mo[jż]na|mo[jż]e|mo[jż]emy)\s+(?:\S+\s+)?(?:vji[aą][cć]|bra[cć]|da[cć]|prjyj[aą][cć]|"
        r"prjyjmova[cć]|l[aą]cjy[cć]|pol[aą]cjy[cć]|odstavi[cć]|prjesta[cć]|podvoi[cć]|jmniejsjy[cć]|pol[oó]vi[cć]|"
        r"poldieli[cć]|podjieli[cć])\s+(?:" + _WORDS + r"){0,3}?" + _MEDICINE_PL + _W
        + r"|" + _MEDICINE_PL + r"\s+(?:" + _WORDS + r"){0,2}?(?:do|j|ra[jz]em j)\s+(?:mojego|moim|mojej|moimi|"
        r"jego|jej)?\s*(?:leku|lekiem|lekami|tabletkami|tabletk\w*)\s+(?:" + _WORDS + r"){0,3}?(?:na\s+)?"
        r"(?:roj?rjedj\w*|krv\w*|cji?snieni\w*|cukr\w*|serc\w*)",
    ),
)
