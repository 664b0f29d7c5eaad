"""What an install of this checkout was built from, as one hash: ``scripts/serve`` installs again only when it
differs from the one written after the last install.

An editable install runs every module from the source, except those mypyc compiles (``mudwiz/compiled.py``'s
``HOT``), which run as built; and the install itself is made from ``pyproject.toml`` and ``setup.py``. So those
files, the hot modules' sources and whether compiling is refused (``MUDWIZ_COMPILE``) are what an install is
stale against. Read without importing mudwiz, which may not be installed yet.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def fingerprint(root: Path = ROOT) -> str:
    namespace: dict[str, object] = {"__file__": str(root / "mudwiz" / "compiled.py"), "__name__": "fingerprint"}
    exec((root / "mudwiz" / "compiled.py").read_text(), namespace)
    source = namespace["source"]
    files = [root / "pyproject.toml", root / "setup.py", root / "mudwiz" / "compiled.py"]
    files += [source(hot, root / "mudwiz") for hot in namespace["HOT"]]  # type: ignore[operator, attr-defined]
    digest = hashlib.sha256(f"{sys.version_info[:2]} MUDWIZ_COMPILE={os.environ.get('MUDWIZ_COMPILE', '1')}".encode())
    for path in files:
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        digest.update(path.read_bytes() if path.exists() else b"(missing)")
    return digest.hexdigest()


if __name__ == "__main__":
    print(fingerprint())
