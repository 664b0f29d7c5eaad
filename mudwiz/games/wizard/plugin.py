"""Wizard as mudwiz offers it: a plugin like any other game's, which pyproject.toml registers in the
``mudwiz.games`` entry point group. Paths, not imports, for the parts only some processes use."""

from __future__ import annotations

from mudwiz.games.plugin import GamePlugin
from mudwiz.games.wizard.bot_ratings import BOT_RATINGS
from mudwiz.games.wizard.phases import PHASES
from mudwiz.texts import N_

PLUGIN = GamePlugin(
    engine="mudwiz.games.wizard.engine:Wizard",
    renderer="mudwiz.games.wizard.render",
    bots={"easy": "mudwiz.games.wizard.levels:WizardEasy", "normal": "mudwiz.games.wizard.bots:WizardGood",
          "hard": "mudwiz.games.wizard.levels:WizardHard"},
    client="mudwiz.games.wizard.client",
    bot_ratings=BOT_RATINGS,
    phases=PHASES,
    prompts={"trump": N_("name trump")},  # marked for the catalog: the client says it in its reader's language
    round_start="round_start",
    order=1,
    letters=(("B", N_("blue")), ("G", N_("green")), ("R", N_("red")), ("Y", N_("yellow")), ("Z", N_("a Wizard")),
             ("N", N_("a Jester"))),  # English where /rules says them; the Japanese legend is LEGEND_JA's
    rules_in={"ja": "mudwiz.games.wizard.rules_ja:RULES_TEXT_JA"},
    legend_in={"ja": "mudwiz.games.wizard.rules_ja:LEGEND_JA"},
    texts="mudwiz.games.wizard.texts:TEXTS",
    analysis="mudwiz.games.wizard.analysis:analyse",
)
