"""The strength bench runs: docs/bots.md quotes its figures, so a change that breaks it must show here."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_bots_bench_prints_figures_and_the_exact_bid_breakdown() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bots.py"), "--only", "wizard", "--players", "3", "--games", "2",
         "--option", "rounds=2", "--against", "good", "--seed", "7000", "--detail"],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    lines = out.splitlines()
    assert lines[0].startswith("wizard    3p vs good   games=   2"), out
    exact = float(re.search(r"exact bids=\s*([\d.]+)%", lines[0]).group(1))  # type: ignore[union-attr]
    # two games, rounds of 1 and 2 cards, three seats each: 6 seat-rounds per round size, 12 in all
    assert re.fullmatch(r"  exact by cards\s+1: +\d+% of 6, 2: +\d+% of 6", lines[1]), out
    counts = [int(n) for n in re.findall(r"of (\d+)", lines[2])]
    assert sum(counts) == 12, out
    rates = [(int(p), int(n)) for p, n in re.findall(r"(\d+)% of (\d+)", lines[3])]
    assert sum(n for _, n in rates) == 12, out
    # the overall rate is the seat-round-weighted mean of the parts (printed to whole and tenth percents)
    assert abs(sum(p * n for p, n in rates) / 12 - exact) <= 0.55, out
