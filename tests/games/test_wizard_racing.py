"""The race's compiled arithmetic is the generator sums it replaced, to the last bit: a seed plays the same moves
whether or not the build compiled it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mudwiz.games.wizard.racing import paired_spread, weighted_sum

scores = st.floats(min_value=-400, max_value=400, allow_nan=False)
weights = st.floats(min_value=0, max_value=1, allow_nan=False)


@given(st.lists(st.tuples(weights, scores, scores), min_size=1, max_size=80), st.integers(0, 80))
def test_the_sums_are_the_generators_sums(deals: list[tuple[float, float, float]], cut: int) -> None:
    w = [d[0] for d in deals]
    a = [d[1] for d in deals]
    b = [d[2] for d in deals]
    row = a[: min(cut, len(a))]  # an option dropped early has a shorter row
    assert weighted_sum(w, row) == sum(x * y for x, y in zip(w[: len(row)], row, strict=True))
    gap = (weighted_sum(w, a) - weighted_sum(w, b)) / (sum(w) or 1.0)
    assert paired_spread(w, a, b, gap) == sum(x * (y - z - gap) ** 2 for x, y, z in zip(w, a, b, strict=True))
