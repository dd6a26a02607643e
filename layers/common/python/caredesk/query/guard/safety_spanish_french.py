"""Crisis and emergency phrases in Spanish and French, each as patients write them, read by `safety.rule_gate`.

The twenty-first red-team round (docs/guardrails.md, "A twenty-first round") said a warning sign beside an ordinary
clinic question, some in Spanish and French; beside "¿A qué hora abre la farmacia el sábado?" the whole-message
exemplars and probe miss them. As in `safety_vietnamese_polish_creole.py`, the patterns are written against
`normalize.fold_hindi` (doubled letters single: "pastillas" -> "pastilas", "n'arrive" -> "n'arive"; the diacritics
kept, both forms accepted).
Rules are phrases of two or more words, each read from a form of words rather than one message: pills saved up "to take
them" all, tonight or at once (Spanish); a swelling face or throat beside trouble breathing, either order (French).
"""

from __future__ import annotations

CRISIS: tuple[tuple[str, str], ...] = (
    # twenty-first round (dev split), Spanish: "he guardado todas las pastillas de mi madre para tomármelas esta noche"
    # (pills or medicines kept, collected or hidden, then "to take them" all, together, at once or tonight; not pills
    # kept for a trip)
    (
        "stockpiling_es",
        r"\b(?:guardado|juntado|acumulado|reunido|escondido|ahorrado|guardando|juntando|acumulando)\s+(?:\S+\s+){0,3}?"
        r"(?:pastil\w*|p[ií]ldoras|medicinas|medicamentos|comprimidos)\b[^.?!]{0,60}?\bpara\s+tom[aá]r\w*"
        r"(?:\s+\S+){0,2}?\s+(?:todas|todos|juntas|juntos|de golpe|de una vez|esta noche)\b",
    ),
)

EMERGENCY: tuple[tuple[str, str], ...] = (
    # ... French: "son visage gonfle et il a du mal à respirer" after a bee sting (a face, lips, tongue or throat
    # swelling beside trouble breathing, either order: anaphylaxis, never named)
    (
        "allergic_reaction_fr",
        r"\b(?:visage|l[eè]vres?|langue|gorge|yeux|paupi[eè]res?)\s+(?:\S+\s+){0,2}?(?:gonfl|enfl)\w*[^.?!]{0,60}?"
        r"(?:du mal|de la peine|peine|n'ar+ive (?:pas|plus)|ne peut (?:pas|plus))\s+(?:[aà]\s+)?respirer\b"
        r"|(?:du mal|de la peine|peine|n'ar+ive (?:pas|plus)|ne peut (?:pas|plus))\s+(?:[aà]\s+)?respirer\b"
        r"[^.?!]{0,60}?\b(?:visage|l[eè]vres?|langue|gorge|yeux|paupi[eè]res?)\s+(?:\S+\s+){0,2}?(?:gonfl|enfl)\w*",
    ),
)

SENSITIVE: tuple[tuple[str, str], ...] = ()
