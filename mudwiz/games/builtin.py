"""The three games mudwiz ships, as plugins like any other: ``pyproject.toml`` registers each of these in the
``mudwiz.games`` entry point group. Paths, not imports, so one engine that fails to import costs only itself."""

from __future__ import annotations

from mudwiz.games.plugin import GamePlugin

WIZARD = GamePlugin(
    engine="mudwiz.games.wizard:Wizard",
    renderer="mudwiz.render.wizard",
    bots={"good": "mudwiz.bots.wizard_good:WizardGood"},
    client="mudwiz.client.games.wizard",
)
WITCHES = GamePlugin(
    engine="mudwiz.games.witches:Witches",
    renderer="mudwiz.render.witches",
    bots={"good": "mudwiz.bots.witches_good:WitchesGood"},
    client="mudwiz.client.games.witches",
    low_wins=True,  # fire points count against you
)
TILTOWAIT = GamePlugin(
    engine="mudwiz.games.tiltowait:Tiltowait",
    renderer="mudwiz.render.tiltowait",
    bots={"good": "mudwiz.bots.tiltowait_good:TiltowaitGood"},
    client="mudwiz.client.games.tiltowait",
)

# name -> plugin, in the order games are listed (the entry points' own order is not defined)
BUILTIN = {"wizard": WIZARD, "witches": WITCHES, "tiltowait": TILTOWAIT}
