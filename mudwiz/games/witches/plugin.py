"""Witches as mudwiz offers it: a plugin like any other game's, which pyproject.toml registers in the
``mudwiz.games`` entry point group. Paths, not imports, for the parts only some processes use."""

from __future__ import annotations

from mudwiz.games.plugin import GamePlugin
from mudwiz.games.witches.bot_ratings import BOT_RATINGS
from mudwiz.games.witches.phases import PHASES
from mudwiz.games.witches.texts import N_

PLUGIN = GamePlugin(
    engine="mudwiz.games.witches.engine:Witches",
    renderer="mudwiz.games.witches.render",
    bots={"easy": "mudwiz.games.witches.levels:WitchesEasy", "normal": "mudwiz.games.witches.bots:WitchesGood",
          "hard": "mudwiz.games.witches.search:WitchesHard"},
    client="mudwiz.games.witches.client",
    low_wins=True,  # fire points count against you
    bot_ratings=BOT_RATINGS,
    phases=PHASES,
    prompts={"spell": N_("give or take"), "pass": N_("pass {count} cards")},
    card_choice="pass",  # ``/pass`` stands for any ``count`` cards of the hand (the view's ``pass``)
    round_start="hand_start",
    keys=(("Space", N_("Witches pass: choose / unchoose a card")),),
    order=2,
    letters=(("R", N_("red")), ("G", N_("green")), ("Y", N_("yellow")), ("B", N_("blue")), ("W", N_("a Wizard"))),
    rules_in={"ja": "mudwiz.games.witches.rules_ja:RULES_TEXT_JA"},
    legend_in={"ja": "mudwiz.games.witches.rules_ja:LEGEND_JA"},
    texts="mudwiz.games.witches.texts:TEXTS",
)
