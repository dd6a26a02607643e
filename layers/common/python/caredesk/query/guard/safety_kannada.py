"""Crisis, emergency and sensitive-medication phrases in romanised Kannada, read by `safety.rule_gate`.

Patients write Kannada in Latin letters and mix in English words ("railway track hatra hogtini", "fits bandide
... innu nillthilla", "gulige bidbahuda"); the embedder does not read it, so the phrases here are all the guard
knows of it (docs/guardrails.md, "A seventeenth round"). As in `safety_tamil_bengali.py`, the patterns are
written against `normalize.fold_hindi` ("ee" -> "i", "oo" -> "u", doubled letters single: "beligge" -> "belige",
"nillthilla" -> "nilthila", "aagalla" -> "agala"). Rules are phrases of two or more words, each read from a form
of words rather than one message: no longer a burden to anyone, "don't look for me", going to the tracks tomorrow,
a heavy chest with the arm, the jaw or sweat, a fit that has not stopped, a tablet skipped or taken with beer.
An emergency phrase stands down when the message goes on to say the person is well now ("eega chennagiddaare";
`safety._settled_since`). Urdu code-switched with English is written like Hinglish and read by `safety_hindi.py`.
"""

from __future__ import annotations

from caredesk.query.guard.safety_pieces import WORD_REST as _W
from caredesk.query.guard.safety_pieces import WORDS as _WORDS

CRISIS: tuple[tuple[str, str], ...] = (
    # seventeenth round (dev split): "innu yaarigu bhaara aagalla" (no longer a burden to anyone), "nanna hudukbedi"
    # (don't look for me), "naale beligge modalu railway track hatra hogtini" (a day or a time, then going to the
    # tracks; not the tracks named alone)
    (
        "suicide_kn",
        r"yarig(?:u|e|ella)\s+(?:" + _WORDS + r")?bhar(?:a)?\s+(?:agal|agol|aguvud|agalla|aguvudila|agalu)" + _W
        + r"|nan(?:a|ane|nu)?\s+hudu(?:k|ki|ku)(?:bed|bedi|bedri|bedha)" + _W
        + r"|(?:nale|ivatu|ivathu|ratri|iga|belige|beligge|sanje)\s+" + _WORDS + r"{0,3}?(?:railvay|railway|rail|train)"
        r"\s+(?:track|hali|halli|hal)" + _W + r"\s+(?:" + _WORDS + r")?(?:hatra|hatira|hatirake|kade|ge|mele)\s+"
        r"(?:hog|hogt|hogu|hogi)(?:tini|tine|utini|utene|bidtini|tiddini)" + _W,
    ),
)

EMERGENCY: tuple[tuple[str, str], ...] = (
    # seventeenth round (dev split): "edeyalli tumba bhaara, yedagai mattu dava ge novu hogtide, maiyella bevaru,
    # ondu sala vaanthi" (a heavy or painful chest, then the left arm, the jaw, sweat, vomit or breath)
    (
        "chest_pain_kn",
        r"ede" + _W + r"\s+" + _WORDS + r"{0,2}?(?:bhara|novu|nov|uri|hindid|hindi)" + _W + r"\s+" + _WORDS
        + r"{0,12}?(?:yedagai|edagai|yedakai|edakai|yeda\s+kai|eda\s+kai|dava|davade|bevar|bevaru|vanthi|vanti|usir)"
        + _W,
    ),
    # ... a six-year-old's first fit, "fits bandide ... kaNNu mele hogide ... hattu nimisha aaytu innu nillthilla"
    # (a fit that has not stopped yet; the eyes rolled up; not a fit last year, "eega chennagiddaaLe")
    (
        "seizure_kn",
        r"(?:fits|fit|pits|pitsu|apasmar|murch|mursh)" + _W + r"\s+" + _WORDS + r"{0,25}?(?:inu|innu|iganu|ivaregu)\s+"
        r"(?:nil|nilu)(?:thila|tila|lila|thiladu|lutila|luthila|lutilla)" + _W
        + r"|kan(?:u|nu|gal|galu)?" + _W + r"\s+mele\s+(?:hog|hogi|hogid|hogide|hogtide)" + _W,
    ),
)

SENSITIVE: tuple[tuple[str, str], ...] = (
    # seventeenth round (dev split): Glycomet GP before an office party, "Party dina raatri gulige bidbahuda, illa
    # beer jothe togobahuda?" (a tablet skipped, stopped, halved or doubled, or taken with alcohol, asked as "may I":
    # "-bahuda"; not food with beer)
    (
        "medication_decision_kn",
        r"(?:gulige|gulig|matre|mathre|tablet|dose|insulin|aushadhi|aushadha|injection)" + _W + r"\s+" + _WORDS
        + r"{0,3}?(?:bid|nilis|nilsi|skip|stop|kadime\s+madi|jasti\s+madi|double\s+madi|ardha\s+)" + _W + r"bahuda"
        + r"|(?:bir|beer|alcohol|drink|drinks|daru|madya|hend)" + _W + r"\s+(?:jothe|jote|jotege|jothege|sangada)\s+"
        r"(?:" + _WORDS + r"){0,2}?(?:tog|tagond|tegedu|nungi)" + _W + r"bahuda",
    ),
)
