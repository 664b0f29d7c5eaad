#!/usr/bin/env python3
"""The message catalogs, kept with Babel (mudwiz/texts/catalogs.py; docs/translating.md):

    .venv/bin/python scripts/i18n.py update [DOMAIN ...] [--lang ja]   extract the marked texts, merge them into the .po
    .venv/bin/python scripts/i18n.py check  [DOMAIN ...] [--lang ja]   list what is not translated (exit 1 if any)
    .venv/bin/python scripts/i18n.py compile [DOMAIN ...] [--lang ja]  compile each .po as the server does; counts

DOMAIN is ``mudwiz`` (the core) or a game package's name (its catalog: mudwiz/games/<name>/locale/); none: all.
"""

from __future__ import annotations

import argparse
import sys
from io import BytesIO
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from babel.messages.mofile import write_mo  # noqa: E402

from mudwiz.texts import catalogs  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=("update", "check", "compile"))
    parser.add_argument("domains", nargs="*", help="mudwiz, or a game package's name (default: all)")
    parser.add_argument("--lang", default="ja", help="the catalogs' language (default: ja)")
    args = parser.parse_args(argv)
    chosen = [s for s in catalogs.sources() if not args.domains or s.domain in args.domains]
    unknown = set(args.domains) - {s.domain for s in chosen}
    if unknown:
        parser.error(f"no such domain: {', '.join(sorted(unknown))}")
    failed = False
    for source in chosen:
        if args.action == "update":
            print(catalogs.update(source, args.lang))
        elif args.action == "check":
            for line in catalogs.missing(source, args.lang):
                print(line)
                failed = True
        else:
            catalog = catalogs.read(source, args.lang)
            if catalog is not None:
                write_mo(BytesIO(), catalog)
            marked, translated = catalogs.counts(source, args.lang)
            print(f"{source.domain}: {marked} texts marked, {translated} translated into {args.lang}"
                  + ("" if catalog is not None else f" (no {args.lang} catalog)"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
