"""What a seat may see of a Wizard game (the game's part of ``Game.view``), apart from the rules that change it, as
OpenSpiel keeps its observers apart from its states: the engine (``engine.Wizard``) stands on this class."""

from __future__ import annotations

from typing import Any

from mudwiz.games.base import Phase, Seat, TrickTakingGame
from mudwiz.games.wizard.cards import (
    _ORDER,
    HIDDEN,
    lead_suit,
    round_score,
)


class WizardViews(TrickTakingGame):
    """The state a round holds, as the engine's moves set it, and what each seat may know of it."""

    sizes: tuple[int, ...]  # cards dealt each round
    bids: list[int | None]
    stock: list[str]
    turned: str | None  # the card turned for trump
    trump: str | None
    first_leader: Seat
    revealed_play: set[Seat]

    @property
    def size(self) -> int:
        return self.sizes[self.round - 1]

    @property
    def hidden_bids(self) -> bool:
        return bool(self.options["hiddentip"] or self.options["secretbid"])

    @property
    def clairvoyant(self) -> bool:
        return bool(self.options["clairvoyance"]) and self.round == 1

    def forbidden_bid(self, seat: Seat) -> int | None:
        """Under notequal, the one bid the dealer may not make (None if every bid is allowed)."""
        if not self.options["notequal"] or seat != self.dealer:
            return None
        rest = self.size - sum(b for b in self.bids if b is not None)
        return rest if 0 <= rest <= self.size else None

    def bid_visible(self, of: Seat, viewer: Seat | None) -> bool:
        if self.bids[of] is None:
            return False
        if of == viewer or not self.hidden_bids or self._phase in (Phase.ROUNDEND, Phase.GAMEOVER):
            return True
        return bool(self.options["hiddentip"]) and self._phase == Phase.PLAYING

    def lead(self) -> str | None:
        return lead_suit([c for _, c in self.trick])

    def _rounds(self) -> int:
        return len(self.sizes)

    def _hand(self, seat: Seat) -> list[str]:
        if self.clairvoyant:
            return [HIDDEN] * len(self.hands[seat])
        return self._shown_hand(seat, self.hands[seat], _ORDER)

    def _players_seen_by(self, viewer: Seat | None) -> list[dict[str, Any]]:
        """The players' entries, each built as one dict (what ``Game._players_seen_by`` merges from the common
        fields and ``_player``'s, which for Wizard it would build in two more): four of them every update, and
        those merges were a tenth of it."""
        played: list[str | None] = [None] * len(self.players)
        for s, card in self.trick:
            played[s] = card
        scores, tricks, hands, bids = self.scores, self.tricks, self.hands, self.bids
        open_cards = viewer is not None and self.clairvoyant
        live = self._round_live()
        entries = []
        for seat, name in enumerate(self.players):
            made = bids[seat]
            bid = made if made is not None and self.bid_visible(seat, viewer) else None
            entry = {"name": name, "score": scores[seat], "tricks": tricks[seat], "held": len(hands[seat]),
                     "played": played[seat],
                     "projected": None if bid is None or not live else scores[seat] + round_score(bid, tricks[seat]),
                     "bid": bid, "has_bid": made is not None}
            if open_cards and seat != viewer:
                entry["cards"] = self._shown_hand(seat, hands[seat], _ORDER)
            entries.append(entry)
        return entries

    def _players_alike(self) -> bool:
        """Hidden bids show a viewer their own; clairvoyance, everyone's cards but their own."""
        return not (self.hidden_bids or self.clairvoyant)

    def _open_hand(self, seat: Seat) -> list[str]:
        return self._shown_hand(seat, self.hands[seat], _ORDER)  # clairvoyance hides it from its holder only

    def _round_live(self) -> bool:
        """Whether a round is being played: once it has ended its result is in ``scores``, and a projection from
        its bids and tricks would count it twice."""
        return self._phase not in (Phase.ROUNDEND, Phase.GAMEOVER)

    def _reveal(self, view: dict[str, Any]) -> dict[str, Any]:
        """Every bid made, hidden or secret bidding or not."""
        live = self._round_live()
        for seat, p in enumerate(view["players"]):
            bid = self.bids[seat]
            p["bid"] = bid
            if bid is not None and live:
                p["projected"] = self.scores[seat] + round_score(bid, self.tricks[seat])
        return view

    def _view(self, seat: Seat | None) -> dict[str, Any]:
        return {
            **super()._view(seat),
            "first_leader": self.players[self.first_leader],
            "trump": {"suit": self.trump, "card": self.turned},
            "forbidden_bid": None if seat is None else self.forbidden_bid(seat),
        }

    def _view_own(self, seat: Seat | None) -> dict[str, Any]:
        return {"forbidden_bid": None if seat is None else self.forbidden_bid(seat)}
