"""Parsing a CloudFormation template (YAML with short-form tags such as !Ref, !Sub, or JSON) into
plain intrinsic dicts."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from caredesk.errors import CareDeskError


class TemplateUnavailableError(CareDeskError):
    """The template could not be read or parsed."""


class _CfnLoader(yaml.SafeLoader):
    """A SafeLoader that understands CloudFormation's short-form tags."""


def _construct_tag(loader: yaml.SafeLoader, tag_suffix: str, node: yaml.Node) -> dict[str, Any]:
    name = "Ref" if tag_suffix == "Ref" else f"Fn::{tag_suffix}"
    if isinstance(node, yaml.ScalarNode):
        value: Any = loader.construct_scalar(node)
        if tag_suffix == "GetAtt":
            value = value.split(".", 1)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)
    return {name: value}


_CfnLoader.add_multi_constructor("!", _construct_tag)


def parse_template(text: str | Mapping[str, Any]) -> dict[str, Any]:
    """A template given as JSON or YAML text (or already parsed) as plain intrinsic dicts."""
    if isinstance(text, Mapping):
        return dict(text)
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    try:
        body = yaml.load(text, Loader=_CfnLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as error:
        raise TemplateUnavailableError(f"template is neither JSON nor YAML: {error}") from None
    if not isinstance(body, dict) or "Resources" not in body:
        raise TemplateUnavailableError("template has no Resources")
    return body


def read_template(path: Path) -> dict[str, Any]:
    """A template file, e.g. the repository's template.yaml or `sam build`'s copy of it."""
    return parse_template(Path(path).read_text(encoding="utf-8"))


def deployed_template(cloudformation: Any, stack_name: str) -> dict[str, Any]:
    """The stack's original (pre-transform) template, as deployed."""
    response = cloudformation.get_template(StackName=stack_name, TemplateStage="Original")
    return parse_template(response["TemplateBody"])
