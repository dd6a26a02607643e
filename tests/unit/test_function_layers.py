"""Each function ships with exactly the layers its handler needs.

The local venv has every package, so a handler that imports numpy without the EmbeddingLayer would
work in every local test and fail in AWS with an ImportError. Here each handler is imported in a fresh
interpreter that refuses the EmbeddingLayer's packages: a function without that layer must import,
and a function with it must need it (169 MiB on a cold start it does not use otherwise).
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from caredesk_local.template import StackTemplate

from tests.conftest import REPO_ROOT

EMBEDDING_LAYER = "EmbeddingLayer"
EMBEDDING_PACKAGES = ("numpy", "onnxruntime", "tokenizers")  # layers/embedding/requirements.txt
# Functions that need the layer's data rather than its packages (no import can show it).
NEEDS_LAYER_DATA = {"GovernanceFunction": "GET /governance reports the embedding model from /opt/model's manifest"}
TEMPLATE = StackTemplate.read(REPO_ROOT, parameters={"DatabaseSecretArn": "local", "CreateDatabase": "false"})
FUNCTIONS = [f.logical_id for f in TEMPLATE.resources("AWS::Serverless::Function")]

IMPORT_WITHOUT_EMBEDDING_LAYER = """
import importlib, importlib.abc, sys
class RefuseEmbeddingLayer(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in {packages!r}:
            raise ImportError("not in this function's layers: " + name)
sys.meta_path.insert(0, RefuseEmbeddingLayer())
sys.path.insert(0, {code_dir!r})
try:
    importlib.import_module({module!r})
except ImportError as error:
    print(error)
    sys.exit(3)
"""


def test_the_requirements_file_lists_the_refused_packages():
    requirements = (REPO_ROOT / "layers" / "embedding" / "requirements.txt").read_text(encoding="utf-8")
    pinned = {line.split("==")[0] for line in requirements.splitlines() if "==" in line and not line.startswith("#")}
    assert pinned == set(EMBEDDING_PACKAGES)


@pytest.mark.parametrize("function", FUNCTIONS)
def test_a_function_has_the_embedding_layer_exactly_when_its_handler_needs_it(function, tmp_path):
    code_dir = REPO_ROOT / TEMPLATE.function_property(function, "CodeUri")
    module = TEMPLATE.function_property(function, "Handler").rsplit(".", 1)[0]
    env = {**TEMPLATE.function_environment(function), "AWS_DEFAULT_REGION": "us-east-1",
           "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "POWERTOOLS_TRACE_DISABLED": "true",
           "CAREDESK_DB_DSN": "postgresql://nobody@127.0.0.1:1/none", "HOME": str(tmp_path),
           "CAREDESK_MODEL_DIR": str(REPO_ROOT / ".cache" / "model")}
    script = IMPORT_WITHOUT_EMBEDDING_LAYER.format(packages=EMBEDDING_PACKAGES, code_dir=str(code_dir), module=module)
    result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    needs_layer = result.returncode == 3 or function in NEEDS_LAYER_DATA
    assert result.returncode in (0, 3), result.stderr[-2000:]
    has_layer = EMBEDDING_LAYER in TEMPLATE.function_layers(function)
    assert has_layer == needs_layer, (function, result.stdout.strip())
