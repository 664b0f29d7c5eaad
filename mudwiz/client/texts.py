"""The client's texts in every language: its own gettext domain, ``client``, whose catalogs are this package's
``locale/<lang>/LC_MESSAGES/client.po`` (mudwiz/texts; ``scripts/i18n.py update client``), as a game keeps its
own: the client is installed and run apart from the server, and its words (panes, keys, prompts) are no server's.

The client speaks one language, its user's: ``--lang``, else the environment's ``LC_ALL``, ``LC_MESSAGES`` or
``LANG`` as gettext reads them (``ja_JP.UTF-8`` is ``ja``), else English; it tells the server the same
(``/lang``), so what the server words reads in that language too."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from mudwiz.texts import ENGLISH, Domain, normalize

TEXTS = Domain("client", Path(__file__).resolve().parent / "locale")
_ = TEXTS.now
_n = TEXTS.now_n
later = TEXTS.later
later_n = TEXTS.later_n
ENVIRONMENT = ("LC_ALL", "LC_MESSAGES", "LANG")  # gettext's order: the first one set says the language


def has_catalog(lang: str) -> bool:
    """The client has words in ``lang`` (English always: its msgids)."""
    return lang == ENGLISH or (TEXTS.directory / lang / "LC_MESSAGES" / f"{TEXTS.name}.po").is_file()


def client_lang(chosen: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language the client speaks: ``chosen`` (``--lang``) if it has a catalog, else the environment's first
    locale variable that is set (an unknown language or ``C`` reads as English, as gettext falls back)."""
    if chosen:
        lang = normalize(chosen)
        return lang if lang is not None and has_catalog(lang) else ENGLISH
    env = os.environ if environ is None else environ
    value = next((env[name] for name in ENVIRONMENT if env.get(name)), None)
    lang = normalize(value)
    return lang if lang is not None and has_catalog(lang) else ENGLISH
