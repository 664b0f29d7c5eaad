"""Tiltowait as mudwiz offers it: a plugin like any other game's, which pyproject.toml registers in the
``mudwiz.games`` entry point group. Paths, not imports, for the parts only some processes use."""

from __future__ import annotations

from mudwiz.games.plugin import GamePlugin
from mudwiz.games.tiltowait.bot_ratings import BOT_RATINGS
from mudwiz.games.tiltowait.cards import KARUKI
from mudwiz.texts import N_

PLUGIN = GamePlugin(
    engine="mudwiz.games.tiltowait.engine:Tiltowait",
    renderer="mudwiz.games.tiltowait.render",
    bots={"easy": "mudwiz.games.tiltowait.levels:TiltowaitEasy", "normal": "mudwiz.games.tiltowait.bots:TiltowaitGood",
          "hard": "mudwiz.games.tiltowait.levels:TiltowaitHard"},
    client="mudwiz.games.tiltowait.client",
    bot_ratings=BOT_RATINGS,
    calls=(KARUKI,),  # ``/play R3 karuki``: the discard that leaves one card, with the call
    round_start="hand_start",
    sections={"spells": N_("the spells and what each does: Tiltowait's nine")},  # the core's /help shows it
    order=3,
    letters=(("K", "black"), ("R", "red"), ("G", "gold"), ("B", "blue")),
    rules_in={"ja": "mudwiz.games.tiltowait.rules_ja:RULES_TEXT_JA"},
    legend_in={"ja": "mudwiz.games.tiltowait.rules_ja:LEGEND_JA"},
    texts="mudwiz.games.tiltowait.texts:TEXTS",
)
