"""Every reply text is defined once, in caredesk.replies. The two places that cannot import Python carry
copies: the state machine's fail-safe reply (generated from the module by tools/write_asl.py) and the
API's error mapping template in template.yaml (API Gateway answers it when the execution failed); these
tests fail when a copy drifts from the module or a text is written out anywhere else."""

from __future__ import annotations

import ast
import json

import pytest
from caredesk import replies
from caredesk.cfn.api import INTEGRATION_EXTENSION, api_definition
from caredesk.cfn.parse import read_template

from tests.conftest import REPO_ROOT
from tools.write_asl import ASL_PATH

REPLIES_MODULE = REPO_ROOT / "layers" / "common" / "python" / "caredesk" / "replies.py"
SOURCE_ROOTS = ("layers", "local", "functions", "tools")
TEXTS = {name: value for name, value in vars(replies).items() if name.isupper() and isinstance(value, str)}
FAIL_SAFE = json.loads(ASL_PATH.read_text(encoding="utf-8"))["States"]["FailSafeReply"]["Parameters"]


def _api_error_reply() -> dict:
    """The JSON body /ask's response template writes when the execution did not succeed."""
    ask = api_definition(read_template(REPO_ROOT / "template.yaml"))["paths"]["/ask"]["post"]
    response = ask[INTEGRATION_EXTENSION]["responses"]["default"]["responseTemplates"]["application/json"]
    (body,) = [line.strip() for line in response.splitlines() if line.strip().startswith("{")]
    return json.loads(body)


def test_the_api_error_reply_has_the_modules_words():
    error_reply = _api_error_reply()
    assert error_reply["answer"] == replies.ERROR_ANSWER
    assert error_reply["disclaimer"] == replies.DISCLAIMER


def test_the_state_machine_fail_safe_reply_has_the_modules_words():
    assert FAIL_SAFE["answer"] == replies.ERROR_ANSWER
    assert FAIL_SAFE["disclaimer"] == replies.DISCLAIMER


def test_the_api_error_reply_and_the_fail_safe_reply_have_the_same_fixed_fields():
    fixed = {key: value for key, value in FAIL_SAFE.items() if not key.endswith(".$")}
    error_reply = _api_error_reply()
    assert {key: error_reply[key] for key in fixed} == fixed


def _string_literals() -> list[tuple[str, str]]:
    """(file, text) of every string constant in the Python sources (implicit concatenation joined)."""
    found = []
    for root in SOURCE_ROOTS:
        for path in sorted((REPO_ROOT / root).rglob("*.py")):
            if path == REPLIES_MODULE:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            found.extend((str(path.relative_to(REPO_ROOT)), node.value) for node in ast.walk(tree)
                         if isinstance(node, ast.Constant) and isinstance(node.value, str))
    return found


@pytest.fixture(scope="module")
def string_literals() -> list[tuple[str, str]]:
    return _string_literals()


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_no_reply_text_is_written_out_twice(name, string_literals):
    copies = [path for path, text in string_literals if text == TEXTS[name]]
    assert not copies, f"import caredesk.replies.{name} instead of repeating it in {copies}"
