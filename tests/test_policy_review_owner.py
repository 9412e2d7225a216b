# SPDX-License-Identifier: MIT
"""Policy.review_owner: who answers for a report that lacks evidence."""

from __future__ import annotations

import pytest

from scorecontract import Policy, PolicyError


def test_default_is_none_and_shown_in_as_dict():
    policy = Policy()
    assert policy.review_owner is None
    assert "review_owner" not in policy.as_dict()  # the policy-file shape


def test_owner_is_kept_compared_and_hashed():
    owned = Policy(0.8, review_owner="alice")
    assert owned.review_owner == "alice"
    assert owned.as_dict()["review_owner"] == "alice"
    assert owned == Policy(0.8, review_owner="alice")
    assert owned != Policy(0.8)
    assert owned != Policy(0.8, review_owner="bob")
    assert hash(owned) == hash(Policy(0.8, review_owner="alice"))
    assert "review_owner='alice'" in repr(owned)


@pytest.mark.parametrize("owner", ["", "   ", 0, True, b"alice", ["alice"]], ids=repr)
def test_bad_owner_is_a_configuration_error(owner):
    with pytest.raises(PolicyError) as info:
        Policy(0.8, review_owner=owner)
    assert info.value.code == "bad-policy"


def test_owner_is_keyword_only():
    with pytest.raises(TypeError):
        Policy(0.8, 0, 1, "v", False, "alice")  # type: ignore[misc]
