"""The ``random`` level: any legal action, uniformly. The baseline every other bot is measured against."""

from __future__ import annotations

from typing import Any

from mudwiz.bots import Bot
from mudwiz.games import plugin


class RandomBot(Bot):
    def choose(self, view: dict[str, Any]) -> str | None:
        found = plugin(self.game)
        reactions = found.engine_class.REACTION_VERBS if found is not None else frozenset()
        legal = [a for a in view["legal"] if a.split()[0] not in reactions]  # races a person: not a random move
        if not legal:
            return None
        # Choose a move (verb and card) first, then one of its forms: otherwise a spell that may name any of
        # four colours and any player (Tiltowait's MILWA) would crowd out every plain card.
        moves: dict[str, list[str]] = {}
        for a in legal:
            moves.setdefault(" ".join(a.split()[:2]), []).append(a)
        action = self.rng.choice(moves[self.rng.choice(list(moves))])
        pick = found.card_choice if found is not None else None
        if pick is not None and action == pick and view.get(pick):  # the pattern stands for any cards of the hand
            cards = self.rng.sample(view["hand"], view[pick]["count"])
            return " ".join([pick, *cards])
        return action
