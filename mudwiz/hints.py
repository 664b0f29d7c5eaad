"""The hint after a refused move: what the player may do instead, when it is their turn."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from mudwiz.games.base import Game
from mudwiz.render.style import NO_BREAK
from mudwiz.session import Session
from mudwiz.texts import now


def hint(session: Session, message: str) -> str:
    """Append what the player may do, when it is their turn: ``; you may: /play B3, /play B10`` (engines give the
    reason only, so every refusal ends in this one style). Moves are listed as typed, in the order of the hand;
    on a terminal the words of one move are joined by ``NO_BREAK``, which the line wrapper never breaks at and
    shows as a space, so ``/bid 1`` is never split over two lines (a JSON client gets plain spaces)."""
    table = session.table
    if table is None or table.game is None:
        return message
    seat = table.seat_of(session.name)
    if seat is None or table.seats[seat] is not session:
        return message
    legal = [f"/{spelled(str(a), table.game_class)}" for a in table.game.legal_actions(seat)]
    if not legal:
        return message
    moves = summarize(legal, table.game.view(seat)["hand"])
    glue = " " if session.mode == "json" else NO_BREAK
    shown = ", ".join(m.replace(" ", glue) for m in moves[:12]) + (", ..." if len(moves) > 12 else "")
    return now("{message}; you may: {moves}", message=message, moves=shown)


def spelled(move: str, game: type[Game]) -> str:
    """A move as a person types it: a bare verb that stands for a pattern (Witches' ``pass``: any N cards of the
    hand) takes its arguments from the game's usage line, ``pass C1 C2 ...``; a bare ``/pass`` would be refused."""
    usage = game.usage(move)
    return usage if usage.startswith(move + " ") else move


def summarize(legal: list[str], hand: Sequence[str] = ()) -> list[str]:
    """The moves in the order of ``hand`` (a card's moves where the card sits, moves of one verb together; an
    engine may list ``/play B10`` before ``/play B3``), and moves that differ only after their second word, three
    or more of them, as one: ``/play MILWA ...`` stands for the eight ways to aim a MILWA, so the list says what
    kinds of move there are."""
    verbs = {a.split()[0]: i for i, a in reversed(list(enumerate(legal)))}  # each verb's first place
    place = {card: i for i, card in reversed(list(enumerate(hand)))}

    def order(move: str) -> tuple[int, int]:
        words = move.split()
        return verbs[words[0]], place.get(words[1], len(hand)) if len(words) > 1 else len(hand)

    legal = sorted(legal, key=order)
    heads = [" ".join(a.split()[:2]) for a in legal]
    many = Counter(heads)
    shown: dict[str, None] = {}  # in order, each once
    for move, head in zip(legal, heads, strict=True):
        shown[f"{head} ..." if len(move.split()) > 2 and many[head] > 2 else move] = None
    return list(shown)
