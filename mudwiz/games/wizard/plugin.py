"""Wizard as mudwiz offers it: a plugin like any other game's, which pyproject.toml registers in the
``mudwiz.games`` entry point group. Paths, not imports, for the parts only some processes use."""

from __future__ import annotations

from mudwiz.games.plugin import GamePlugin
from mudwiz.games.wizard.bot_ratings import BOT_RATINGS
from mudwiz.games.wizard.phases import PHASES

PLUGIN = GamePlugin(
    engine="mudwiz.games.wizard.engine:Wizard",
    renderer="mudwiz.games.wizard.render",
    bots={"easy": "mudwiz.games.wizard.levels:WizardEasy", "normal": "mudwiz.games.wizard.bots:WizardGood",
          "hard": "mudwiz.games.wizard.levels:WizardHard"},
    client="mudwiz.games.wizard.client",
    bot_ratings=BOT_RATINGS,
    phases=PHASES,
    prompts={"trump": "name trump"},
    round_start="round_start",
    order=1,
    letters=(("B", "blue"), ("G", "green"), ("R", "red"), ("Y", "yellow"), ("Z", "a Wizard"), ("N", "a Jester")),
)
