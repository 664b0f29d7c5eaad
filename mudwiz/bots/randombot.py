"""The ``random`` level: any legal action, uniformly. The baseline every other bot is measured against."""

from __future__ import annotations

from typing import Any

from mudwiz.bots import Bot


class RandomBot(Bot):
    def choose(self, view: dict[str, Any]) -> str | None:
        legal = [a for a in view["legal"] if not a.startswith(("catch ",))]
        if not legal:
            return None
        # Choose a move (verb and card) first, then one of its forms: otherwise a spell that may name any of
        # four colours and any player (Tiltowait's MILWA) would crowd out every plain card.
        moves: dict[str, list[str]] = {}
        for a in legal:
            moves.setdefault(" ".join(a.split()[:2]), []).append(a)
        action = self.rng.choice(moves[self.rng.choice(list(moves))])
        if action == "pass" and view.get("pass"):  # Witches: the pattern stands for any cards of the hand
            cards = self.rng.sample(view["hand"], view["pass"]["count"])
            return " ".join(["pass", *cards])
        return action
