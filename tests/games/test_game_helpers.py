"""The engines' shared helpers that stand in for the standard library's: ``shuffle`` must deal what
``random.shuffle`` deals from the same seed, or every stored game and journaled table would replay differently;
``plain_copy`` must copy a score sheet as ``copy.deepcopy`` does, sharing nothing a reader could change."""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from mudwiz.games.base import plain_copy, shuffle


@given(seed=st.integers(min_value=0, max_value=2**64), size=st.integers(min_value=0, max_value=130),
       drawn=st.integers(min_value=0, max_value=5))
def test_shuffle_deals_what_random_shuffle_deals(seed: int, size: int, drawn: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for _ in range(drawn):  # a game draws before it shuffles (the dealer), and shuffles again each round
        assert ours.randrange(7) == theirs.randrange(7)
    mine, reference = list(range(size)), list(range(size))
    shuffle(ours, mine)
    theirs.shuffle(reference)
    assert mine == reference
    assert ours.getstate() == theirs.getstate()  # the same draws, so everything after deals alike too


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)


def _containers(value: Any) -> list[int]:
    """The ids of every dict and list inside ``value``, itself included."""
    if isinstance(value, dict):
        return [id(value), *(i for item in value.values() for i in _containers(item))]
    if isinstance(value, list):
        return [id(value), *(i for item in value for i in _containers(item))]
    return []


@given(json_values)
def test_plain_copy_is_a_deep_copy(value: Any) -> None:
    copied = plain_copy(value)
    assert copied == copy.deepcopy(value)
    assert not set(_containers(copied)) & set(_containers(value))


def test_a_sheet_copy_is_not_changed_by_the_engine() -> None:
    sheet = [{"round": 1, "results": [{"player": "ann", "score": 20}], "spell": None, "cards": ("R1", "W")}]
    copied = plain_copy(sheet)
    sheet[0]["results"][0]["score"] = 0
    sheet[0]["results"].append({"player": "bob"})
    assert copied == [{"round": 1, "results": [{"player": "ann", "score": 20}], "spell": None, "cards": ("R1", "W")}]
