"""Sentence embeddings: all-MiniLM-L6-v2 run by onnxruntime (no torch at run time).

Runtime dependencies: tokenizers, onnxruntime, numpy. The model directory (built by
tools/build_model.py, shipped in the embedding Lambda layer at /opt/model) holds:
  model.onnx      the BERT encoder, fp32, inputs input_ids/attention_mask -> last_hidden_state
  tokenizer.json  truncation at 256 tokens, no padding (padding is done here, per batch)
  manifest.json   package versions and sha256 of both files (model_version comes from it)

Vectors are 384-d float32, mean-pooled over the attention mask, L2-normalised, exactly like
sentence-transformers. A text's vector never depends on the other texts of its batch: batches
are sorted by length, hold at most MAX_BATCH_TOKENS padded tokens and are padded only to their
longest member, and padded positions are masked out of attention and pooling; tests prove this
bitwise (see tests/unit/test_embedding.py).

Input rules (checked before anything reaches onnxruntime, failures raise EmbeddingError):
  - every item must be a str (bytes must be decoded by the caller) and valid Unicode
    (a lone surrogate, e.g. from errors="surrogateescape", is rejected);
  - a text with no content tokens (empty, whitespace, control or format characters only)
    is rejected: its vector would be the same meaningless point for every such text;
  - a long text is truncated to 256 tokens (sentence-transformers does the same); only its
    first MAX_TEXT_CHARS characters are read, which bounds tokenizer time for huge inputs.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from caredesk.config import settings
from caredesk.errors import EmbeddingError

EMBEDDING_DIM: int = 384

MODEL_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"
MANIFEST_FILE = "manifest.json"

MAX_TOKENS = 256
# 256 tokens of any real text fit in far fewer characters; reading more only costs time.
MAX_TEXT_CHARS = 32_768
DEFAULT_BATCH_SIZE = 32
# Cap on padded tokens per onnxruntime call. Small calls keep each MatMul's activations in cache:
# on the ingest workload (chunks ~113 tokens, answer units ~25) 512 measured 1.00-1.20x the speed
# of 4,096 with 1 thread, 1.07x with 2, and a third less peak memory (docs/embedding.md, "Tuning").
# A 256-token text still fits next to another one, so every padding case stays covered.
MAX_BATCH_TOKENS = 512

# Tokens the tokenizer adds around every text ([CLS] ... [SEP]).
_SPECIAL_TOKENS = 2


def available_cpus() -> int:
    """CPUs this process may really use: its affinity mask, capped by a cgroup CPU quota."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    quota = _cgroup_cpu_quota()
    if quota is not None:
        cpus = min(cpus, max(1, math.ceil(quota)))
    return max(1, cpus)


def _cgroup_cpu_quota(cgroup_root: Path = Path("/sys/fs/cgroup")) -> float | None:
    """CPU quota in CPUs from cgroup v2 (cpu.max) or v1 (cfs_quota/cfs_period); None if unlimited."""
    try:
        quota, period = (cgroup_root / "cpu.max").read_text().split()[:2]
        return None if quota == "max" else int(quota) / int(period)
    except (OSError, ValueError):
        pass
    for folder in (cgroup_root / "cpu", cgroup_root / "cpu,cpuacct"):
        try:
            quota_us = int((folder / "cpu.cfs_quota_us").read_text())
            period_us = int((folder / "cpu.cfs_period_us").read_text())
        except (OSError, ValueError):
            continue
        return None if quota_us <= 0 or period_us <= 0 else quota_us / period_us
    return None


def threads_from_env() -> int:
    """CAREDESK_EMBED_THREADS if set (a positive integer: caredesk.config), else the CPUs the container has."""
    return settings().embed_threads or available_cpus()


class Embedder:
    """Turns texts into 384-d unit vectors. Create once per process (see get_embedder)."""

    def __init__(
        self,
        model_dir: Path,
        threads: int | None = None,
        batch_size: int = DEFAULT_BATCH_SIZE,
        max_batch_tokens: int = MAX_BATCH_TOKENS,
    ) -> None:
        # Imported here so that importing caredesk.embedding (e.g. for EMBEDDING_DIM) stays cheap.
        import onnxruntime
        from tokenizers import Tokenizer

        self.model_dir = Path(model_dir)
        self.threads = available_cpus() if threads is None else int(threads)
        if self.threads < 1:
            raise EmbeddingError(f"threads must be >= 1, got {threads}")
        if batch_size < 1:
            raise EmbeddingError(f"batch_size must be >= 1, got {batch_size}")
        self.batch_size = batch_size
        if max_batch_tokens < MAX_TOKENS:
            raise EmbeddingError(f"max_batch_tokens must be >= {MAX_TOKENS} (one full text), got {max_batch_tokens}")
        self.max_batch_tokens = max_batch_tokens
        self._manifest = self._read_manifest()

        try:
            self._tokenizer = Tokenizer.from_file(str(self.model_dir / TOKENIZER_FILE))
        except Exception as error:  # the tokenizers library raises its own plain Exception
            raise EmbeddingError(f"cannot load {self.model_dir / TOKENIZER_FILE}: {error}") from error
        # Enforce the run-time settings whatever the file says (the shipped upstream file pads to 128).
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        try:
            self._session = onnxruntime.InferenceSession(
                str(self.model_dir / MODEL_FILE), options, providers=["CPUExecutionProvider"]
            )
        except Exception as error:  # onnxruntime raises its own Fail/NoSuchFile/InvalidGraph types
            raise EmbeddingError(f"cannot load {self.model_dir / MODEL_FILE}: {error}") from error
        output_dim = self._session.get_outputs()[0].shape[-1]
        if output_dim != EMBEDDING_DIM:
            raise EmbeddingError(f"model outputs {output_dim}-d vectors, expected {EMBEDDING_DIM}")
        # onnxruntime sessions are thread-safe but share the intra-op pool; serialise calls so
        # concurrent callers do not oversubscribe the CPUs.
        self._lock = threading.Lock()

    def _read_manifest(self) -> dict:
        path = self.model_dir / MANIFEST_FILE
        try:
            return json.loads(path.read_text())
        except FileNotFoundError:
            raise EmbeddingError(f"no {MANIFEST_FILE} in {self.model_dir}: build the model with `make model`") from None
        except (OSError, json.JSONDecodeError) as error:
            raise EmbeddingError(f"cannot read {path}: {error}") from error

    @property
    def model_version(self) -> str:
        """Identifies the model that produced a vector: name + precision + sha256 prefix of model.onnx."""
        sha = self._manifest.get("files", {}).get(MODEL_FILE, {}).get("sha256", "unknown")
        precision = self._manifest.get("settings", {}).get("precision", "fp32")
        return f"all-MiniLM-L6-v2-onnx-{precision}-{sha[:12]}"

    def embed_one(self, text: str) -> np.ndarray:
        """One text -> shape (384,) float32 unit vector."""
        return self.embed([text])[0]

    def token_key(self, text: str) -> str:
        """What the model reads of `text` (its token ids, after truncation), as a short hash: two texts with
        the same key get bit-identical vectors ("Do you open on Sunday?" and its casefolded form do)."""
        (ids,) = self._tokenize([text])
        return hashlib.sha256(np.asarray(ids, dtype="<i4").tobytes()).hexdigest()[:32]

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Texts -> shape (n, 384) float32, row i L2-normalised, in input order."""
        if isinstance(texts, (str, bytes)):
            raise EmbeddingError("embed() takes a sequence of texts; use embed_one() for a single text")
        token_ids = self._tokenize(texts)
        vectors = np.empty((len(token_ids), EMBEDDING_DIM), dtype=np.float32)
        for batch in self._batches(token_ids):
            vectors[batch] = self._run([token_ids[i] for i in batch])
        return vectors

    def _tokenize(self, texts: Sequence[str]) -> list[list[int]]:
        for index, text in enumerate(texts):
            if isinstance(text, bytes):
                raise EmbeddingError(f"text #{index} is bytes: decode it to str first")
            if not isinstance(text, str):
                raise EmbeddingError(f"text #{index} is {type(text).__name__}, expected str")
            if not text.isascii():
                try:
                    text.encode("utf-8")
                except UnicodeEncodeError as error:
                    raise EmbeddingError(
                        f"text #{index} is not valid Unicode (unpaired surrogate at {error.start})"
                    ) from None
        clipped = [text[:MAX_TEXT_CHARS] for text in texts]
        token_ids = [encoding.ids for encoding in self._tokenizer.encode_batch(clipped)]
        for index, ids in enumerate(token_ids):
            if len(ids) <= _SPECIAL_TOKENS:
                raise EmbeddingError(f"text #{index} has no content (empty, whitespace or control characters only)")
        return token_ids

    def _batches(self, token_ids: list[list[int]]) -> list[list[int]]:
        """Indices grouped into batches of similar length (longest first) to minimise padding."""
        order = sorted(range(len(token_ids)), key=lambda i: len(token_ids[i]), reverse=True)
        batches: list[list[int]] = []
        current: list[int] = []
        for index in order:
            # Sorted longest first, so the batch's padded length is its first member's length.
            padded_length = len(token_ids[current[0]]) if current else len(token_ids[index])
            too_many_tokens = (len(current) + 1) * padded_length > self.max_batch_tokens
            if current and (len(current) >= self.batch_size or too_many_tokens):
                batches.append(current)
                current = []
            current.append(index)
        if current:
            batches.append(current)
        return batches

    def _run(self, batch_ids: list[list[int]]) -> np.ndarray:
        length = max(len(ids) for ids in batch_ids)
        input_ids = np.zeros((len(batch_ids), length), dtype=np.int64)
        attention_mask = np.zeros((len(batch_ids), length), dtype=np.int64)
        for row, ids in enumerate(batch_ids):
            input_ids[row, : len(ids)] = ids
            attention_mask[row, : len(ids)] = 1
        try:
            with self._lock:
                (hidden,) = self._session.run(
                    ["last_hidden_state"], {"input_ids": input_ids, "attention_mask": attention_mask}
                )
        except Exception as error:  # onnxruntime's own exception types; never leak them raw
            raise EmbeddingError(f"onnxruntime failed on a batch of {len(batch_ids)}: {error}") from error
        return mean_pool_normalise(hidden, attention_mask)


def mean_pool_normalise(hidden: np.ndarray, attention_mask: np.ndarray) -> np.ndarray:
    """Mean of the token vectors where the mask is 1, then L2-normalised (float32)."""
    mask = attention_mask.astype(np.float32)[:, :, None]
    summed = (hidden * mask).sum(axis=1)
    counts = np.maximum(mask.sum(axis=1), 1e-9)
    pooled = summed / counts
    norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
    return (pooled / norms).astype(np.float32, copy=False)


_cached: Embedder | None = None
_cached_lock = threading.Lock()


def get_embedder() -> Embedder:
    """The process-wide Embedder (created once per Lambda container, on first use).

    Model directory from CAREDESK_MODEL_DIR (default /opt/model), threads from
    CAREDESK_EMBED_THREADS (default: the CPUs the container really has).
    """
    global _cached
    with _cached_lock:
        if _cached is None:
            _cached = Embedder(settings().model_dir, threads=threads_from_env())
        return _cached
