"""Pieces of screen every game draws the same way."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from mudwiz.games.base import Event, Phase
from mudwiz.render.style import Style, cell_width, pad, truncate, visible_len, wrap_cards, wrap_words
from mudwiz.texts import N_, now


def event_message(event: Mapping[str, Any] | Event) -> Mapping[str, Any]:
    """The message an event line is worded from: the protocol's dict as the table sends it (``type``, the event's
    fields, ``table`` and ``game``), which the telnet session and the client both render. An engine ``Event`` is
    taken too, as its ``to_dict()``, for callers that hold the engine's events (the rules tests)."""
    return event.to_dict() if isinstance(event, Event) else event


def frame_view(message: Mapping[str, Any], frame: Mapping[str, Any]) -> dict[str, Any]:
    """A frame's whole view from a ``replay`` message (``mudwiz.replay.compact`` undone): the fields every frame
    of the message shares, the frame's own, and its score sheet as that many of the message's sheet entries."""
    view = {**message["common"], **frame["view"]}
    if isinstance(view.get("sheet"), int):
        view["sheet"] = list(message["sheet"][:view["sheet"]])
    return view


WHERE = re.compile(r"table (\d+)( \(watching\))?")


def where_words(where: str) -> str:
    """``/who``'s and ``/finger``'s place (``lobby``, ``table 7``, ``table 7 (watching)``: a protocol value JSON
    clients read as it is) in the reader's words."""
    if where == "lobby":
        return now("lobby")
    if (at := WHERE.fullmatch(where)) is None:
        return where
    return now("table {n} (watching)", n=at[1]) if at[2] else now("table {n}", n=at[1])


def standings(rows: list[dict[str, Any]], style: Style, title: str | None = None) -> list[str]:
    """Final places, best first; tied players share a place."""
    lines = [style.rule(now("Final standings") if title is None else title)]
    for r in rows:
        lines.append(f"   {r['place']:>2}. {pad(style.text(r['player']), 16)} {r['score']:>7}")
    return lines


def your_hand(view: dict[str, Any], style: Style,
              card: Callable[[Style, str, bool], str] = Style.card) -> list[str]:
    """The viewer's hand with the cards they may play now marked (none for an observer); ``card`` paints one,
    for a game whose colours ``Style.card`` does not know."""
    if view.get("hands") is not None:
        return open_hands(view, style, card)
    if view["you"] is None:
        return []
    if not view["hand"]:  # played out: one line, not a heading over an empty row
        return [now(" Your hand: no cards.")]
    playable = {a.split()[1] for a in view["legal"] if a.startswith("play ")}
    cards = [card(style, c, c in playable) for c in view["hand"]]
    return [now(" Your hand:"), *wrap_cards(cards, style.width, indent=2)]


def open_hands(view: dict[str, Any], style: Style,
               card: Callable[[Style, str, bool], str] = Style.card) -> list[str]:
    """Every player's cards, a replay's view (``Game.revealed_view``): one block a player in seat order, the name
    in front and the cards wrapped under it, so a 20-card hand still fits 80 columns."""
    lines = []
    for name, cards in view["hands"].items():
        head = f" {pad(style.text(name), 16)} "
        laid = wrap_cards([card(style, c, False) for c in cards], style.width, indent=18) if cards else [" " * 18 + "-"]
        lines += [head + laid[0][18:], *laid[1:]]
    return lines


# What a game calls one deal played out (its renderer's ``ROUND``), in the sentences said once one is over: each
# sentence whole, so that a language words it its own way; a game calling it otherwise is told of a round.
UNIT_OVER = {
    "round": {"over": N_(" Round over."), "ok": N_(" Round over: /ok when ready for the next round."),
              "watch": N_(" Round over; the next one starts when the players are ready."),
              "type": N_(" Round over: type /ok when ready for the next round."),
              "wait": N_(" Round over: type /ok when ready for the next round (or it starts in {wait} s).")},
    "hand": {"over": N_(" Hand over."), "ok": N_(" Hand over: /ok when ready for the next hand."),
             "watch": N_(" Hand over; the next one starts when the players are ready."),
             "type": N_(" Hand over: type /ok when ready for the next hand."),
             "wait": N_(" Hand over: type /ok when ready for the next hand (or it starts in {wait} s).")},
}


def unit_over(unit: str, which: str, **params: Any) -> str:
    """The ``which`` sentence (``over``, ``ok``, ``watch``, ``type``, ``wait``) said when a ``unit`` ends, in the
    language spoken now."""
    return now(UNIT_OVER.get(unit, UNIT_OVER["round"])[which], **params)  # another game's word: a round


def round_over(view: dict[str, Any], style: Style, unit: str) -> str | None:
    """The prompt once the game or a round (``unit``: what the game calls one) is over: nothing left to ask but
    /ok, whatever the game; None while play goes on."""
    if view["phase"] == Phase.GAMEOVER:
        return style.bold(now(" Game over."))
    if view["phase"] == Phase.ROUNDEND:
        if view.get("hands") is not None:  # a replay: nobody is asked for /ok
            return style.bold(unit_over(unit, "over"))
        return style.bold(unit_over(unit, "ok"))
    return None


def trick_order(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The players from the one who leads the current trick, in turn, as the rules page's screen lines them up:
    the card column then reads in play order. Seats never move: the score sheet keeps seat order."""
    players = view["players"]
    names = [p["name"] for p in players]
    start = names.index(view["leader"]) if view.get("leader") in names else 0
    return players[start:] + players[:start]


def row_tags(view: dict[str, Any], player: dict[str, Any], style: Style, after_play: tuple[str, ...] = ()) -> list[str]:
    """Words after a trick-taking game's player row: who leads the trick (while tricks are to come: not in the
    game's phases ``after_play``, a choice made once the tricks are taken, nor after the round), and who is not a
    person at the keyboard (see ``seat_marks``)."""
    tags = []
    if player["name"] == view.get("leader") and view["phase"] not in (*after_play, Phase.ROUNDEND, Phase.GAMEOVER):
        tags.append(style.paint(now("led") if view.get("trick") else now("leads"), "cyan"))
    return rating_first(tags, player, style)


def rating_first(tags: list[str], player: dict[str, Any], style: Style) -> list[str]:
    """A row's words after its columns: the rating first, under its heading (``rating_heading``), then the
    game's ``tags`` (none: ``[]``), then the seat's marks (``seat_marks``)."""
    return [*rating_tag(player, style), *tags, *seat_marks(player, style)]


def seat_marks(player: dict[str, Any], style: Style) -> list[str]:
    """Marks for a row that is not an ordinary person at the keyboard, so nobody waits on a ghost unaware: a
    dropped player whose seat is kept (``away``), or a bot playing the seat of one who left (``(stand-in)``)."""
    if player.get("stand_in"):
        return [style.paint(now("(stand-in)"), "grey")]
    if player.get("away"):
        left = player.get("away_for")  # seconds the seat is still kept, when the server says
        time = "" if left is None else f"{int(left) // 60}:{int(left) % 60:02d}"
        said = now("away {time}", time=time) if time else now("away")
        return [style.paint(said, "yellow")]
    return []


def rating_tag(player: dict[str, Any], style: Style) -> list[str]:
    """``[1043]``: the seat's rating in the table's game (a bot's: its level's fixed one); nothing for a guest or
    a player not rated yet. After the row, where the tags go: a row's columns have no room for it."""
    rating = player.get("rating")
    return [] if rating is None else [style.paint(f"[{rating}]", "grey")]


COMPACT_BELOW = 60  # columns: a narrower window gets a table's compact columns (``name_column``)


def name_column(players: list[dict[str, Any]], style: Style, rest: int, tags: Iterable[str] = ()) -> int:
    """The player column's width: 16; in a window under ``COMPACT_BELOW`` columns as wide as the longest name,
    or as the row's other ``rest`` columns leave room for (at least 6: a longer name is cut), and the rows'
    ``tags`` after them too, unless that would cut a name (they then go on a row of their own, ``tag_rows``).
    The window's own wrapping once squeezed the rows' columns and not their heading's, which then stood over
    other columns."""
    if style.width >= COMPACT_BELOW:
        return 16
    longest = max((cell_width(style.text(p["name"])) for p in players), default=6)
    widest = max((visible_len(text) + 2 for text in tags if text), default=0)
    return max(6, min(16, longest, style.width - rest - widest), min(16, longest, style.width - rest))


def name_cell(player: dict[str, Any], view: dict[str, Any], style: Style, width: int) -> str:
    """A row's name padded to ``width`` (in a compact layout cut to it: a wider one runs on, as a BBS caller's
    32-character name does); the viewer's own in bold."""
    name = style.text(player["name"])
    if style.width < COMPACT_BELOW:
        name = truncate(name, width)
    return pad(style.bold(name) if player["name"] == view["you"] else name, width)


def flow(segments: list[str], width: int, gap: str = "   ") -> list[str]:
    """Join segments into lines of at most ``width`` visible columns, starting a new line rather than cutting; a
    segment wider than a line (a sentence: what the table is answering) is broken between words. Cut by the
    window instead, a line of ``Dealer: ...   Leads: ...`` passed for a row of the table under it by its gaps,
    which was then squeezed out from under its heading."""
    lines: list[str] = []
    line = ""
    for seg in segments:
        if line and visible_len(line) + len(gap) + visible_len(seg) > width:
            lines.append(line)
            line = ""
        if not line and visible_len(seg) + 1 > width:
            lines += wrap_words(f" {seg}", width, indent=3)
            continue
        line = f"{line}{gap}{seg}" if line else f" {seg}"
    if line:
        lines.append(line)
    return lines


def tag_rows(row: str, tags: str, width: int) -> list[str]:
    """A player's row with its tags (``leads``, a rating, ``away``) after it; when they would run past ``width``,
    on a row of their own under the name (the window's wrapping squeezed such a row's columns out from under the
    heading's)."""
    if not tags:
        return [row.rstrip()]
    if visible_len(row) + 2 + visible_len(tags) > width:
        return [row.rstrip(), f"     {tags}"]
    return [f"{row}  {tags}"]


def rating_heading(heading: str, column: int, players: list[dict[str, Any]], width: int = 10**6) -> str:
    """A table's heading row, with ``[rating]`` at ``column`` (where the rows' words after their columns begin,
    the rating first) when a seat is rated: it names the bracketed figure (``rating_tag``), which stood under no
    heading and read as anything (a score, a seat number)."""
    cells = visible_len(heading)  # a heading in Japanese takes two cells a character
    tag = now("[rating]")
    if not any(p.get("rating") is not None for p in players) or max(column, cells + 1) + visible_len(tag) > width:
        return heading  # (past the window: the ratings go on the rows under the names, as the other tags)
    return f"{pad(heading, column)}{tag}" if cells < column else f"{heading} {tag}"


def rated(user: dict[str, Any]) -> str:
    """A ``/who`` row's rating: ``rated 1043 in wizard`` (at their table's game, else their best), or nothing."""
    return "" if user.get("rating") is None else now("rated {rating} in {game}", rating=user["rating"],
                                                     game=user["rating_game"])


def last_trick(view: dict[str, Any], style: Style, card: Callable[[str], str]) -> list[str]:
    """The trick just taken, while the next has no card yet: the table view drawn when a trick ends shows what
    fell and who took it (its taker leads the next trick), in play order. ``card`` paints one card code."""
    if view.get("trick") or not view.get("last_trick"):
        return []
    winner = view["leader"]
    played = ", ".join(f"{style.text(c['player'])} {card(c['card'])}" for c in view["last_trick"])
    said = now(" Last trick, taken by {player}: {cards}.", player=style.bold(style.text(winner)), cards=played)
    return wrap_words(said, style.width, indent=3)


def trick_taken(event: Mapping[str, Any], style: Style, card: Callable[[str], str]) -> str:
    """A ``trick`` event's line: who took it, and with which card (the cards were each a line of their own)."""
    winner = event["winner"]
    with_card = next((c["card"] for c in event["cards"] if c["player"] == winner), None)
    if with_card:
        return now("{player} wins the trick with {card}.", player=style.bold(style.text(winner)), card=card(with_card))
    return style.bold(now("{player} wins the trick.", player=style.text(winner)))


def confirmations(view: dict[str, Any], style: Style) -> list[str]:
    """At a round's end, who has typed /ok and whom the next round still waits for: the seated people who are
    connected (bots and dropped players are never waited for)."""
    if view["phase"] != Phase.ROUNDEND or "confirmed" not in view:
        return []
    done = [style.text(p["name"]) for p in view["players"] if p["name"] in view["confirmed"]]
    awaited = [style.text(p["name"]) for p in view["players"]
               if p["name"] not in view["confirmed"] and not p.get("bot") and not p.get("away")]
    ready = now(" Ready (/ok): {names}.", names=", ".join(done)) if done else now(" Nobody has typed /ok yet.")
    waiting = now(" Waiting for {names}.", names=", ".join(awaited)) if awaited else ""
    return wrap_words(ready + waiting, style.width, indent=3)
