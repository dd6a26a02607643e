"""The posture reports what each part says of itself: here, the generator backend really configured."""

from __future__ import annotations

import pytest
from caredesk.cfn.parse import read_template
from caredesk.governance import posture

from tests.conftest import REPO_ROOT


@pytest.fixture(scope="module")
def template() -> dict:
    return read_template(REPO_ROOT / "template.yaml")


def _generation(template: dict, tmp_path) -> dict:
    return posture(template, floor={"status": "not_read"}, model_dir=tmp_path)["generation"]


def test_the_default_generator_is_reported_as_extractive(template, tmp_path, monkeypatch):
    monkeypatch.delenv("CAREDESK_GENERATOR", raising=False)
    generation = _generation(template, tmp_path)
    assert generation["backend"] == "extractive" and generation["temperature"] == 0
    assert generation["reviewer"] and generation["embedding"]["model_version"] == "unavailable"


def test_a_model_backend_is_reported_with_its_model(template, tmp_path, monkeypatch):
    monkeypatch.setenv("CAREDESK_GENERATOR", "bedrock")
    monkeypatch.setenv("CAREDESK_BEDROCK_MODEL_ID", "anthropic.claude-test")
    monkeypatch.setenv("CAREDESK_GENERATOR_MAX_TOKENS", "300")
    generation = _generation(template, tmp_path)
    assert {key: generation[key] for key in ("backend", "model", "temperature", "max_tokens")} == {
        "backend": "bedrock", "model": "anthropic.claude-test", "temperature": 0, "max_tokens": 300}


def test_a_backend_the_generate_step_would_refuse_is_reported_misconfigured(template, tmp_path, monkeypatch):
    monkeypatch.setenv("CAREDESK_GENERATOR", "openai")
    monkeypatch.delenv("CAREDESK_OPENAI_BASE_URL", raising=False)
    generation = _generation(template, tmp_path)
    assert generation["backend"] == "openai" and generation["status"] == "misconfigured"
    assert "CAREDESK_OPENAI_BASE_URL" in generation["error"]
