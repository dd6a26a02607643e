"""An S3 key's tier is read from the folder the path really ends in, after `.` and `..` are resolved."""

from __future__ import annotations

import pytest
from caredesk.errors import DocumentKeyError, UnknownTierError
from caredesk.tiers import Tier, normalized_key, tier_from_key


@pytest.mark.parametrize(
    ("key", "tier"),
    [
        ("kb/public/fees.md", Tier.PUBLIC),
        ("kb/public/../staff/x.md", Tier.STAFF),  # the reproduction: was indexed as public
        ("kb/staff/../public/x.md", Tier.PUBLIC),
        ("kb/public/./a/../../patient/x.md", Tier.PATIENT),
        ("kb//patient//x.md", Tier.PATIENT),
    ],
)
def test_the_tier_is_read_after_dot_dot_is_resolved(key, tier):
    assert tier_from_key(key) is tier


@pytest.mark.parametrize("key", ["kb/../x.md", "kb/public/../../x.md", "/kb/public/x.md", "uploads/x.md", "x.md",
                                 "kb", "", "kb/.."])
def test_a_key_outside_kb_is_refused(key):
    with pytest.raises(DocumentKeyError):
        tier_from_key(key)


@pytest.mark.parametrize("key", ["kb/secret/x.md", "kb/Staff/x.md", "kb/ staff/x.md", "kb/public", "kb/public/"])
def test_an_unknown_or_missing_tier_folder_is_refused_not_defaulted(key):
    with pytest.raises(UnknownTierError):
        tier_from_key(key)


def test_normalized_key_matches_posixpath_semantics():
    assert normalized_key("kb/public/../staff/x.md") == "kb/staff/x.md"
    assert normalized_key("kb/public/a/./b.md") == "kb/public/a/b.md"


@pytest.mark.parametrize("tier", list(Tier))
def test_a_tiers_visible_and_hidden_tiers_split_every_tier_between_them(tier):
    assert sorted(tier.visible() + tier.hidden()) == sorted(Tier.names())
    assert not set(tier.visible()) & set(tier.hidden())
    assert tier.label in tier.visible() and (tier.hidden() == []) == (tier is Tier.STAFF)
