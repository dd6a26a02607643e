"""caredesk.config: the one reader of the environment, its defaults and parsing, and the template's values."""

from __future__ import annotations

import ast
from dataclasses import fields
from pathlib import Path

import pytest
from caredesk.cfn.api import request_schema
from caredesk.cfn.defaults import parameter_default
from caredesk.cfn.parse import read_template
from caredesk.config import GENERATOR_VARIABLES, MAX_DOCUMENT_BYTES, Settings, reset_settings, settings
from caredesk.errors import EmbeddingError

from tests.conftest import REPO_ROOT

LAYER = REPO_ROOT / "layers" / "common" / "python" / "caredesk"
CONFIG = LAYER / "config.py"
ENV_READERS = {"environ", "environb", "getenv", "getenvb"}


@pytest.fixture(scope="module")
def template() -> dict:
    return read_template(REPO_ROOT / "template.yaml")


def _env_reads(path: Path) -> list[str]:
    """Where the module reads the environment: `os.environ`, `os.getenv` (under any alias of os) or
    `from os import environ/getenv`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    aliases = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
               for alias in node.names if alias.name == "os"}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "os":
            found += [f"line {node.lineno}: from os import {a.name}" for a in node.names if a.name in ENV_READERS]
        elif (isinstance(node, ast.Attribute) and node.attr in ENV_READERS and isinstance(node.value, ast.Name)
              and node.value.id in aliases):
            found.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
    return found


def test_only_config_reads_the_environment():
    modules = sorted(LAYER.rglob("*.py")) + sorted((REPO_ROOT / "functions").rglob("*.py"))
    readers = {str(path.relative_to(REPO_ROOT)): reads for path in modules if path != CONFIG
               for reads in [_env_reads(path)] if reads}
    assert readers == {}, "read caredesk.config.settings() instead"
    assert _env_reads(CONFIG)  # the scan does see a read


def test_the_scan_sees_every_way_of_reading(tmp_path):
    module = tmp_path / "reader.py"
    module.write_text("import os as o\nfrom os import getenv\nA = o.environ['X']\nB = o.getenv('Y')\n")
    assert len(_env_reads(module)) == 3


def test_unset_and_blank_variables_take_the_defaults():
    assert Settings.from_env({}) == Settings()
    assert Settings.from_env({"CAREDESK_RETRIEVE_K": " ", "AUDIT_TABLE": ""}) == Settings()
    defaults = Settings()
    assert (defaults.retrieve_k, defaults.search_mode, defaults.session_max_turns) == (5, "hybrid", 6)
    assert defaults.model_dir == Path("/opt/model") and defaults.sql_dir is None and defaults.embed_threads is None


def test_each_variable_is_parsed_in_one_place():
    read = Settings.from_env({
        "AUDIT_TABLE": " audit ", "CAREDESK_RETRIEVE_K": "8", "CAREDESK_ANSWER_CACHE_TTL_HOURS": "0.5",
        "CAREDESK_SEMANTIC_THRESHOLD": "0.2", "CAREDESK_MODEL_DIR": "/tmp/model", "CAREDESK_EMBED_THREADS": "2",
        "CAREDESK_PII_FINGERPRINT_KEY": " key ", "CAREDESK_GENERATOR": "bedrock", "UNRELATED": "x",
    })
    assert (read.audit_table, read.retrieve_k, read.answer_cache_ttl_hours) == ("audit", 8, 0.5)
    assert (read.semantic_threshold, read.model_dir, read.embed_threads) == (0.2, Path("/tmp/model"), 2)
    assert read.pii_fingerprint_key == b" key "  # a key is taken as given
    assert dict(read.generator_environment) == {"CAREDESK_GENERATOR": "bedrock"}


def test_a_bad_value_names_its_variable():
    with pytest.raises(ValueError, match="CAREDESK_RETRIEVE_K"):
        Settings.from_env({"CAREDESK_RETRIEVE_K": "five"})
    for bad in ("zero", "0"):
        with pytest.raises(EmbeddingError, match="CAREDESK_EMBED_THREADS"):
            Settings.from_env({"CAREDESK_EMBED_THREADS": bad})


def test_a_required_value_names_its_variable_when_missing():
    assert Settings(audit_table="audit").required("audit_table") == "audit"
    with pytest.raises(RuntimeError, match="CAREDESK_HANDOVER_QUEUE_URL"):
        Settings().required("handover_queue_url")


def test_secrets_are_never_shown():
    shown = repr(Settings.from_env({"CAREDESK_DB_DSN": "postgresql://u:s3cret@h/d", "CAREDESK_OPENAI_API_KEY": "sk-1",
                                    "CAREDESK_PII_FINGERPRINT_KEY": "fp-key"}))
    assert "s3cret" not in shown and "sk-1" not in shown and "fp-key" not in shown


def test_the_environment_is_read_once_until_reset(monkeypatch):
    monkeypatch.setenv("CAREDESK_RETRIEVE_K", "7")
    assert settings().retrieve_k == 7 and settings() is settings()
    monkeypatch.setenv("CAREDESK_RETRIEVE_K", "9")
    assert settings().retrieve_k == 7
    reset_settings()
    assert settings().retrieve_k == 9


def test_the_defaults_are_the_templates_parameter_defaults(template):
    defaults = Settings()
    assert defaults.audit_retention_days == int(parameter_default(template, "AuditRetentionInDays"))
    assert defaults.session_ttl_minutes == int(parameter_default(template, "SessionTtlInMinutes"))
    assert defaults.answer_cache_ttl_hours == float(parameter_default(template, "AnswerCacheTtlInHours"))


def test_the_upload_limit_is_the_templates(template):
    size = request_schema(template, "POST", "/upload-url")["properties"]["size_bytes"]
    assert size["maximum"] == MAX_DOCUMENT_BYTES == Settings().max_document_bytes


def test_every_variable_the_template_sets_is_one_settings_reads(template):
    set_by_template = set(template["Globals"]["Function"]["Environment"]["Variables"])
    for resource in template["Resources"].values():
        if resource.get("Type") == "AWS::Serverless::Function":
            set_by_template |= set(resource["Properties"].get("Environment", {}).get("Variables", {}))
    read = {variable.metadata["env"] for variable in fields(Settings) if "env" in variable.metadata}
    # POWERTOOLS_* are Powertools' own, AWS_* the SDK's.
    theirs = {name for name in set_by_template if name.startswith(("POWERTOOLS_", "AWS_"))}
    assert set_by_template - theirs - read - set(GENERATOR_VARIABLES) == set()
