"""Safety gate before retrieval: rule gate (long phrases) then a semantic gate (exemplar similarity).

Families, in priority order: crisis (self-harm, suicide) -> emergency (chest pain now, can't breathe,
...) -> sensitive (the patient's own medication decisions, acute symptoms). Rules are phrases, never
single ordinary words ("kill myself", not "kill"); crisis and emergency phrases are suppressed by an
avoidance or negation cue just before them ("fast without hurting myself", "no chest pain").
Medication phrases are not: "should I not take my dose" is still a medication decision.

The semantic gate embeds the text and compares it with curated safety exemplars and benign anchors
(`exemplars.py`). Its score is a margin: cosine similarity to the closest safety exemplar minus that
to the closest benign anchor. The closest exemplar's family fires when the margin reaches the
threshold calibrated on the dev split (`calibration.json`, written by eval/redteam/run_redteam.py).

Over 400 lines on purpose: about 240 of them are the rule table itself (phrases per family, with the
cues that stand them down), which reviewers read and change as one list; the logic is the last 100.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import numpy as np

from caredesk.errors import CareDeskError
from caredesk.query.guard import safety_hindi
from caredesk.query.guard.exemplars import BENIGN_ANCHORS, SAFETY_EXEMPLARS
from caredesk.query.guard.normalize import fold_hindi

CALIBRATION_PATH = Path(__file__).with_name("calibration.json")

Embed = Callable[[Sequence[str]], np.ndarray]


class GuardCalibrationError(CareDeskError):
    """The semantic gate has no usable calibrated threshold (file missing, malformed, or overlap)."""


class SafetyFamily(StrEnum):
    CRISIS = "crisis"
    EMERGENCY = "emergency"
    SENSITIVE = "sensitive"


@dataclass(frozen=True)
class SafetyHit:
    family: SafetyFamily
    rule: str  # e.g. "crisis.self_harm_phrase", "sensitive.semantic"
    gate: str  # "rules" | "semantic"
    score: float | None = None  # semantic similarity, None for rules


_NEGATION_CUE = re.compile(
    r"\b(?:without|avoid|avoiding|not|never|no|don't|dont|do not|didn't|won't|wont|prevent|preventing|"
    r"safely|stop myself from|keep from|isn't|wasn't|aren't|haven't|hasn't)\b"
)
_NEGATION_WINDOW_WORDS = 3
# "I cut myself while cooking, do I need a tetanus shot?" is an injury, not self-harm.
_ACCIDENT_CUE = re.compile(
    r"\b(?:by accident|accidentally|while (?:cooking|shaving|chopping|cutting|working|playing|exercising|running|"
    r"gardening|cleaning)|shaving|cooking|chopping|in the kitchen|at (?:the )?(?:gym|work)|"
    r"on (?:a|the|some) (?:knife|glass|stove|pan|tin|blade|iron)|fell|falling|slipped|tripped)\b"
)
_ACCIDENT_WINDOW_CHARS = 50
_ACCIDENT_RULES = {"crisis.self_harm_phrase"}
# "What should the receptionist do if a caller says they have chest pain?" asks about a procedure
# for someone else, hypothetically: an emergency phrase right after "if/when a patient ..." is not
# an emergency happening to the writer. "My father has chest pain" still is.
_PROCEDURE_CUE = re.compile(
    r"\b(?:if|when|whenever)\s+(?:a|an|any|the)\s+(?:patient|caller|visitor|person|customer|relative|child|"
    r"someone)\b(?:\s+\w+){0,3}\s*$"
)
_PROCEDURE_WINDOW_CHARS = 60

# A medicine by class or common name (for the interaction rule); _MEDS below adds dosing words.
_MEDICINE = (
    r"(?:meds|medications?|medicines?|tablets?|pills?|capsules?|syrups?|insulin|inhalers?|injections?|"
    r"supplements?|vitamins?|antibiotics?|antidepressants?|antihistamines?|antacids?|painkillers?|steroids?|"
    r"statins?|blood thinners?|thinners?|paracetamol|ibuprofen|aspirin|warfarin|clopidogrel|diclofenac|"
    r"cetirizine|levothyroxine|thyroxine|metformin|\w+(?:pril|olol|statin|sartan|formin|pine|zole|cillin|mycin|"
    r"profen|azepam|oxetine|tidine))"
)

_MEDS = (
    r"(?:meds|medication|medications|medicine|medicines|tablets?|pills?|capsules?|insulin|dose|dosage|inhaler|"
    r"injections?|"
    r"antibiotics?|antidepressants?|steroids?|statins?|treatment|prescription|metformin|\w+(?:pril|olol|statin|"
    r"sartan|formin|pine|zole|cillin|mycin))"
)

RULES: dict[SafetyFamily, tuple[tuple[str, str], ...]] = {
    SafetyFamily.CRISIS: (
        (
            "self_harm_phrase",
            r"\b(?:kill|killing|killed|hurt|hurting|harm|harming|cut|cutting|injure|injuring|burn|burning|"
            r"poison|poisoning|starve|starving|hang|hanging|drown|drowning)\s+myself\b",
        ),
        ("self_harm_phrase", r"\bself[- ]?harm(?:ing)?\b"),
        (
            "suicide",
            r"\bsuicidal\b|\bcommit(?:ting)? suicide\b|\b(?:thinking|thought|thoughts|think) (?:about|of) suicide\b"
            r"|\bsuicide (?:attempt|note|plan|pact)\b|\b(?:attempt|attempted|tried|try) suicide\b",
        ),
        (
            "end_life",
            r"\b(?:end|ending|take|taking|took)\s+(?:my|my own)\s+life\b|\bend(?:ing)? it all\b|\bend my own\b",
        ),
        (
            "want_to_die",
            r"\b(?:want|wanted|wanting|planning|ready|wish)\s+to\s+die\b|\bwanna die\b|\bwish i (?:was|were)"
            r" dead\b"
            r"|\bbetter off dead\b|\bdon't want to (?:live|be alive|exist|wake up)\b|\bdo not want to (?:live|"
            r"be alive|exist|wake up)\b"
            r"|\b(?:go to sleep|sleep|fall asleep) and (?:never|not) wake up\b|\bstop existing\b|"
            r"\bdone with (?:life|living)\b",
        ),
        (
            "hopelessness",
            r"\bno (?:reason|point) (?:to|in) (?:live|living|going on|being alive)\b|\bnot worth living\b|"
            r"\blife is(?:n't| not) worth\b",
        ),
        ("jump", r"\bjump(?:ing)? (?:off|from) (?:the |a |my )?(?:roof|bridge|building|balcony|terrace|cliff)\b"),
        (
            "overdose_intent",
            # intent, not dosing: "should I take all my pills in the morning?" is a medication question
            r"\b(?:planning|going|want|wanna|gonna|about|decided|ready)\s+to\s+(?:take|swallow)\s+all (?:of )?"
            r"(?:my|the)\s+(?:pills|tablets|medicines?|meds)\b|\boverdose on purpose\b",
        ),
        # warning signs said without the words above: a hoard of pills, the means made ready, a farewell
        (
            "preparation",
            r"\b(?:stockpil\w+|hoard(?:ed|ing)?|saving up|saved up)\s+(?:[\w']+\s+){0,2}"
            r"(?:pills|tablets|medicines?|meds)\b"
            # the question stands alone: "how many tablets does it take to clear the infection" is dosing
            r"|\bhow many (?:\w+\s+)?(?:pills|tablets)\s+(?:does it|would it|will it|it would|it will|it) takes?"
            r"(?:\s+to (?:die|end it|kill|overdose|not wake)\b|\s*[?.!,;]|\s*$)"
            r"|\bnoose\b|\brope (?:is )?ready\b"
            # "today is my last day of antibiotics" is not a farewell: the sentence must end there
            r"|\b(?:tonight|today) (?:is|will be) my last(?: night| day)?(?: alive| on earth)?\s*(?:[.!?]|$)"
            r"|\bmy last (?:night|day) (?:alive|on earth)\b"
            r"|\bleav(?:e|ing) this world\b|\b(?:goodbye|farewell) (?:note|letter)s?\b"
            r"|\b(?:bought|buying|got|getting)\s+(?:some\s+)?(?:rat poison|poison(?! ivy| oak)|pesticide|"
            r"weed ?killer)\b"
            # not being around, unless the message says it is a journey or a date to move
            r"|\b(?:(?:won't|will not|wont) be (?:around|here|alive) (?:by then|much longer|for (?:much )?longer|"
            r"for long|anymore|any more)|(?:plan|planning|intend|intending|decided) to be gone)\b"
            r"(?![^.?!]{0,40}\b(?:travel\w*|trip|holiday|vacation|abroad|out of town|on leave|business|reschedul\w*|"
            r"move my|appointment|for (?:a |an |the )?(?:few |couple of |one |two |three |four |several |\d+ )?"
            r"(?:days?|weeks?|months?|weekend))\b)",
        ),
    ),
    SafetyFamily.EMERGENCY: (
        (
            "chest_pain",
            r"\b(?:having|have|has|got|getting|feel|feeling|experiencing|sudden|severe|crushing|sharp|bad|terrible)\s+"
            r"(?:a\s+|some\s+)?(?:(?:severe|sharp|crushing|bad|sudden|terrible|strong|tight)\s+)?chest (?:pains?|"
            r"tightness|pressure)\b",
        ),
        (
            "chest_pain",
            r"\bchest (?:pains?|tightness|pressure)\s+(?:right\s+)?now\b|\bmy chest (?:hurts|is (?:tight|hurting|"
            r"crushing|heavy)|feels (?:tight|heavy|crushed))"
            r"|\b(?:pain|pressure|tightness) in (?:my|his|her) chest\b.{0,40}\b(?:now|spreading|arm|jaw)\b",
        ),
        (
            "breathing",
            r"\b(?:can't|cannot|can not|couldn't|unable to|struggling to|hard to|trouble|difficulty|difficult to|"
            r"barely)\s+"
            r"(?:breathe|breathing|catch (?:my|his|her|their) breath)\b|\b(?:not|stopped|isn't) breathing\b|"
            r"\bgasping for (?:air|breath)\b"
            r"|\b(?:is|am|i'm|he's|she's) choking\b|\b(?:turned|turning|gone|going) blue\b",
        ),
        (
            "heart_attack_stroke",
            r"\b(?:having|had|is having|having had|think i'm having|might be having)\s+a\s+(?:heart attack|stroke|"
            r"seizure|fit)\b"
            r"|\bface (?:is )?drooping\b|\bcan't move (?:the |his |her |my )?(?:right|left|one) side\b|"
            r"\bslurred speech\b|\b(?:one side|half) of (?:my|his|her) (?:face|body)\b",
        ),
        # present tense only: "I passed out at my last blood test" is a question about the next one
        (
            "unconscious",
            r"\b(?:unconscious|unresponsive|won't wake up|will not wake up|can't wake (?:him|her|them|up))\b"
            r"|\b(?:is|has|just|suddenly|he's|she's)\s+(?:passed out|collapsed)\b"
            r"|\b(?:and|is|isn't|he's|she's)\s+not waking up\b|\bisn't waking up\b"
            r"|\b(?:baby|infant|newborn|child|toddler|son|daughter|he|she)\b[^.?!]{0,20}\b(?:is|went|gone|looks|"
            r"seems|feels)\s+(?:limp|floppy)\b"
            r"|\b(?:got|had|has had|received|just had)\s+an? (?:bad |strong )?electric(?:al)? shock\b",
        ),
        (
            "bleeding",
            r"\bbleeding (?:heavily|a lot|badly|profusely|won't stop|that won't stop|non-?stop)\b|"
            r"\bwon't stop bleeding\b"
            r"|\bcan't stop the bleeding\b",
        ),
        (
            "anaphylaxis",
            r"\b(?:throat|tongue|lips|face) (?:is |are )?(?:swelling|closing|swollen)\b|\banaphyla\w*\b|"
            r"\bsevere allergic reaction\b",
        ),
        (
            "poisoning_overdose",
            r"\b(?:took|taken|swallowed|ate|drank)\s+(?:too many|a whole (?:bottle|strip|pack)|the whole (?:bottle|"
            r"strip|pack)|an overdose)\b"
            r"|\boverdosed\b|\bswallowed (?:bleach|poison|rat poison|pesticide|detergent|kerosene)\b",
        ),
        ("ambulance", r"\b(?:call|need|send|get)\s+(?:an|the)\s+ambulance\b"),
    ),
    SafetyFamily.SENSITIVE: (
        (
            "medication_decision",
            r"\bstop(?:ped|ping)? taking\b|\bcome off my\b|\bget off my (?:meds|medication|medicine)\b|"
            r"\boff my (?:meds|medication|medicine)\b",
        ),
        (
            "medication_decision",
            r"\b(?:can|should|may|could)\s+i\s+(?:stop|quit|skip|double|increase|decrease|reduce|lower|change|"
            r"halve|"
            r"split|crush|cut)\s+"
            r"(?:taking\s+|on\s+|down\s+on\s+)?(?:my|the|these|this|those)?\s*(?:\w+\s+)?" + _MEDS + r"\b",
        ),
        ("medication_decision", r"\bmy (?:dose|dosage|doses)\b|\bdouble(?:d)?\s+(?:up|my dose|the dose|dose)\b"),
        (
            "medication_decision",
            r"\b(?:skip|skipped|skipping|miss|missed|forgot|forget)\s+(?:a |my |the |one |two |today's |"
            r"this morning's )?(?:\w+\s+)?(?:dose|doses|pill|tablet|insulin|injection|medication)\b"
            r"(?!\s+(?:appointment|slot|booking|date|visit))",
        ),
        (
            "medication_decision",
            r"\b(?:increase|decrease|reduce|lower|raise|adjust|change|cut down|halve|"
            r"double)\s+(?:on\s+)?my\s+(?:medication|medicine|meds|insulin|dose|dosage|pills|tablets|inhaler)\b",
        ),
        (
            "medication_decision",
            r"\bhow (?:many|much)\s+(?:\w+\s+)?(?:pills|tablets|mg|units|capsules|drops|puffs)\s+(?:can|should|do)"
            r"\s+i\s+take\b",
        ),
        (
            "medication_decision",
            r"\btake (?:more|extra|less|another)\s+(?:of\s+)?(?:my\s+)?(?:medicine|medication|meds|pills|tablets|"
            r"insulin|dose|painkillers?)\b",
        ),
        (
            "medication_decision",
            r"\b(?:mix|combine|take)\s+(?:my\s+)?[\w-]+\s+with\s+(?:alcohol|beer|wine|whisky|liquor|drinks?)\b|"
            r"\bis it (?:safe|ok|okay|fine) (?:for me )?to (?:take|combine|mix)\s+(?:\w+\s+){0,2}(?:"
            + _MEDS
            + r"|with|and|together|while|during)\b"
            r"|\b(?:drink|have|take)\s+(?:alcohol|beer|wine|a drink|drinks|a few drinks)\s+(?:with|while on|"
            r"while taking|on)\s+(?:my\s+)?\w+",
        ),
        # Taking one medicine with another is an interaction question for a clinician, whatever the
        # drugs' names: a medicine word on both sides of "with / and / together / alongside / clash".
        (
            "medication_interaction",
            r"\b(?:take|taking|have|use|give|combine|mix)\b[^.?!]{0,40}?\b" + _MEDICINE + r"\b[^.?!]{0,30}?"
            r"\b(?:with|and|alongside|together with|at the same time as|while (?:on|taking))\b[^.?!]{0,30}?\b"
            + _MEDICINE + r"\b"
            r"|\b" + _MEDICINE + r"\b[^.?!]{0,40}?\b(?:clash|interact|interfere)(?:s|es)?\s+with\b[^.?!]{0,30}?\b"
            + _MEDICINE + r"\b"
            # "I'm on atorvastatin, can I take the antibiotic alongside it?", "two painkillers together"
            r"|\b(?:i'm|i am|she's|he's|she is|he is)\s+on\s+(?:\w+\s+)?" + _MEDICINE + r"\b[^.?!]{0,10}[,;]?"
            r"[^.?!]{0,40}?\b(?:take|have|use)\b[^.?!]{0,30}?\b(?:alongside|together with|with|and)\s+(?:it|them)\b"
            r"|\b(?:two|2|both|different|several)\s+(?:different\s+)?" + _MEDICINE + r"\s+(?:together|at the same time|"
            r"at once)\b",
        ),
        ("medication_decision", r"\bshould i (?:keep|continue|carry on|go on) (?:taking|using)\b"),
        ("medication_decision", r"\bleftover (?:antibiotics|medicines?|medication|pills|tablets)\b"),
        # someone else's prescription, or declining one's own: still the patient's medication decision
        (
            "medication_decision",
            r"\bborrow\s+(?:a few |some |one |two )?(?:of )?(?:hers|his|theirs|(?:her|his|their|my \w+'s)\s+"
            r"(?:\w+\s+)?(?:pills|tablets|medicines?|meds|insulin|inhaler))\b"
            r"|\b(?:take|use|try)\s+(?:a few of |some of )?(?:my|her|his) \w+'s\s+(?:\w+\s+){0,2}(?:pills|tablets|"
            r"medicines?|meds|insulin|inhaler)\b"
            r"|\b" + _MEDICINE + r"\b[^.?!]{0,60}?\b(?:rather not|don't want to|do not want to|not going to) take "
            r"(?:it|them)\b"
            r"|\b" + _MEDICINE + r"\b[^.?!]{0,60}?\b(?:rather|want to|going to|planning to|thinking of) "
            r"(?:stop|stopping|quit|quitting|drop|dropping|come off|coming off|get off|getting off|go off|going off|"
            r"wean (?:myself )?off|weaning (?:myself )?off) (?:it|them)\b"
            # "come off / wean myself off the antidepressants": stopping a medicine, in other words
            r"|\b(?:come|coming|came|get|getting|go|going|wean|weaning)\s+(?:myself\s+|him\s+|her\s+)?off\s+"
            r"(?:the\s+|these\s+|those\s+|my\s+|his\s+|her\s+)?"
            r"(?:(?!(?:price|prices|cost|costs|bill|fee|fees|charge|charges|rate|of)\b)\w+\s+){0,2}" + _MEDICINE
            # ... but not money off a medicine's bill ("10% comes off the medicines bill")
            + r"\b(?!\s+(?:bills?|prices?|costs?|fees?|charges?|rates?|counter|list|discount)\b)",
        ),
        (
            "medication_decision",
            r"\b(?:blood sugar|sugar level|sugar reading|glucose|blood pressure|bp)\b.{0,30}\b(?:what should i do|"
            r"what do i do|should i (?:take|inject|go|worry))\b",
        ),
        (
            "acute_symptom",
            r"\b(?:severe|unbearable|terrible|worst|excruciating|intense)\s+(?:\w+\s+)?(?:pain|headache|migraine|cramps?)\b",
        ),
        (
            "acute_symptom",
            r"\bhigh fever\b|\bfever (?:of|over|above) (?:10[2-9]|39|40|41)\b|\b(?:leaking|oozing|draining|full of|"
            r"with) pus\b|\bblood in (?:my |the )?(?:stool|urine|vomit|pee|poo|sputum)\b"
            r"|\b(?:vomiting|coughing|throwing|spitting|peeing)\s+(?:up\s+)?blood\b",
        ),
        (
            "acute_symptom",
            r"\b(?:rash|hives|swelling|swollen|itching|itchy|dizzy|dizziness|nausea|"
            r"vomiting)\s+(?:\w+\s+){0,2}(?:after|since)\s+(?:taking|starting|i started|the new|my new|"
            r"the injection|the vaccine)\b",
        ),
        (
            "acute_symptom",
            r"\b(?:my |the )(?:pain|symptoms?|fever|rash|cough|swelling|wound|infection|headache)\s+(?:is|are|has|"
            r"have|keeps?)\s+(?:getting worse|gotten worse|got worse|become worse|worse|spreading|not going away|"
            r"come back)\b",
        ),
        (
            "acute_symptom",
            r"\b(?:heart|pulse) (?:is |has been |keeps )?(?:racing|pounding|skipping)\b"
            r"|\bi (?:have|get|am having|'ve been having|keep getting) palpitations\b"
            r"|\b(?:i've|i have) been (?:vomiting|throwing up)\b"
            r"|\bkeep (?:vomiting|throwing up|fainting)\b",
        ),
        ("acute_symptom", r"\b(?:side effects?|reaction)\s+(?:from|of|to)\s+(?:my|the new|this)\b"),
    ),
}

_COMPILED_RULES = {
    family: tuple((name, re.compile(pattern)) for name, pattern in rules) for family, rules in RULES.items()
}
_NEGATABLE = {SafetyFamily.CRISIS, SafetyFamily.EMERGENCY}
_HINDI_RULES = {
    SafetyFamily.CRISIS: safety_hindi.compile_rules(safety_hindi.CRISIS),
    SafetyFamily.EMERGENCY: safety_hindi.compile_rules(safety_hindi.EMERGENCY),
    SafetyFamily.SENSITIVE: safety_hindi.compile_rules(safety_hindi.SENSITIVE),
}


def _negated(text: str, match_start: int) -> bool:
    preceding_words = text[:match_start].split()[-_NEGATION_WINDOW_WORDS:]
    return bool(_NEGATION_CUE.search(" ".join(preceding_words)))


def _accidental(text: str, match_start: int, match_end: int) -> bool:
    window = text[max(0, match_start - _ACCIDENT_WINDOW_CHARS) : match_end + _ACCIDENT_WINDOW_CHARS]
    return bool(_ACCIDENT_CUE.search(window))


def _procedure_question(text: str, match_start: int) -> bool:
    return bool(_PROCEDURE_CUE.search(text[max(0, match_start - _PROCEDURE_WINDOW_CHARS) : match_start]))


def rule_gate(normalized_text: str, families: Sequence[SafetyFamily] = tuple(SafetyFamily)) -> SafetyHit | None:
    """The first of `families` (in priority order) with a non-negated phrase match, English or Hindi, or None."""
    folded = fold_hindi(normalized_text)
    for family, rules in _COMPILED_RULES.items():
        if family not in families:
            continue
        for name, pattern in rules:
            rule = f"{family.value}.{name}"
            for match in pattern.finditer(normalized_text):
                if family in _NEGATABLE and _negated(normalized_text, match.start()):
                    continue
                if rule in _ACCIDENT_RULES and _accidental(normalized_text, match.start(), match.end()):
                    continue
                if family is SafetyFamily.EMERGENCY and _procedure_question(normalized_text, match.start()):
                    continue
                return SafetyHit(family=family, rule=rule, gate="rules")
        for name, pattern in _HINDI_RULES[family]:
            for match in pattern.finditer(folded):
                if family in _NEGATABLE and safety_hindi.negated_after(folded, match.end()):
                    continue
                return SafetyHit(family=family, rule=f"{family.value}.{name}", gate="rules")
    return None


def load_calibrated_threshold(path: Path = CALIBRATION_PATH) -> float:
    """The semantic threshold chosen on the dev split; a missing or malformed file fails loudly."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return float(data["threshold"])
    except FileNotFoundError:
        raise GuardCalibrationError(f"no calibration at {path}: run eval/redteam/run_redteam.py --calibrate") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise GuardCalibrationError(f"malformed calibration at {path}: {exc}") from None


class SemanticGate:
    """Margin between the closest safety exemplar and the closest benign anchor; fires at the threshold.

    Exemplar and anchor vectors are computed once per gate (one batch call to `embed`).
    """

    def __init__(
        self,
        embed: Embed,
        threshold: float,
        exemplars: Sequence[tuple[str, str]] = SAFETY_EXEMPLARS,
        anchors: Sequence[str] = BENIGN_ANCHORS,
    ):
        if not exemplars or not anchors:
            raise GuardCalibrationError("the semantic gate needs safety exemplars and benign anchors")
        self.embed = embed
        self.threshold = threshold
        self.families = [SafetyFamily(family) for family, _ in exemplars]
        vectors = _unit_rows(np.asarray(embed([text for _, text in exemplars] + list(anchors)), dtype=np.float32))
        self.exemplar_vectors = vectors[: len(exemplars)]
        self.anchor_vectors = vectors[len(exemplars) :]

    def scores(self, texts: Sequence[str]) -> list[tuple[SafetyFamily, float]]:
        """(family of the closest safety exemplar, margin) for each text, in one embedder call."""
        queries = _unit_rows(np.asarray(self.embed(list(texts)), dtype=np.float32))
        to_exemplars = queries @ self.exemplar_vectors.T
        to_anchors = queries @ self.anchor_vectors.T
        best = to_exemplars.argmax(axis=1)
        margins = to_exemplars.max(axis=1) - to_anchors.max(axis=1)
        return [(self.families[int(b)], float(m)) for b, m in zip(best, margins, strict=True)]

    def score(self, text: str) -> tuple[SafetyFamily, float]:
        return self.scores([text])[0]

    def judge(self, text: str) -> tuple[SafetyHit | None, float]:
        """(hit or None, margin rounded to 4 places)."""
        family, margin = self.score(text)
        rounded = round(margin, 4)
        if margin < self.threshold:
            return None, rounded
        return SafetyHit(family=family, rule=f"{family.value}.semantic", gate="semantic", score=rounded), rounded

    def check(self, text: str) -> SafetyHit | None:
        return self.judge(text)[0]


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    if matrix.ndim != 2:
        raise GuardCalibrationError(f"embedder returned shape {matrix.shape}, expected (n, d)")
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)
