"""caredesk.embedding: shape, normalisation, determinism across batches, truncation, bad input,
thread defaults, the process-wide instance, no torch at run time; and the model build's no-op rule.

Uses the model built by `make model` at .cache/model (built here on first use if missing).
"""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from caredesk import embedding
from caredesk.config import reset_settings
from caredesk.embedding import EMBEDDING_DIM, MAX_TEXT_CHARS, MAX_TOKENS, Embedder, available_cpus, get_embedder
from caredesk.errors import EmbeddingError

REPO_ROOT = Path(__file__).resolve().parents[2]
MODEL_DIR = REPO_ROOT / ".cache" / "model"

VARIED_TEXTS = [
    "How do I cancel my appointment?",
    "hi",
    "Can I get a repeat prescription for my blood pressure tablets without seeing the doctor again?",
    "Le médecin est disponible à 14h — ça marche?",
    "予約は24時間前までにキャンセルしてください。",
    "I booked a visit 🙂 but the portal shows an error ❌",
    "  leading and trailing spaces  ",
    "a\x00b\x07c control characters inside",
    "refill " * 40,
    "The late cancellation fee applies when you cancel less than 24 hours before the visit. " * 4,
    "?",
    "Opening hours on public holidays",
]


def load_tool(name: str) -> ModuleType:
    """A build-time tool from tools/ (a package, like tools.write_asl in the ASL tests)."""
    return importlib.import_module(f"tools.{name}")


@pytest.fixture(scope="session")
def model_dir() -> Path:
    build_model = load_tool("build_model")
    if not build_model.is_up_to_date(MODEL_DIR):
        build_model.build(MODEL_DIR)  # needs torch (a build dependency); normally `make model` did it
    return MODEL_DIR


@pytest.fixture(scope="session")
def embedder(model_dir: Path) -> Embedder:
    return Embedder(model_dir, threads=2)


def test_dimension_constant_is_384():
    assert EMBEDDING_DIM == 384


def test_shape_dtype_and_unit_norm(embedder: Embedder):
    vectors = embedder.embed(VARIED_TEXTS)
    assert vectors.shape == (len(VARIED_TEXTS), EMBEDDING_DIM)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    one = embedder.embed_one("How do I cancel my appointment?")
    assert one.shape == (EMBEDDING_DIM,)
    assert one.dtype == np.float32


def test_output_order_follows_input_order(embedder: Embedder):
    # Batches are sorted by length internally; results must still come back in input order.
    vectors = embedder.embed(VARIED_TEXTS)
    for index, text in enumerate(VARIED_TEXTS):
        assert np.array_equal(vectors[index], embedder.embed_one(text)), text


def test_empty_sequence_gives_empty_matrix(embedder: Embedder):
    assert embedder.embed([]).shape == (0, EMBEDDING_DIM)


def test_vector_is_bitwise_independent_of_batch_composition(model_dir: Path, embedder: Embedder):
    """Same text, same bits: alone, in batches of other sizes and neighbours, in any order."""
    rng = random.Random(3)
    words = VARIED_TEXTS[0].split() + VARIED_TEXTS[2].split()
    texts = VARIED_TEXTS + [" ".join(rng.choices(words, k=rng.randint(1, 40))) for _ in range(12)]
    alone = Embedder(model_dir, threads=2, batch_size=1).embed(texts)
    for batch_size in (3, 64):
        # A token cap far above the default, so the 64 really share one onnxruntime call.
        batched = Embedder(model_dir, threads=2, batch_size=batch_size, max_batch_tokens=64 * 256)
        order = list(range(len(texts)))
        rng.shuffle(order)
        assert np.array_equal(batched.embed([texts[i] for i in order]), alone[order]), f"batch_size={batch_size}"
    # a short text padded to 256 positions next to a long one
    assert np.array_equal(embedder.embed([texts[0], "word " * 400])[0], alone[0])


def test_batches_respect_the_padded_token_cap_and_keep_input_order(model_dir: Path):
    embedder = Embedder(model_dir, threads=1, max_batch_tokens=MAX_TOKENS)
    texts = ["word " * 400, "a short question", "word " * 100, "another short question about parking"]
    token_ids = embedder._tokenize(texts)
    batches = embedder._batches(token_ids)
    assert sorted(index for batch in batches for index in batch) == list(range(len(texts)))
    for batch in batches:
        assert len(batch) * max(len(token_ids[i]) for i in batch) <= MAX_TOKENS
    assert np.array_equal(embedder.embed(texts), Embedder(model_dir, threads=1, batch_size=1).embed(texts))


def test_token_cap_below_one_full_text_is_rejected(model_dir: Path):
    with pytest.raises(EmbeddingError, match="max_batch_tokens"):
        Embedder(model_dir, max_batch_tokens=MAX_TOKENS - 1)


def test_vector_is_bitwise_independent_of_thread_count(model_dir: Path, embedder: Embedder):
    single = Embedder(model_dir, threads=1)
    assert np.array_equal(single.embed(VARIED_TEXTS), embedder.embed(VARIED_TEXTS))


def test_truncation_at_256_tokens(embedder: Embedder):
    # Each "clinic" is one token: [CLS] + 400 + [SEP] is well past 256.
    long_text = " ".join(["clinic"] * 400)
    assert len(embedder._tokenizer.encode(long_text).ids) == 256
    beyond_the_window = long_text + " cardiology dermatology paediatrics"
    assert np.array_equal(embedder.embed_one(long_text), embedder.embed_one(beyond_the_window))
    # ... while a change inside the window does change the vector
    inside_the_window = "cardiology " + long_text
    assert not np.array_equal(embedder.embed_one(long_text), embedder.embed_one(inside_the_window))


def test_huge_text_gets_the_vector_of_its_first_characters(embedder: Embedder):
    huge = "Appointments can be cancelled online. " * 100_000  # 3.8 million characters
    assert len(huge) > MAX_TEXT_CHARS
    vector = embedder.embed_one(huge)
    assert np.array_equal(vector, embedder.embed_one(huge[:MAX_TEXT_CHARS]))
    assert np.isfinite(vector).all()


def test_meaning_is_preserved(embedder: Embedder):
    query, paraphrase, unrelated = embedder.embed(
        ["How do I cancel my appointment?", "Cancelling a booked visit", "Parking garage opening times"]
    )
    assert float(query @ paraphrase) > float(query @ unrelated) + 0.2


@pytest.mark.parametrize("text", ["", " ", "\t\n  \r", "\x00\x01\x02", "\u200b\ufeff", "\ufffd"], ids=repr)
def test_text_without_content_is_rejected(embedder: Embedder, text: str):
    with pytest.raises(EmbeddingError, match="text #1 has no content"):
        embedder.embed(["fine", text])


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (b"caf\xe9", "bytes: decode it"),
        ("caf\udce9", "not valid Unicode"),
        (None, "NoneType, expected str"),
        (42, "int, expected str"),
    ],
    ids=["non-utf8-bytes", "lone-surrogate", "none", "int"],
)
def test_non_text_input_is_rejected_clearly(embedder: Embedder, bad: object, message: str):
    with pytest.raises(EmbeddingError, match=message):
        embedder.embed(["fine", bad])


def test_a_bare_string_is_not_taken_for_a_list_of_characters(embedder: Embedder):
    with pytest.raises(EmbeddingError, match="embed_one"):
        embedder.embed("How do I cancel?")


def test_model_version_comes_from_the_manifest(embedder: Embedder, model_dir: Path):
    manifest = json.loads((model_dir / "manifest.json").read_text())
    assert embedder.model_version.endswith(manifest["files"]["model.onnx"]["sha256"][:12])
    assert "fp32" in embedder.model_version


def test_missing_model_dir_is_a_clear_error(tmp_path: Path):
    with pytest.raises(EmbeddingError, match="make model"):
        Embedder(tmp_path / "nowhere")


def test_invalid_threads_rejected(model_dir: Path):
    with pytest.raises(EmbeddingError, match="threads"):
        Embedder(model_dir, threads=0)


def test_available_cpus_respects_affinity():
    import os

    assert 1 <= available_cpus() <= len(os.sched_getaffinity(0))


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"cpu.max": "150000 100000\n"}, 1.5),
        ({"cpu.max": "max 100000\n"}, None),
        ({"cpu/cpu.cfs_quota_us": "200000\n", "cpu/cpu.cfs_period_us": "100000\n"}, 2.0),
        ({"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, None),
        ({}, None),
    ],
    ids=["v2-quota", "v2-unlimited", "v1-quota", "v1-unlimited", "no-cgroup"],
)
def test_cgroup_cpu_quota(tmp_path: Path, files: dict[str, str], expected: float | None):
    for name, content in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(content)
    assert embedding._cgroup_cpu_quota(tmp_path) == expected


def test_threads_from_env(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CAREDESK_EMBED_THREADS", "1")
    assert embedding.threads_from_env() == 1
    monkeypatch.delenv("CAREDESK_EMBED_THREADS")
    reset_settings()
    assert embedding.threads_from_env() == available_cpus()
    for bad in ("zero", "0"):
        monkeypatch.setenv("CAREDESK_EMBED_THREADS", bad)
        reset_settings()
        with pytest.raises(EmbeddingError, match="CAREDESK_EMBED_THREADS"):
            embedding.threads_from_env()


def test_get_embedder_is_created_once_from_env(monkeypatch: pytest.MonkeyPatch, model_dir: Path):
    monkeypatch.setattr(embedding, "_cached", None)
    monkeypatch.setenv("CAREDESK_MODEL_DIR", str(model_dir))
    monkeypatch.setenv("CAREDESK_EMBED_THREADS", "1")
    first = get_embedder()
    assert first is get_embedder()
    assert first.threads == 1
    assert first.model_dir == model_dir


def test_embedding_does_not_import_torch(model_dir: Path):
    script = (
        "import sys\n"
        "from caredesk.embedding import Embedder\n"
        f"Embedder({str(model_dir)!r}, threads=1).embed(['hello world'])\n"
        "heavy = sorted(name for name in ('torch', 'transformers', 'sentence_transformers') if name in sys.modules)\n"
        "print(','.join(heavy) or 'none')\n"
    )
    env = {"PYTHONPATH": str(REPO_ROOT / "layers" / "common" / "python")}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env)
    assert result.stdout.strip() == "none"


class TestBuildManifest:
    """The no-op rule of tools/build_model.py, checked on small fake files (no torch needed)."""

    @pytest.fixture
    def fake_build(self, tmp_path: Path) -> tuple[ModuleType, Path]:
        build_model = load_tool("build_model")
        out = tmp_path / "model"
        out.mkdir()
        files = {}
        for name in build_model.PRODUCED_FILES:
            (out / name).write_bytes(f"fake {name}".encode())
            files[name] = {"sha256": build_model.sha256_of(out / name), "bytes": 1}
        manifest = {
            "inputs": build_model.input_versions(),
            "settings": build_model.expected_settings(),
            "files": files,
        }
        (out / build_model.MANIFEST_FILE).write_text(json.dumps(manifest))
        return build_model, out

    def test_matching_manifest_means_nothing_to_do(self, fake_build):
        build_model, out = fake_build
        assert build_model.is_up_to_date(out)
        assert build_model.build(out) == (out, False)

    def test_changed_file_triggers_rebuild(self, fake_build):
        build_model, out = fake_build
        (out / build_model.TOKENIZER_FILE).write_text("edited")
        assert not build_model.is_up_to_date(out)

    def test_missing_file_triggers_rebuild(self, fake_build):
        build_model, out = fake_build
        (out / build_model.MODEL_FILE).unlink()
        assert not build_model.is_up_to_date(out)

    def test_other_package_version_triggers_rebuild(self, fake_build):
        build_model, out = fake_build
        manifest = json.loads((out / build_model.MANIFEST_FILE).read_text())
        manifest["inputs"][build_model.WEIGHTS_PACKAGE] = "0.0.0"
        (out / build_model.MANIFEST_FILE).write_text(json.dumps(manifest))
        assert not build_model.is_up_to_date(out)

    def test_real_build_recorded_its_inputs_and_hashes(self, model_dir: Path):
        build_model = load_tool("build_model")
        manifest = json.loads((model_dir / "manifest.json").read_text())
        assert manifest["inputs"] == build_model.input_versions()
        for name, entry in manifest["files"].items():
            assert build_model.sha256_of(model_dir / name) == entry["sha256"]
        tokenizer = json.loads((model_dir / "tokenizer.json").read_text())
        assert tokenizer["truncation"]["max_length"] == 256
        assert tokenizer["padding"] is None
