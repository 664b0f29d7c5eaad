"""The strength bench runs: docs/bots.md quotes its figures, so a change that breaks it must show here."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def test_bots_bench_prints_figures_and_the_exact_bid_breakdown() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bots.py"), "--only", "wizard", "--players", "3", "--games", "2",
         "--option", "rounds=2", "--level", "normal", "--against", "self", "--seed", "7000", "--detail"],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    lines = out.splitlines()
    assert lines[0].startswith("wizard    3p normal vs self   games=   2"), out
    figures = r"win share= *[\d.]+% ± *[\d.]+% .* decision ms p50= *[\d.]+ p99= *[\d.]+ cpu p99= *[\d.]+$"
    assert re.search(figures, lines[0]), out
    exact = float(re.search(r"exact bids=\s*([\d.]+)%", lines[0]).group(1))  # type: ignore[union-attr]
    # two games, rounds of 1 and 2 cards, three seats each: 6 seat-rounds per round size, 12 in all
    assert re.fullmatch(r"  exact by cards\s+1: +\d+% of 6, 2: +\d+% of 6", lines[1]), out
    counts = [int(n) for n in re.findall(r"of (\d+)", lines[2])]
    assert sum(counts) == 12, out
    rates = [(int(p), int(n)) for p, n in re.findall(r"(\d+)% of (\d+)", lines[3])]
    assert sum(n for _, n in rates) == 12, out
    # the overall rate is the seat-round-weighted mean of the parts (printed to whole and tenth percents)
    assert abs(sum(p * n for p, n in rates) / 12 - exact) <= 0.55, out


def test_wizard_oracle_bench_prints_each_game_and_the_mean() -> None:
    """A tiny run of bench/wizard_oracle.py (the deals once cards are played hold the real hands): it plays and
    prints; what it prints is never checked but for its form."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "wizard_oracle.py"), "--oracle", "play", "--players", "3", "--games",
         "2", "--seed", "5", "--option", "rounds=3"],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == ["seed 5", "seed 6"], out
    assert re.fullmatch(r"hard self-play, 3 players, oracle play, seeds 5-6: exact bids [\d.]+ %, mean score "
                        r"-?[\d.]+", lines[2]), out


def test_fuzz_bench_prints_its_figures() -> None:
    """A tiny run of bench/fuzz.py (it finds what it finds: the bench reports, it never fails on a finding)."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "fuzz.py"), "--lines", "300", "--clients", "6", "--workers", "2",
         "--seed", "15", "--grace", "0.5", "--window", "1"],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    figures = dict(line.split(None, 1) if not line.startswith(("monitor", "lines", "server", "internal", "stuck"))
                   else (" ".join(line.split()[:2]), " ".join(line.split()[2:])) for line in out.splitlines()
                   if line and not line.startswith(" "))
    assert re.match(r"300 junk \+ \d+ steering \(2 worker\(s\), 6 clients\)", figures["lines sent"]), out
    assert re.match(r"\d+ \(", figures["connections"]), out
    assert re.match(r"[\d.]+ s \(", figures["duration"]), out
    assert re.match(r"\d+ seen by fuzzing clients", figures["internal errors"]), out
    assert re.match(r"\d+ in the server log", figures["tracebacks"]), out
    assert re.match(r"dropped \d+, unanswered \d+", figures["well-behaved"]), out
    assert re.match(r"p50 [\d.]+ ms, p99 [\d.]+ ms, max [\d.]+ ms", figures["monitor /who"]), out
    assert figures["server alive"] == "yes", out


def test_load_bench_quick_prints_figures_and_ratios_for_each_mode() -> None:
    """``bench/load.py --quick`` in each mode: it runs both servers and prints its figure lines and the
    ratio line; the figures themselves are never checked."""
    for mode, label, keys in (("idle", "50 conns", ("login s", "KB/conn")),
                              ("play", "4 tables", ("moves/s", "cpu µs/cmd", "move p99", "turn p99", "µs/cmd 1 s min",
                                                    "µs/cmd 1 s max", "steal %")),
                              ("bots", "2 tables", ("/who p50", "/who p99", "steal %"))):
        out = subprocess.run(
            [sys.executable, str(ROOT / "bench" / "load.py"), "--quick", "--mode", mode, "--timeout", "60"],
            capture_output=True, text=True, timeout=120, check=True,
        ).stdout
        lines = out.splitlines()
        assert "worker(s) on uvloop" in lines[0], out  # the test extra has it: the generator runs as measured
        by_kind = [line for line in lines if "turns by kind" in line]
        for who in ("mudwiz #1", "floor  #1", "ratio mudwiz/floor"):
            found = [line for line in lines if line.startswith(f"{mode:4} {label:>12}  {who}") and line not in by_kind]
            assert len(found) == 1, out
            for key in keys:
                if key == "steal %" and who.startswith("ratio"):
                    assert key not in found[0], out  # the machine's figure, no ratio of the servers'
                    continue
                assert re.search(rf"{re.escape(key)} +(nan|[\d.]+x?)", found[0]), out
        if mode != "play":
            assert not by_kind, out
            continue
        # each play run's turns by what answered what: the floor only ever offers a play; a Wizard game bids too
        kind = r"(\w+>\w+) (\d+)% [\d.]+/[\d.]+ slowest (\d+)%"
        for who, verbs in (("mudwiz #1", {"play>play", "bid>bid"}), ("floor  #1", {"play>play"})):
            line = next(line for line in by_kind if line.startswith(f"{mode:4} {label:>12}  {who}"))
            rows = re.findall(kind, line)
            assert verbs <= {verb for verb, _, _ in rows}, out
            assert all(re.fullmatch(r"(play|bid|trump)>(play|bid|trump|ok|start)", verb) for verb, _, _ in rows), out
            assert 95 <= sum(int(share) for _, share, _ in rows) <= 102, out  # kinds under 0.5 % are left out
            assert re.search(r"the slowest 1% in \d+ of \d+ 100 ms slices; each second's p99: median [\d.]+, "
                             r"dearest [\d.]+ \(second \d+\); 100 ms slices: p95/p50 within one [\d.]+, their p50s "
                             r"p10/p50/p90 [\d.]+/[\d.]+/[\d.]+ ms", line), out


def test_ratings_bench_calibrates_each_bot_level_and_writes_nothing_unasked() -> None:
    """A tiny run of bench/ratings.py (the games' bot_ratings.py hold the figures of a long one): a line a level."""
    before = (ROOT / "mudwiz" / "games" / "witches" / "bot_ratings.py").read_bytes()
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "ratings.py"), "--only", "witches", "--games", "2"],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    rows = [re.fullmatch(r"witches\s+bot:(\w+)\s+mu=\s*([-\d.]+) sigma=\s*([\d.]+) shown=\s*(-?\d+)", line)
            for line in out.splitlines()]
    assert all(rows) and {row.group(1) for row in rows if row} == {"random", "easy", "normal", "hard"}, out
    assert all(float(row.group(3)) < 25 / 3 for row in rows if row), out  # two games made both surer
    assert (ROOT / "mudwiz" / "games" / "witches" / "bot_ratings.py").read_bytes() == before


def test_journal_bench_prints_its_figures() -> None:
    """A tiny run of bench/journal.py (docs/performance.md quotes its figures; they are never checked)."""
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "journal.py"), "--moves", "200", "--games", "1"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    lines = out.splitlines()
    figures = r" +n=\d+ +p50= *[\d.]+ µs  p99= *[\d.]+ µs  max= *[\d.]+ µs  mean= *[\d.]+ µs"
    assert [line.split("  ")[0].strip() for line in lines] == ["move", "move, records", "table's calls", "table"], out
    assert all(re.fullmatch(name + figures, line) for name, line in zip(("move", "move, records", "table's calls"),
                                                                          lines, strict=False)), out
    share = r"table +moves=\d+  \d+ µs a move .*, of which the journal [\d.]+ µs \([\d.]+%\)"
    assert re.fullmatch(share, lines[3]), out



def test_reactor_bench_measures_each_place_bots_think() -> None:
    """A tiny run of bench/reactor.py (docs/performance.md quotes its figures; they are never checked)."""
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "reactor.py"), "--where", "threads:1", "--where",
                          "processes:1", "--tables", "1", "--seconds", "1"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    rows = r"bots (threads:1|processes:1) +busy tables= 1  /who round trip ms: median=.* \(\d+ pings\)"
    assert len(out.splitlines()) == 2 and all(re.fullmatch(rows, line) for line in out.splitlines()), out


def test_load_bench_floor_work_spends_its_cpu_on_each_move() -> None:
    """``--floor-work US`` adds a floor that spends US µs of CPU on each move (docs/performance.md uses a scan of
    them to say what work a move may cost before the turn p99 target is missed): its CPU a command is at least
    that (a lower bound, not a timing: the busy loop counts the thread's own CPU), and ``--floors-only`` runs no
    mudwiz. On asyncio's own loop (``--loop``), so that the generator's other loop is run too."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "load.py"), "--quick", "--mode", "play", "--floors-only",
         "--floor-work", "3000", "--timeout", "60", "--loop", "asyncio"],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    assert "worker(s) on asyncio" in out, out
    assert "mudwiz #1" not in out, out
    assert re.search(r"^play +4 tables  floor  #1 ", out, re.M), out
    worked = re.search(r"^play +4 tables  floor\+3000 #1 .*cpu µs/cmd +([\d.]+)", out, re.M)
    assert worked is not None, out
    assert float(worked.group(1)) >= 2700, out  # every answered command is a move, each 3,000 µs of CPU or more


def test_moves_bench_prints_a_commands_cpu() -> None:
    """A tiny run of bench/moves.py: docs/performance.md quotes its figures. Every command it sends is a legal one
    the server offered, so nearly all are game moves (the rest ``/ok`` and ``/start``)."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "moves.py"), "--tables", "2", "--commands", "300"],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    found = re.fullmatch(r"moves 2 tables: 300 commands \((\d+) moves\) in [\d.]+ s CPU: \d+ µs/command, \d+ µs/move\n",
                         out)
    assert found is not None, out
    assert 200 < int(found.group(1)) <= 300, out


def test_steadiness_bench_prints_the_machines_speed_by_window() -> None:
    """A tiny run of bench/steadiness.py (docs/performance.md quotes its figures; they are never checked)."""
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "steadiness.py"), "--seconds", "1", "--window", "0.1"],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    found = re.fullmatch(r"steadiness: (\d+) windows of 0.1 s CPU; each window's speed as a share of the fastest's: "
                         r"slowest ([\d.]+), p10 ([\d.]+), median ([\d.]+); windows below 0.8: (\d+)\n", out)
    assert found is not None, out
    assert 1 <= int(found.group(1)) <= 11, out
    assert float(found.group(2)) <= float(found.group(3)) <= float(found.group(4)) <= 1.0, out


def test_burst_bench_times_others_while_one_connection_floods() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "burst.py"), "--kind", "help", "--seconds", "1"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    assert re.fullmatch(r"burst help +/who round trip ms: p50= *[\d.]+ p99= *[\d.]+ max= *[\d.]+ \(\d+ pings\)"
                        r"  flood answered +[\d.]+/s\n", out), out


def test_turn_slices_tells_the_spread_within_slices_from_round_ends() -> None:
    """bench/load.py's ``turn_slices`` on turns made up: ten slices of 20 turns, the fourth holding round ends and
    slower throughout, the others holding one round end or none."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from load import turn_slices
    finally:
        sys.path.remove(str(ROOT / "bench"))
    timed = []
    for at in range(10):
        base = 20.0 if at == 3 else 10.0
        for i in range(20):  # base .. base + 1 ms
            what = "play>ok" if at == 3 and i < 5 or at == 6 and i == 0 else "play>play"
            timed.append((100.0 + at / 10 + 0.01 + i / 1000, base + i / 19, what))
    line = turn_slices(timed, 100.0)
    assert line == "100 ms slices: p95/p50 within one 1.04, their p50s p10/p50/p90 10.5/10.5/11.5 ms; the tenth " \
                   "with the most round ends (5+ a slice): median p50 20.5 ms, the rest 10.5", line
    assert turn_slices(timed[:19], 100.0) == "too few turns a 100 ms slice"


def _bid_misses() -> Any:
    spec = importlib.util.spec_from_file_location("bid_misses", ROOT / "bench" / "bid_misses.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bid_misses"] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


def test_bid_misses_bench_accounts_for_every_bid() -> None:
    """Two short games of three: 3 seats × 3 rounds each; every miss is over- or under-taking, and lost either
    at the bid or in play; the places split the same bids."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bid_misses.py"), "--players", "3", "--games", "2", "--option",
         "rounds=3", "--seed", "98000"], capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    head = re.search(r"bids (\d+): exact +([\d.]+)% of \d+; misses (\d+): over-taking (\d+), under-taking (\d+); "
                     r"lost at the bid \(open play cannot make it\) (\d+), lost in play (\d+)", out)
    assert head is not None, out
    bids, exact, misses, over, under, at_bid, in_play = (float(g) for g in head.groups())
    assert bids == 18, out
    assert over + under == misses == at_bid + in_play, out
    assert abs(100 * (bids - misses) / bids - exact) < 0.06, out
    places = out.split("by place:\n")[1].split("by last:")[0]
    assert sum(int(n) for n in re.findall(r"exact +[\d.]+% of (\d+)", places)) == 18, out


def test_open_play_finds_the_card_that_makes_the_bid() -> None:
    """With every hand open: a lone Wizard cannot bid 0; holding a Wizard and a Jester it can take one trick,
    not two, nor, with two Jesters, one."""
    open_play = _bid_misses().open_play
    assert not open_play([["Z"], ["B1"], ["G2"]], 0, "R", [0, 0, 1], 0)
    assert open_play([["Z"], ["B1"], ["G2"]], 0, "R", [1, 0, 0], 0)
    assert open_play([["Z", "N"], ["B1", "B2"], ["G2", "G3"]], 0, "R", [1, 0, 1], 0)
    assert not open_play([["Z", "N"], ["B1", "B2"], ["G2", "G3"]], 0, "R", [2, 0, 0], 0)
    assert open_play([["Z", "R13"], ["B1", "B2"], ["G2", "G3"]], 0, "R", [2, 0, 0], 0)
    assert not open_play([["Z", "R13"], ["R12", "B2"], ["G2", "G3"]], 1, "R", [1, 1, 0], 0)
    assert not open_play([["N", "N"], ["B1", "B2"], ["G2", "G3"]], 0, "R", [1, 0, 0], 0)


def test_play_model_bench_records_hards_choices_and_fits_them(tmp_path: Path) -> None:
    """A tiny run of bench/play_model.py: a short game of ``hard`` self-play, every lead with a choice and every
    follow wanting tricks saved (the card played is in the hand it was played from), fitted and printed; a second
    run fits from the saved choices alone."""
    saved = tmp_path / "play.jsonl"
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "play_model.py"), "--players", "3", "--games", "1", "--rounds", "6",
         "--seed", "7000", "--thumb", "--save", str(saved)],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    seen = [json.loads(line) for line in saved.read_text().splitlines()]
    assert seen and all(c["card"] in c["hand"] and c["players"] == 3 for c in seen)
    leads = [c for c in seen if c["kind"] == "lead"]
    follows = [c for c in seen if c["kind"] == "follow"]
    # six rounds of 1 to 6 cards: a lead a trick, each trick of a round after the first but its last has a choice
    assert leads and len(leads) <= 1 + 2 + 3 + 4 + 5 + 6
    assert follows and all(c["trick"] and c["need"] > 0 for c in follows)
    found = re.findall(r"^leads, 3 players, wanting (tricks|none): (\d+) leads; the model picks hard's lead [\d.]+ % "
                       r"\(held out: [\d.]+ %\), the rule of thumb [\d.]+ %$", out, re.M)
    assert sum(int(n) for _, n in found) == len(leads), out
    ducks = re.findall(r"^ducks, 3 players: (\d+) follows that could take the trick or not; the model's call is "
                       r"hard's [\d.]+ % \(held out: [\d.]+ %\), always taking [\d.]+ %$", out, re.M)
    assert ducks and 0 < int(ducks[0]) <= len(follows), out
    again = subprocess.run([sys.executable, str(ROOT / "bench" / "play_model.py"), "--load", str(saved)],
                           capture_output=True, text=True, timeout=120, check=True).stdout
    assert again == out
