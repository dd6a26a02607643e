"""CloudFormation YAML (with short-form tags such as !Ref, !Sub) read into plain intrinsic dicts.

Used by the governance view (which reads the deployed template) and by the dev-only local stack.
"""

from __future__ import annotations

from typing import Any

import yaml


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


def load_cfn_yaml(text: str) -> Any:
    """Parse a template; raises yaml.YAMLError on malformed YAML."""
    return yaml.load(text, Loader=_CfnLoader)  # noqa: S506 - a SafeLoader subclass
