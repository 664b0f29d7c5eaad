"""Wizard, whole, in one package: the rules (``engine``), what each seat may see (``views``), the rules in brief
(``rules``), the terminal's drawing (``render``), the bot levels (``bots``) and their ratings (``bot_ratings``),
the terminal client's hints (``client``), and the plugin that ties them together (``plugin.PLUGIN``, which
pyproject.toml's ``mudwiz.games`` entry point names). The game's page, its decisions included, is
docs/wizard.md."""

from mudwiz.games.wizard.engine import Wizard

# The modules on a move's path, and on the bots' decisions' (the playouts and the race's arithmetic), compiled with
# mypyc (mudwiz/compiled.py reads this line as text).
HOT = ("phases", "cards", "views", "engine", "playouts", "racing")

__all__ = ["Wizard"]
