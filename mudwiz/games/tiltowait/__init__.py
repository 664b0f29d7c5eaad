"""Tiltowait, whole, in one package: the rules (``engine``), what each seat may see (``views``), the rules in brief
(``rules``), the terminal's drawing (``render``), the bot levels (``bots``) and their ratings (``bot_ratings``),
the terminal client's hints (``client``), and the plugin that ties them together (``plugin.PLUGIN``, which
pyproject.toml's ``mudwiz.games`` entry point names). The game's page, its decisions included, is
docs/tiltowait.md."""

from mudwiz.games.tiltowait.engine import Tiltowait

__all__ = ["Tiltowait"]
