"""``scripts/serve`` installs again only when what an install is built from changed (scripts/fingerprint.py):
the build's own files and the modules mypyc compiles, not the modules an editable install runs from source."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def fingerprint(root: Path) -> str:
    return subprocess.run([sys.executable, str(root / "scripts" / "fingerprint.py")], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_the_fingerprint_changes_with_a_compiled_module_and_the_build_not_with_other_source(tmp_path: Path) -> None:
    copy = tmp_path / "checkout"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".venv", ".git", "data", "*.so", "__pycache__"))
    first = fingerprint(copy)
    assert fingerprint(copy) == first  # the same tree, the same fingerprint
    (copy / "mudwiz" / "cli.py").write_text((copy / "mudwiz" / "cli.py").read_text() + "\n# run from source\n")
    (copy / "README.md").write_text("edited")
    assert fingerprint(copy) == first
    hot = copy / "mudwiz" / "session.py"  # a module compiled.py lists: its build would be stale
    hot.write_text(hot.read_text() + "\n# compiled\n")
    second = fingerprint(copy)
    assert second != first
    (copy / "pyproject.toml").write_text((copy / "pyproject.toml").read_text() + "\n# a dependency\n")
    assert fingerprint(copy) not in (first, second)


def test_serve_on_an_installed_checkout_starts_without_installing(tmp_path: Path) -> None:
    copy = tmp_path / "checkout"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".venv", ".git", "data", "*.so", "__pycache__"))
    bin_dir = copy / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    # the installed program, standing in for the server: says how it was called; no pip in this .venv at all
    (bin_dir / "mudwiz").write_text("#!/bin/sh\necho \"mudwiz $*\"\n")
    (bin_dir / "mudwiz").chmod(0o755)
    (copy / ".venv" / ".mudwiz-installed").write_text(fingerprint(copy) + "\n")
    run = subprocess.run([str(copy / "scripts" / "serve"), "--listen", "tcp:0"], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "mudwiz serve --listen tcp:0\n" and "installing" not in run.stderr
    # one compiled module edited: the same start now installs first (and says so), which this .venv cannot do
    hot = copy / "mudwiz" / "session.py"
    hot.write_text(hot.read_text() + "\n# compiled\n")
    run = subprocess.run([str(copy / "scripts" / "serve")], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(tmp_path)})
    assert "the source changed since it was installed: installing again" in run.stderr
