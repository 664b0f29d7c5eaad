"""Witches' own phases beside the ones every game has (``mudwiz.games.base.Phase``): the plugin declares them
(``GamePlugin.phases``), so the table, the renderers and the client learn them from it."""

from typing import Final

PASSING: Final = "passing"  # every player passes cards at once, before the play
SPELL: Final = "spell"  # after the play: the caster chooses what the spell does
PHASES: Final = (PASSING, SPELL)
