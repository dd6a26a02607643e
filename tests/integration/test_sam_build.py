"""`sam build` of template.yaml (no Docker needed) and Lambda's size limit on what it built.

Lambda refuses a function whose code and layers together exceed 250 MB unzipped. The build is cached
under .cache/sam-build (git-ignored; SAM rebuilds only what changed), and the sizes are printed and
written to test-artifacts/sam-build-sizes.md.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from caredesk.cfn.parse import read_template

from tests.conftest import REPO_ROOT

SAM = REPO_ROOT / ".cache" / "venv-sam" / "bin" / "sam"
BUILD_ROOT = REPO_ROOT / ".cache" / "sam-build"
BUILD_DIR = BUILD_ROOT / "build"
LAMBDA_UNZIPPED_LIMIT_BYTES = 250 * 1024 * 1024  # "250 MB" in Lambda's quotas is 262,144,000 bytes
BUILD_TIMEOUT_S = 1200
SIZES_REPORT = REPO_ROOT / "test-artifacts" / "sam-build-sizes.md"


def _size(path: Path) -> int:
    """Unzipped bytes of a built artifact (apparent sizes, as Lambda counts them)."""
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


@pytest.fixture(scope="module")
def built() -> dict:
    assert SAM.exists(), "the SAM CLI is missing: run `make setup`"
    completed = subprocess.run(
        [str(SAM), "build", "--template-file", "template.yaml", "--build-dir", str(BUILD_DIR),
         "--cache-dir", str(BUILD_ROOT / "cache"), "--cached", "--parallel"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S,
        env={**os.environ, "SAM_CLI_TELEMETRY": "0"},
    )
    assert completed.returncode == 0, f"sam build failed:\n{completed.stdout[-3000:]}\n{completed.stderr[-3000:]}"
    return read_template(BUILD_DIR / "template.yaml")


def _layers(template: dict, properties: dict) -> list[str]:
    shared = template.get("Globals", {}).get("Function", {}).get("Layers", [])
    return [layer["Ref"] for layer in [*shared, *properties.get("Layers", [])]]


def test_every_function_with_its_layers_fits_lambda_s_unzipped_limit(built, capsys):
    resources = built["Resources"]
    functions = {name: r["Properties"] for name, r in resources.items() if r["Type"] == "AWS::Serverless::Function"}
    assert functions
    rows = []
    for name, properties in sorted(functions.items()):
        code = _size(BUILD_DIR / properties["CodeUri"])
        layers = {layer: _size(BUILD_DIR / resources[layer]["Properties"]["ContentUri"])
                  for layer in _layers(built, properties)}
        rows.append((name, code, layers, code + sum(layers.values())))
    mib = 1024 * 1024
    lines = ["| function | code MiB | layers (MiB) | unzipped total MiB | limit 250 MiB |", "|---|---:|---|---:|---|"]
    lines += [f"| {name} | {code / mib:.1f} | {', '.join(f'{k} {v / mib:.1f}' for k, v in layers.items())} "
              f"| {total / mib:.1f} | {'ok' if total <= LAMBDA_UNZIPPED_LIMIT_BYTES else 'OVER'} |"
              for name, code, layers, total in rows]
    SIZES_REPORT.parent.mkdir(exist_ok=True)
    SIZES_REPORT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with capsys.disabled():
        print("\n`sam build` unzipped sizes:\n" + "\n".join(lines))
    over = [(name, round(total / mib, 1)) for name, _, _, total in rows if total > LAMBDA_UNZIPPED_LIMIT_BYTES]
    assert not over, f"over Lambda's 250 MiB unzipped limit: {over}"


def test_the_build_ships_the_model_and_the_handlers(built):
    """The artifact is complete, not only small: the EmbeddingLayer carries the model and every
    function's handler module is in its code directory."""
    resources = built["Resources"]
    embedding = BUILD_DIR / resources["EmbeddingLayer"]["Properties"]["ContentUri"]
    assert (embedding / "model" / "model.onnx").stat().st_size > 10 * 1024 * 1024
    assert (BUILD_DIR / resources["CommonLayer"]["Properties"]["ContentUri"] / "python" / "caredesk").is_dir()
    for name, resource in resources.items():
        if resource["Type"] == "AWS::Serverless::Function":
            module = resource["Properties"]["Handler"].rsplit(".", 1)[0]
            assert (BUILD_DIR / resource["Properties"]["CodeUri"] / f"{module}.py").is_file(), name
