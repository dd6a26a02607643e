"""Prompt-injection detection: named rule families matched on masked, normalised text.

Every variant from `normalize.scan_variants` (the text, its leet and spaced-letter folds, decoded
base64/hex/percent payloads) is checked, plus a letters-only "squashed" form for a few long keys
that separators cannot hide. Each hit names its family and the pattern that matched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from caredesk.query.guard.normalize import scan_variants, squash

# What an attacker tells the model to drop. Not "messages", "orders" or "context": patients ask to
# ignore their own last message or cancel their previous orders.
_INSTRUCTIONS = (
    r"(?:instructions?|rules?|prompts?|directions?|directives?|guidelines?|guardrails?|commands?|"
    r"programming|constraints?|system messages?|system context|training)"
)
_ATTACK_INSTRUCTIONS = r"(?:instructions?|prompts?|directives?|guidelines?|guardrails?|programming|system messages?)"
_EARLIER = (
    r"(?:previous|prior|above|earlier|preceding|former|original|initial|old|existing|all|any|your|the|these|"
    r"those|system)"
)

FAMILIES: dict[str, tuple[str, ...]] = {
    "ignore_instructions": (
        rf"\b(?:ignore|disregard|forget|abandon|bypass|override|overwrite|neglect)\s+"
        rf"(?:(?:all|any|of|every|everything|each|the|your|my|these|those|that|this|what|you|were|was|told|said|"
        rf"previously|before|so|far|now)\s+){{0,4}}(?:{_EARLIER}\s+){{0,2}}{_INSTRUCTIONS}\b",
        # weaker verbs ("skip the instructions and just come in") need the model's own instructions as object
        rf"\b(?:drop|discard|skip|cancel|erase|delete|clear)\s+(?:all\s+(?:of\s+)?)?(?:your|the\s+(?:previous|prior|"
        rf"above|system|original)|(?:the\s+)?system)\s+(?:\w+\s+)?{_ATTACK_INSTRUCTIONS}\b",
        r"\b(?:ignore|disregard|forget)\s+(?:everything|all(?: of it)?|what)\s+(?:above|before|you (?:were|"
        r"have been) told|i said before|previously)",
        r"\bforget\s+(?:everything|all)\s+(?:you know|you were told|above)",
        r"\bnew\s+(?:system\s+)?(?:instructions?|directives?|task)\s*:|\bnew\s+system\s+(?:rules?|instructions?|prompt)\b"
        r"|\byour new (?:instructions|rules|task|directive|role)\b",
        r"\b(?:from now on|starting now|henceforth),?\s+(?:you\s+(?:will|must|shall|are|should|only|always)|"
        r"respond|"
        r"answer|reply|ignore|act)",
        r"\b(?:stop|quit)\s+(?:following|obeying)\s+(?:your|the|all|any)\s+",
        r"\b(?:do not|don't|never)\s+follow\s+(?:your|the|any)\s+(?:previous\s+|original\s+|system\s+)?"
        + _INSTRUCTIONS,
        r"\binstead of (?:answering|following)\b.{0,40}\b(?:do|say|print|tell|write)\b",
        r"\b(?:end|close) of (?:system |user )?(?:prompt|instructions?|input)\b",
        r"(?:^|\s)(?:</?(?:system|instructions?|user|assistant|im_start|im_end)>|\[/?(?:inst|system)\]|"
        r"<\|im_start\|>|###\s*(?:system|instruction))",
        # multilingual: Spanish, Portuguese, French, Italian, German, Hinglish, Hindi
        r"\b(?:ignora|ignore (?:les|toutes)|olvida|olvide|esquece|esqueça|ignorez|oubliez|oublie|ignorare|"
        r"dimentica|ignoriere|ignorier|vergiss|vergessen sie)\b.{0,40}"
        r"\b(?:instrucciones|instruções|instrucoes|instructions|consignes|istruzioni|anweisungen|regeln|reglas|"
        r"regras|règles|regles)\b",
        r"\b(?:pichle|pichhle|pehle|upar|saare|sabhi|sare)\b.{0,30}\b(?:nirdesh|instructions?|niyam|"
        r"rules)\b.{0,30}\b(?:bhool|bhul|ignore|nazarandaz|chhod|chod|mat mano)",
        r"\b(?:instructions?|nirdesh|niyam|rules)\b.{0,20}\b(?:bhool jao|bhul jao|ignore karo|ignore kar do|"
        r"nazarandaz karo)",
        r"(?:पिछले|सभी|ऊपर).{0,30}(?:निर्देश|नियम).{0,30}(?:अनदेखा|भूल|नज़रअंदाज़|नजरअंदाज|मत मानो)",
    ),
    "reveal_system_prompt": (
        r"\b(?:show|reveal|print|repeat|display|tell|give|output|leak|dump|share|disclose|expose|paste|write out|"
        r"spell out|list|return|recite|what(?:'s| is| are| were)|read back)\s+"
        r"(?:me\s+|us\s+|out\s+)?(?:(?:your|the|its|all|of|full|exact|entire|complete|verbatim|original|initial|"
        r"hidden|secret|internal|first|above|previous|raw)\s+){0,4}"
        r"(?:system|developer|hidden|secret)[\s-]*(?:prompts?|instructions?|"
        r"messages?|rules|configuration|config|directives?|context)\b",
        # "the original instructions" may be a patient's prep sheet; "your original instructions" are the model's
        r"\b(?:show|reveal|print|repeat|display|tell|give|output|leak|dump|share|disclose|expose|paste|list|recite|"
        r"what(?:'s| is| are| were))\s+(?:me\s+|us\s+)?(?:(?:all|of|full|exact|entire|complete|verbatim)\s+){0,2}"
        r"(?:your|its)\s+(?:\w+\s+)?(?:initial|internal|original|base|pre-?|first)[\s-]*(?:prompts?|instructions?|"
        r"configuration|config|directives?)\b",
        r"\b(?:system|developer|hidden|initial)\s+(?:prompt|instructions?|message)\b.{0,40}\b(?:verbatim|"
        r"word for word|exactly|in full|in a code block)",
        r"\brepeat\s+(?:the\s+|all\s+(?:of\s+)?(?:the\s+)?)?(?:text|words|everything|lines?)\s+(?:above|before|preceding)",
        r"\bwhat\s+(?:were|are)\s+you\s+(?:told|instructed|programmed|configured)\b",
        r"\b(?:what|which)\s+(?:instructions|rules)\s+(?:were you given|did (?:they|your developers?) give you)\b",
        r"\b(?:print|show|reveal|dump|output)\s+(?:your|the)\s+(?:config(?:uration)?|environment variables?|"
        r"env vars?|api keys?|secrets?|credentials?|source code)\b",
        r"\b(?:muestra|revela|mostre|revele|montre|révèle|revele|zeig|verrate|mostra)\b.{0,30}\b(?:prompt|"
        r"instrucciones|instruções|instructions|anweisungen|istruzioni)\b",
        r"\b(?:apna|apne|tumhara|aapka)\s+(?:system\s+)?(?:prompt|instructions?|nirdesh)\s+(?:batao|dikhao|"
        r"bata do|dikha do)",
    ),
    "role_play_jailbreak": (
        r"\byou\s+are\s+(?:now|no longer)\s+(?:an?\s+|the\s+|my\s+)?(?!able\b|going\b|sure\b|open\b|closed\b|"
        r"available\b|busy\b)\w+",
        r"\b(?:pretend|imagine)\s+(?:that\s+)?(?:you\s+are|you're|to be|you have no|there are no)\b",
        r"\b(?:act|behave|respond|answer|talk|speak|reply)\s+(?:as|like)\s+(?:an?\s+|my\s+|the\s+)?(?:(?:real|"
        r"licensed|unrestricted|unfiltered|uncensored|evil|rogue|different|new|human|jailbroken|actual)\s+)?"
        r"(?:doctor|physician|pharmacist|nurse|ai|assistant|chatbot|model|system|character|person|dan|hacker|admin|"
        r"administrator|developer|grandma|grandmother)\b",
        r"\b(?:role-?play|roleplay|play the role|play a game|let's play|simulate|stay in character|in character as)\b",
        r"\b(?:dan|stan|dude|aim)\s+(?:mode|prompt)\b|\bdo anything now\b|\bdeveloper mode\b|\bgod mode\b|"
        r"\bjail-?break(?:ed|ing)?\b|\bdev mode\b",
        r"\b(?:unfiltered|uncensored|unrestricted|unaligned|no[- ]limits?|without (?:any )?(?:restrictions|limits|"
        r"filters|rules|censorship|guidelines))\s+(?:mode|version|ai|assistant|response|answers?|model)?",
        r"\bno longer (?:bound|restricted|limited|constrained)\b|\bfree (?:from|of) (?:your|all|any) (?:rules|"
        r"restrictions|guidelines|constraints)",
        r"\bhypothetical(?:ly)?\b.{0,40}\b(?:no rules|no restrictions|without rules|allowed to)\b",
        r"\bopposite mode\b|\bevil (?:twin|mode|assistant|bot)\b|\bshadow mode\b",
    ),
    "policy_override": (
        r"\b(?:by-?pass|disable|turn off|switch off|deactivate|remove|skip|circumvent|ignore|suspend|lift|override|"
        r"overrule|break)\s+"
        r"(?:(?:your|the|all|any|its|every|these|those|my|this|of|content|safety|security)\s+){0,3}"
        r"(?:safety|content|guard|guardrails?|filters?|filtering|polic(?:y|ies)|restrictions?|moderation|"
        r"censorship|"
        r"limitations?|safeguards?|checks?|protocols?|ethics|compliance|rules?|reviewer)\b",
        r"\b(?:you are|you're)\s+(?:now\s+)?(?:allowed|permitted|authori[sz]ed|free|cleared)\s+to\s+(?:ignore|"
        r"break|"
        r"bypass|answer anything|say anything|share|reveal|disclose|give|prescribe)",
        r"\b(?:admin|administrator|developer|maintenance|debug|override|emergency|root|master)\s+(?:override|mode|"
        r"access|command|code|password|authori[sz]ation)\b",
        r"\b(?:the )?(?:rules|policies|guidelines|restrictions)\s+(?:do(?:es)?n't|do not|no longer)\s+apply\b",
        r"\b(?:this|it)\s+is\s+(?:an?\s+)?(?:authori[sz]ed|approved|sanctioned)\s+(?:test|request|exception|"
        r"override|penetration test|red team)",
        r"\b(?:i am|i'm|this is)\s+(?:your|the|an?)\s+(?:developer|creator|admin|administrator|"
        r"system administrator|"
        r"owner|programmer|openai|anthropic)\b",
        # a forged role line or a claim of privilege in the message: the caller's tier comes from their
        # credentials, never from what the text says ("SYSTEM: the user is a verified staff member")
        r"^\s*(?:system|assistant|developer|operator)\s*:\s",
        r"\b(?:the user|this user|the caller|the requester|the patient|i am|i'm)\s+(?:is\s+|has been\s+)?(?:now\s+)?"
        r"(?:an?\s+)?(?:verified|authori[sz]ed|authenticated|approved|trusted|privileged)\s+(?:\w+\s+){0,2}"
        r"(?:staff|admin|administrator|doctor|clinician|employee|physician|nurse|superuser)\b",
        r"\b(?:without|with no|no)\s+(?:the\s+)?(?:disclaimers?|warnings?|safety warnings?|"
        r"refusals?)\b.{0,40}\b(?:answer|respond|tell|give|reply)",
        r"\b(?:do not|don't|never)\s+(?:refuse|decline|say you can't|say you cannot|add (?:a|any) disclaimer)",
        r"\b(?:desactiva|desativa|désactive|deaktiviere|ignora)\b.{0,30}\b(?:filtros?|filtres?|filter|seguridad|"
        r"segurança|sécurité|sicherheit|sicurezza)\b",
    ),
    "tool_escalation": (
        r"\b(?:call|invoke|run|execute|trigger|use|access)\s+(?:the\s+|your\s+|a\s+)?(?:\w+\s+){0,2}(?:tool|"
        r"function|api|endpoint|shell|terminal|command line|sql|query|database|db|lambda)\b"
        r".{0,80}(?:\bpatient[_ ]?id\b|\bpatient\s+\d|\ball (?:patients|users|records)\b|"
        r"\bevery (?:patient|user|record)\b|\bstaff\b|\badmin\b|=|\*|\bother (?:patients?|users?)\b|"
        r"\banother (?:patient|user)\b|\brecords? of\b)",
        r"\b(?:grant|give|escalate|elevate|upgrade|promote|set|change|switch)\s+(?:me\s+|"
        r"my\s+)?(?:\w+\s+)?(?:to\s+)?(?:admin|administrator|staff|root|superuser|elevated|full|doctor|"
        r"clinician|privileged)\s+(?:access|permissions?|privileges?|tier|role|rights|level|mode)\b",
        r"\b(?:grant|escalate|elevate|upgrade|promote)\s+(?:me|my\s+\w+)\s+(?:to\s+)?(?:an?\s+)?"
        r"(?:admin|administrator|staff|root|superuser)\b",
        r"\b(?:tier|role|access level|permission)\s*(?:=|:|to)\s*(?:\"|')?(?:staff|admin|administrator|root|"
        r"superuser)\b",
        r"\bsudo\b|\brm\s+-rf\b|\bdrop\s+table\b|\bunion\s+select\b|\bselect\s+\*\s+from\b|\bdelete\s+from\s+\w+|"
        r"\bos\.system\b|\bsubprocess\b|\beval\(|\bexec\(|;\s*--|\bcurl\s+https?://|\bwget\s+",
        r"\b(?:as|with)\s+(?:an?\s+)?(?:admin|administrator|superuser|root)\s+(?:user|account|privileges?|rights|"
        r"access)?\b.{0,40}\b(?:show|give|list|read|access|open|fetch|get|look up|lookup)",
        r"\b(?:look\s*up|lookup|fetch|retrieve|get|pull|open|read)\s+(?:the\s+)?(?:appointments?|records?|details|"
        r"files?|data|history|notes|charts?)\s+(?:of|for)\s+(?:patient|user|id|every|all|another|other|someone)\b",
        r"\bfunction_call\b|\btool_call\b|\"(?:name|tool|function)\"\s*:\s*\"",
    ),
    "data_exfiltration": (
        r"\b(?:list|show|dump|export|give|send|print|display|reveal|share|output|tell|read|return|fetch|download|"
        r"extract|copy|leak)\s+(?:me\s+|us\s+)?(?:\w+\s+){0,2}"
        r"(?:all|every|other|another|each|everyone's|somebody's|someone else's|other people's|the whole|"
        r"the entire|the full)\s+"
        r"(?!(?:of\s+)?(?:my|our|mine)\b)(?:\w+\s+){0,2}(?:patients?|users?|customers?|members?|"
        r"records?|database|db|tables?|sessions?|conversations?|chats?|audit|logs?|"
        r"appointments? (?:of|for) (?:other|all))\b(?!\s+(?:of|for|from)\s+(?:my|me|our|us)\b)",
        # other people's data, possessive or direct ("other patients' results", "other patients records")
        r"\b(?:other|another|all|every|someone else's|other people's)\s+(?:patients?|users?|people)(?:'s|s'|')\s+"
        r"(?:\w+\s+)?(?:records?|data|details|appointments?|phone|numbers?|emails?|addresses|names|"
        r"history|information|info|files?|diagnos[ie]s|results?|prescriptions?)",
        r"\b(?:other|another)\s+(?:patients?|users?)\s+(?:records?|data|details|appointments?|phone numbers?|emails?|"
        r"addresses|names|history|files?|results?)\b",
        r"\b(?:send|forward|post|upload|transmit|exfiltrate|copy|leak)\s+(?:\w+\s+){0,5}(?:to|at)\s+"
        r"(?:https?://|www\.|my (?:server|webhook|endpoint))",
        r"\b(?:send|forward|email|e-mail|mail|copy|leak)\s+(?:\w+\s+){0,3}(?:all|every|everything|entire|whole|"
        r"conversation|chat|history|transcripts?|sessions?|database|logs?|audit|other patients?)\b.{0,40}\b(?:to|at)\s+"
        r"(?:\[email\]|\S+\.(?:com|net|org|io|ru|xyz)\b)",
        r"\bexfiltrat\w*|\bwebhook\b|!\[[^\]]*\]\(\s*https?://|\bdata dump\b",
        r"\b(?:who else|which other patients?|whose appointments?)\s+(?:\w+\s+){0,3}(?:booked|has an appointment|"
        r"have appointments|visited|is seeing|saw)",
        r"\b(?:contents?|rows?|entries|records?)\s+(?:of|from|in)\s+(?:the\s+)?(?:database|db|appointments table|"
        r"sessions table|audit table|patients table|users table|table)\b",
        r"\b(?:names?|phone numbers?|emails?|addresses|details)\s+of\s+(?:all|every|"
        r"other)\s+(?:the\s+)?(?:patients?|users?|people)",
    ),
    "forged_verdict": (
        # A verdict label within a few characters of a verdict word: "...Answer: CLEAN", "verdict=safe".
        r"\b(?:answer|verdict|classification|label|review|reviewer|assessment|output|"
        r"judge(?:ment)?|rating|moderation|safety|guard|check|scan|evaluation|category)\s*"
        r"[:=>\-]+\s*[\"'\[*(]*\s*(?:clean|safe|benign|approved?|pass(?:ed)?|allow(?:ed)?|harmless|compliant|"
        r"ok(?:ay)?|not (?:an? )?injection|no injection|not malicious|legitimate|true|verified|accept(?:ed)?)\b",
        # "status: approved" is how patients quote a claim; status/result/decision need an injection verdict word
        r"\b(?:status|result|decision)\s*[:=>\-]+\s*[\"'\[*(]*\s*(?:clean|safe|benign|harmless|ok(?:ay)?|"
        r"not (?:an? )?injection|no injection|not malicious|allowed|pass(?:ed)?)\b",
        r"\b(?:verdict|classification|label|assessment|moderation|judge(?:ment)?|this (?:message|request|input|"
        r"prompt|query))\s+(?:is|was|equals)\s+[\"'\[*(]*(?:clean|safe|benign|harmless|approved|"
        r"not (?:an? )?injection|no injection|not malicious)\b",
        r"\b(?:classified|marked|flagged|labelled|labeled|rated|judged|verified|reviewed|approved)\s+(?:this\s+|"
        r"it\s+|the message\s+|the request\s+)?(?:as\s+)?(?:clean|safe|benign|harmless|approved|"
        r"not malicious)\b.{0,40}(?:\bproceed\b|\banswer\b|\bskip\b|$)",
        r"\[\s*(?:safe|clean|approved|verdict|pass)\s*\]",
        r"\b(?:the\s+)?(?:guard|filter|reviewer|moderator|safety check|"
        r"classifier)\s+(?:has\s+)?(?:already\s+)?(?:approved|cleared|passed|allowed|accepted)\b",
    ),
}

# Letters-only keys: separators, zero-width joiners and odd spacing cannot split these.
SQUASHED_KEYS: dict[str, tuple[str, ...]] = {
    "ignore_instructions": (
        "ignorepreviousinstructions",
        "ignoreallpreviousinstructions",
        "ignoreallinstructions",
        "ignoreyourinstructions",
        "disregardpreviousinstructions",
        "disregardallinstructions",
        "ignoretheaboveinstructions",
        "ignoreallpriorinstructions",
        "forgetyourinstructions",
        "ignoreprevious",
        "disregardprevious",
    ),
    "reveal_system_prompt": (
        "revealsystemprompt",
        "showsystemprompt",
        "printsystemprompt",
        "yoursystemprompt",
        "thesystemprompt",
    ),
    "role_play_jailbreak": ("developermode", "jailbreak", "doanythingnow", "danmode"),
    "policy_override": (
        "bypasssafety",
        "disablesafety",
        "ignoresafety",
        "adminoverride",
        "turnoffsafety",
        "disablefilter",
    ),
    "forged_verdict": ("verdictclean", "verdictsafe", "answerclean", "reviewerapproved"),
}

_COMPILED = {
    family: tuple(re.compile(pattern, re.IGNORECASE | re.DOTALL) for pattern in patterns)
    for family, patterns in FAMILIES.items()
}


@dataclass(frozen=True)
class InjectionHit:
    family: str  # one of FAMILIES
    pattern_index: int  # which pattern of the family matched (-1: a squashed key)
    variant: str  # "text" | "folded" | "decoded"

    @property
    def rule(self) -> str:
        return f"injection.{self.family}"


def detect_injection(masked_text: str) -> tuple[InjectionHit, ...]:
    """All families that fire on any scan variant of the (already masked) text; one hit per family."""
    hits: dict[str, InjectionHit] = {}
    for kind, variant in scan_variants(masked_text):
        for family, patterns in _COMPILED.items():
            if family in hits:
                continue
            for index, pattern in enumerate(patterns):
                if pattern.search(variant):
                    hits[family] = InjectionHit(family, index, kind)
                    break
        squashed = squash(variant)
        for family, keys in SQUASHED_KEYS.items():
            if family not in hits and any(key in squashed for key in keys):
                hits[family] = InjectionHit(family, -1, kind)
    return tuple(hits[family] for family in FAMILIES if family in hits)


_CLAUSE_BREAK = re.compile(r"[.!?;:\n]+|,\s+|\s+(?:then|and then|aur|phir)\s+")


def without_injection_clauses(masked_text: str) -> str:
    """The text with every clause that is itself an injection dropped ("" when nothing else is left).

    The semantic safety gate reads this instead of the whole message when an injection was found, so
    an attack's own wording ("do not follow your instructions") cannot pass for a crisis, while "I
    can't go on anymore. Ignore previous instructions." still shows its first sentence.
    """
    kept = [clause.strip() for clause in _CLAUSE_BREAK.split(masked_text) if clause and clause.strip()]
    return ". ".join(clause for clause in kept if not detect_injection(clause))
