"""The catalogs kept with Babel, the standard extractor and compiler: which domains there are, every marked text
of each extracted from the source, a language's .po brought up to date with them, and what is not translated yet.
scripts/i18n.py runs these; tests/house/test_catalogs.py fails on what ``missing`` finds. Never imported by the
server, which only reads the .po files (``Domain``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from mudwiz.texts import CORE

PACKAGE = Path(__file__).resolve().parent.parent  # mudwiz/
# the marking functions as the extractor knows them: a game binds its own Domain's methods to the same names
KEYWORDS = {"_": None, "now": None, "later": None, "_n": (1, 2), "now_n": (1, 2), "later_n": (1, 2), "N_": None}
# the catalogs' own header dates: fixed, so a .po changes only where its texts do (two branches' updates merge)
DATE = datetime(2026, 12, 6, tzinfo=UTC)
FIELD = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)[^{}]*\}")  # a str.format field: {name}, {n:>3}


@dataclass(frozen=True)
class Source:
    """One domain: its name, the directory its texts are marked in, the directory of its catalogs, and the
    directories under the first that are other domains' (the core's source holds each game's package)."""

    domain: str
    source: Path
    locale: Path
    others: tuple[Path, ...] = ()

    def po(self, lang: str) -> Path:
        return self.locale / lang / "LC_MESSAGES" / f"{self.domain}.po"


def sources(package: Path = PACKAGE) -> list[Source]:
    """The core's domain and one per package of ``package`` that keeps its own: each game's (a package under
    games/, named as its directory, with its catalogs in its own ``locale/``) and any other package with a
    ``locale/`` of its own (the terminal client's, ``client``)."""
    games = sorted(p.parent for p in package.glob("games/*/__init__.py"))
    own = sorted(p.parent for p in package.glob("*/locale") if (p.parent / "__init__.py").is_file())
    parts = [*games, *own]
    core = Source(CORE.name, package, package / "locale", tuple(parts))
    return [core, *(Source(part.name, part, part / "locale") for part in parts)]


def extract(source: Source) -> Catalog:
    """Every text marked in ``source`` (``_`` or ``now``, ``later``, ``_n`` or ``now_n``, ``later_n``, ``N_``),
    with where it is."""
    catalog = Catalog(domain=source.domain, project="mudwiz", version="", charset="utf-8", creation_date=DATE,
                      revision_date=DATE, copyright_holder="the mudwiz authors", msgid_bugs_address="",
                      last_translator="the mudwiz authors", language_team="the mudwiz authors")
    skip = {str(p.relative_to(source.source)) for p in source.others}

    def wanted(dirname: str) -> bool:
        relative = str(Path(dirname).resolve().relative_to(source.source.resolve()))
        return relative not in skip and not Path(dirname).name.startswith((".", "__"))

    for filename, lineno, message, comments, context in extract_from_dir(
            str(source.source), [("**.py", "python")], keywords=KEYWORDS, directory_filter=wanted):
        if not message or (isinstance(message, tuple) and not message[0]):
            continue  # ``_(name)``: a text marked where it is written (``N_``), not here
        catalog.add(message, locations=[(f"{source.source.name}/{filename}", lineno)], auto_comments=comments,
                    context=context)
    return catalog


def update(source: Source, lang: str) -> Path:
    """``lang``'s .po of ``source`` made or brought up to date with the texts marked now (a text changed in
    the source keeps its old translation, marked fuzzy, until a translator looks at it again)."""
    template = extract(source)
    path = source.po(lang)
    if path.exists():
        with path.open("rb") as f:
            catalog = read_po(f, locale=lang, domain=source.domain)
        catalog.update(template, update_header_comment=False)
    else:
        catalog = Catalog(locale=lang, domain=source.domain, project="mudwiz", version="", charset="utf-8",
                          creation_date=DATE, revision_date=DATE, copyright_holder="the mudwiz authors",
                          last_translator="the mudwiz authors", language_team="the mudwiz authors", fuzzy=False)
        catalog.update(template)
        path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=120, ignore_obsolete=True, include_lineno=False)  # no churn as lines move
    return path


def read(source: Source, lang: str) -> Catalog | None:
    path = source.po(lang)
    if not path.exists():
        return None
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=source.domain)


def fields(text: str) -> set[str]:
    return set(FIELD.findall(text))


def ids(message: Message) -> tuple[str, str | None]:
    """A catalog entry's msgid and plural msgid (None: no plural)."""
    if isinstance(message.id, str):
        return message.id, None
    return str(message.id[0]), str(message.id[1])


def missing(source: Source, lang: str) -> Iterator[str]:
    """What is wrong with ``lang``'s catalog of ``source``, one line each: a marked text with no translation (or
    only a fuzzy one), and a translation whose ``{fields}`` are not its msgid's (it would fail, or lose one)."""
    catalog = read(source, lang)
    for message in extract(source):
        if not message.id:
            continue
        msgid, plural = ids(message)
        where = ", ".join(f"{f}:{n}" for f, n in message.locations[:1])
        found = catalog.get(message.id, message.context) if catalog is not None else None
        strings = (found.string if found is not None else None) or ""
        translations = [s for s in ([strings] if isinstance(strings, str) else strings) if s]
        if found is None or not translations or found.fuzzy:
            yield f"{where}: {msgid!r} has no {lang} translation"
            continue
        wanted = fields(msgid) | fields(plural or "")
        for translation in translations:
            if fields(translation) - wanted or fields(msgid) - fields(translation) - {"n"}:
                yield f"{where}: {msgid!r}: the {lang} translation's fields are not the msgid's: {translation!r}"


def counts(source: Source, lang: str) -> tuple[int, int]:
    """(texts marked, texts translated into ``lang`` as ``missing`` wants them)."""
    marked = {repr(ids(m)[0]) for m in extract(source) if m.id}
    wrong = {line.split(": ", 1)[1].split(" has no ")[0].split(": the ")[0] for line in missing(source, lang)}
    return len(marked), len(marked - wrong)
