"""Wizard's own phases beside the ones every game has (``mudwiz.games.base.Phase``): the plugin declares them
(``GamePlugin.phases``), so the table, the renderers and the client learn them from it."""

from typing import Final

TRUMP: Final = "trump"  # the dealer names trump after a turned Wizard
BIDDING: Final = "bidding"
PHASES: Final = (TRUMP, BIDDING)  # in the order a round goes through them, before its play
