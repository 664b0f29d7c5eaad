"""Instructions a command in the compiled modules, counted by valgrind's callgrind: the same on every run, however
busy the machine, where the clocks of ``bench/moves.py`` swing by a third on a shared 2-core box.

Runs ``bench/moves.py --tables 50 --turns --commands 3000`` under ``valgrind --tool=callgrind`` (~90 s) and prints,
for each function named below, the instructions spent in it and what it calls, per command (5,000 commands: the
warm-up's 2,000 and the logins counted in; compare builds, not absolute figures). Only compiled functions have
names to find (mypyc's ``CPyDef_module___Class___method``); interpreted code shows as the interpreter's loop.
Instructions are not time: a SIMD-heavy library (orjson) may run other code under valgrind than natively. Figures,
never assertions::

    python bench/instructions.py [--tables 50] [--commands 3000] [--keep FILE]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WARM_UP = 2000  # bench/moves.py's commands before the measured ones

FUNCTIONS = (
    "connection___Connection___receive", "core___Table___act", "base___Game___apply",
    "fanout___FanOut___send_states", "base___Game___split_views", "base___Game___views",
    "fanout___FanOut___events", "connection___ConnectionSession___deliver", "connection___Connection___send_line",
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--commands", type=int, default=3000)
    parser.add_argument("--keep", help="keep callgrind's output in this file (for callgrind_annotate)")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        raise SystemExit("needs valgrind (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory(prefix="mudwiz-callgrind-") as tmp:
        out = args.keep or str(Path(tmp) / "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
                        str(ROOT / "bench" / "moves.py"), "--tables", str(args.tables), "--turns",
                        "--commands", str(args.commands)], check=True, capture_output=True)
        report = subprocess.run(["callgrind_annotate", "--inclusive=yes", out], check=True, capture_output=True,
                                text=True).stdout
    counts: dict[str, int] = {}
    for line in report.splitlines():
        found = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+\S*:CPyDef_(\S+)", line)
        if found and found[2] in FUNCTIONS and found[2] not in counts:
            counts[found[2]] = int(found[1].replace(",", ""))
    commands = WARM_UP + args.commands
    print(f"instructions a command, {args.tables} tables, {commands} commands (callgrind, inclusive):")
    for name in FUNCTIONS:
        if name in counts:
            print(f"  {name.replace('___', '.'):45} {counts[name] / commands:12,.0f}")


if __name__ == "__main__":
    main()
