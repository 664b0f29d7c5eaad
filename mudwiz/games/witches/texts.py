"""Witches' texts in every language: its own gettext domain, ``witches``, whose catalogs are this package's
``locale/<lang>/LC_MESSAGES/witches.po`` (mudwiz/texts; ``scripts/i18n.py update witches``). The plugin names it
(``texts``), so the core reads the game's texts without naming the game. Mark a text with these, imported from
here: ``later("...", **params)`` for anything sent or kept, ``_("...")`` for a text needed as a str now, ``N_``
for a constant shown elsewhere (the names in ``names``, the VERBS' and options' help)."""

from __future__ import annotations

from pathlib import Path

from mudwiz.texts import N_ as N_
from mudwiz.texts import Domain

TEXTS = Domain("witches", Path(__file__).resolve().parent / "locale")
_ = now = TEXTS.now  # ``now``: the same, where ``_`` is a module's throwaway name
_n = now_n = TEXTS.now_n
later = TEXTS.later
later_n = TEXTS.later_n
