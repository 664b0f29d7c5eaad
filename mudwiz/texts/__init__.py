"""Every line a person reads, in their language: gettext catalogs (``locale/<lang>/LC_MESSAGES/<domain>.po``,
kept with Babel: scripts/i18n.py) and the language being spoken now.

The language is a ``ContextVar``: the connection speaks its user's (``speaking(session.lang)``) while it handles
their line and while it renders a message to them, so a text is put into words for whoever reads it, never for
whoever caused it. ``_("msgid", **params)`` translates at once (a reply to the user whose line this is);
``later("msgid", **params)`` keeps the msgid and its params (a ``Later``) and translates each time it is turned
into text: a notice sent to many, a table's event, an error that crosses the cluster's bus (``Later.to_json``),
each read in the reader's own language. The English source texts are the msgids; params are ``str.format``'s
named fields, filled in after translation, so a translation may put them in its own order.

The core's domain is ``mudwiz`` (mudwiz/locale/). A game package keeps its own catalog in its own domain
(``mudwiz/games/<name>/locale/``): ``Domain(name, directory)`` in the game's module, which its plugin names
(``GamePlugin.texts``), so the core never names a game and a ``Later`` from any domain renders anywhere.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from gettext import GNUTranslations, NullTranslations
from io import BytesIO
from pathlib import Path
from typing import Any

ENGLISH = "en"  # the msgids' language: no catalog, every text as written
LOCALE = Path(__file__).resolve().parent.parent / "locale"  # the core's catalogs


def normalize(value: str | None) -> str | None:
    """A language as a client or the environment names it (``ja_JP.UTF-8``, ``ja``, ``en_US``, ``C``) as the
    catalogs' name (``ja``); None for none or a locale that says nothing of a language (``C``, ``POSIX``)."""
    if not value:
        return None
    code = value.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    if not code or code in ("c", "posix") or not code.isalpha():
        return None
    return code


def _server_default() -> str:
    """The server's language for every new connection (``MUDWIZ_LANG``, a language with a catalog), else English."""
    lang = normalize(os.environ.get("MUDWIZ_LANG"))
    return lang if lang is not None and lang in languages() else ENGLISH


def languages() -> tuple[str, ...]:
    """The languages a person may choose: English and each with a core catalog, in name order."""
    found = {path.parent.parent.name for path in LOCALE.glob("*/LC_MESSAGES/mudwiz.po")}
    return (ENGLISH, *sorted(found - {ENGLISH}))


def pick(value: str | None) -> str | None:
    """``value`` (any spelling ``normalize`` reads) as a language with a catalog, or None."""
    lang = normalize(value)
    return lang if lang is not None and lang in languages() else None


_current: ContextVar[str] = ContextVar("mudwiz_lang")
_default = [ENGLISH]  # what ``current`` is outside any ``speaking``: set once, from MUDWIZ_LANG, by ``start``


def start() -> str:
    """Read ``MUDWIZ_LANG`` (the server's language, docs/operations.md): once at start, and by a test that sets it."""
    _default[0] = _server_default()
    return _default[0]


def default() -> str:
    """The server's language: a new session's, and whatever is said outside a user's context (logs are English)."""
    return _default[0]


def current() -> str:
    return _current.get(_default[0])


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Within: every text is put into ``lang``."""
    token = _current.set(lang)
    try:
        yield
    finally:
        _current.reset(token)


class Domain:
    """One catalog's texts, in every language it has (``directory/<lang>/LC_MESSAGES/<name>.po``), each read once
    when first asked for: the .po is compiled in memory (Babel's ``read_po``, ``write_mo``), so no compiled .mo
    is kept beside it to go stale. A language without a catalog, or a text not translated in it, reads as the
    English msgid."""

    def __init__(self, name: str, directory: Path) -> None:
        self.name = name
        self.directory = directory
        self._loaded: dict[str, NullTranslations] = {}
        DOMAINS[name] = self

    def catalog(self, lang: str) -> NullTranslations:
        found = self._loaded.get(lang)
        if found is None:
            found = self._loaded[lang] = self._read(lang)
        return found

    def _read(self, lang: str) -> NullTranslations:
        path = self.directory / lang / "LC_MESSAGES" / f"{self.name}.po"
        if lang == ENGLISH or not path.is_file():
            return NullTranslations()
        from babel.messages.mofile import write_mo  # only once a catalog is read: English needs no Babel
        from babel.messages.pofile import read_po

        with path.open("rb") as po:
            catalog = read_po(po, locale=lang, domain=self.name)
        buffer = BytesIO()
        write_mo(buffer, catalog)  # fuzzy entries left out: a guess is not a translation
        buffer.seek(0)
        return GNUTranslations(buffer)

    def now(self, msgid: str, **params: Any) -> str:
        """``msgid`` in the current language, its ``{fields}`` filled from ``params``."""
        return fill(self.catalog(current()).gettext(msgid), params)

    def now_n(self, singular: str, plural: str, n: int, **params: Any) -> str:
        """The form for ``n`` (``{n}`` is filled too) in the current language."""
        return fill(self.catalog(current()).ngettext(singular, plural, n), {"n": n, **params})

    def later(self, msgid: str, **params: Any) -> Later:
        """``msgid`` kept to be put into words by each reader (``Later``)."""
        return Later(self.name, msgid, params)

    def later_n(self, singular: str, plural: str, n: int, **params: Any) -> Later:
        return Later(self.name, singular, {"n": n, **params}, plural)


DOMAINS: dict[str, Domain] = {}


def fill(text: str, params: Mapping[str, Any], lang: str | None = None) -> str:
    """``text``'s ``{fields}`` from ``params`` (a ``Later`` among them put into ``lang``, else the current
    language); as it is without params, so a text with a literal brace needs none doubled."""
    if not params:
        return text
    return text.format(**{k: v.into(lang or current()) if isinstance(v, Later) else v for k, v in params.items()})


class Later:
    """A text not yet in any language: its domain, msgid (and plural msgid) and params. ``str()`` puts it into the
    current language; equal to the English text, so code and tests comparing with English keep working."""

    __slots__ = ("domain", "msgid", "params", "plural")

    def __init__(self, domain: str, msgid: str, params: Mapping[str, Any] | None = None,
                 plural: str | None = None) -> None:
        self.domain = domain
        self.msgid = msgid
        self.params = dict(params or {})
        self.plural = plural

    def __str__(self) -> str:
        return self.into(current())

    def into(self, lang: str) -> str:
        """This text in ``lang``."""
        domain = DOMAINS.get(self.domain) or CORE
        catalog = domain.catalog(lang)
        if self.plural is None:
            return fill(catalog.gettext(self.msgid), self.params, lang)
        return fill(catalog.ngettext(self.msgid, self.plural, int(self.params.get("n", 1))), self.params, lang)

    def english(self) -> str:
        return self.into(ENGLISH)

    def __repr__(self) -> str:
        return f"Later({self.english()!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Later):
            return (self.domain, self.msgid, self.params, self.plural) == (
                other.domain, other.msgid, other.params, other.plural)
        if isinstance(other, str):
            return self.english() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.english())

    def __contains__(self, part: str) -> bool:
        return part in self.english()

    def to_json(self) -> dict[str, Any]:
        """As it crosses the cluster's bus: the msgid and params, never one language's text."""
        params = {k: v.to_json() if isinstance(v, Later) else v for k, v in self.params.items()}
        out: dict[str, Any] = {MARK: self.msgid, "domain": self.domain, "params": params}
        if self.plural is not None:
            out["plural"] = self.plural
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Later:
        params = {k: cls.from_json(v) if isinstance(v, dict) and MARK in v else v
                  for k, v in data.get("params", {}).items()}
        return cls(str(data.get("domain", CORE.name)), str(data[MARK]), params, data.get("plural"))


MARK = "$later"  # the key that marks a ``Later`` as JSON (``to_json``): no message of the protocol has it


def as_json(value: Any) -> Any:
    """An encoder's ``default`` for what crosses between processes: a ``Later`` as its msgid and params, so the
    reader's own process puts it into their language (``revive``)."""
    if isinstance(value, Later):
        return value.to_json()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def revive(value: Any) -> Any:
    """``value`` decoded from another process with every ``Later`` it carried made one again."""
    if isinstance(value, dict):
        if MARK in value:
            return Later.from_json(value)
        return {key: revive(item) for key, item in value.items()}
    if isinstance(value, list):
        return [revive(item) for item in value]
    return value


def english(value: Any) -> str:
    """A text as the logs say it: a ``Later`` in English, whatever the language spoken now."""
    return value.english() if isinstance(value, Later) else str(value)


def words(value: Any) -> Any:
    """``value`` (a message, or any part of one) with every ``Later`` in it put into the current language: what a
    renderer that reads text is handed. Unchanged (the same object) when it holds none."""
    if type(value) is Later:
        return str(value)
    if isinstance(value, dict):
        done = {key: words(item) for key, item in value.items()}
        return value if all(done[key] is item for key, item in value.items()) else done
    if isinstance(value, list | tuple):
        items = [words(item) for item in value]
        return value if all(a is b for a, b in zip(items, value, strict=True)) else type(value)(items)
    return value


CORE = Domain("mudwiz", LOCALE)
_ = now = CORE.now  # ``now``: the same, where ``_`` is a module's throwaway name
_n = now_n = CORE.now_n
later = CORE.later
later_n = CORE.later_n


def N_(msgid: str) -> str:  # noqa: N802  (gettext's name for it, which the extractor knows)
    """Marks a text for the catalog where it is written, to be translated where it is shown (``_(name)``)."""
    return msgid


start()
