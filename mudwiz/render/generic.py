"""Any game's screen, drawn from the fields every view and event has: used for a game whose plugin ships no
renderer (or leaves a part of one out), so a new game is playable at a terminal before anyone designs its screen.

It reads only what ``docs/games.md`` asks every view to carry (``players`` with ``score``, ``waiting``, ``hand``,
``legal``, ``phase``, ``round``; ``trick``, ``last_trick``, ``sheet`` and ``standings`` when the game has them)
and shows any other plain field as it comes; an event it has no words for is a sentence made from its fields.
Every line fits 80 columns, in colour or plain ASCII (the ``Style`` decides).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mudwiz.games import plugin
from mudwiz.games.base import Event
from mudwiz.render.common import (
    confirmations,
    event_message,
    last_trick,
    rating_first,
    rating_heading,
    round_over,
    standings,
    trick_taken,
    your_hand,
)
from mudwiz.render.style import WIDTH, Style, cell_width, pad, right, truncate, visible_len, wrap_words
from mudwiz.texts import now

ROUND = "round"  # what this game calls one deal played out: said in the prompts after it
NAME = 16  # the players' name column
MOST_MOVES = 12  # moves listed in the prompt; the rest are "..."
# View fields drawn in their own place (or of no use on a screen): the others are shown as "name: value".
_PLACED = {"game", "phase", "round", "rounds", "turn", "waiting", "you", "players", "hand", "legal", "trick",
           "last_trick", "options", "sheet", "standings", "confirmed", "table_options", "type", "table", "host",
           "status", "observer", "observers", "look", "min_players", "max_players"}
_PLAYER_PLACED = {"name", "score", "bot", "away", "away_for", "stand_in", "rating"}
_EVENT_PLACED = {"type", "table", "game", "id", "player"}


def title(game: str) -> str:
    """The game's title (its engine's ``title``), or its name when this install does not know it."""
    found = plugin(game)
    return found.engine_class.title if found is not None else game.capitalize()


def _value(value: Any) -> str:
    """A field's value in a few characters: a flag yes/blank, a list as its items, a dict as ``key value``."""
    if value is True:
        return now("yes")
    if value is None or value is False:
        return ""
    if isinstance(value, list):
        return " ".join(_value(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value(v)}" for k, v in value.items() if _value(v))
    return str(value)


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, bool | int | str)


def in_text(style: Style) -> Callable[[str], str]:
    """How a card code is painted inside a sentence."""
    return lambda code: style.card(str(code), bare=True)


def _facts(view: dict[str, Any], style: Style) -> list[str]:
    """Round, phase, dealer, leader and any other plain field of the view, as one wrapped line."""
    facts = []
    if view.get("round"):
        facts.append(now("Round {round}/{rounds}", round=view["round"], rounds=view["rounds"]) if view.get("rounds")
                     else now("Round {round}", round=view["round"]))
    facts.append(now("Phase: {phase}", phase=view["phase"]))
    for key, value in view.items():
        if key not in _PLACED and _plain(value) and _value(value):
            facts.append(f"{key.replace('_', ' ').capitalize()}: {style.text(_value(value))}")
    return wrap_words(" " + "   ".join(facts), style.width, indent=3)


def _columns(view: dict[str, Any]) -> list[tuple[str, int]]:
    """The players' plain fields beyond name and score, as (field, width), as many as fit 80 columns with room
    for a tag or two after them."""
    players = view.get("players", [])
    keys = list(dict.fromkeys(k for p in players for k, v in p.items() if k not in _PLAYER_PLACED and _plain(v)))
    used, cols = 3 + NAME + 7, []
    tags = 12 + (9 if any(p.get("rating") is not None for p in players) else 0)  # "away 1:35", and "[1043], "
    for key in keys:
        width = min(10, max(len(key), *(len(_value(p.get(key))) for p in players)))
        if used + width + 1 > WIDTH - tags:
            break
        cols.append((key, width))
        used += width + 1
    return cols


def player_rows(view: dict[str, Any], style: Style) -> list[str]:
    """A row a player in seat order: the turn marker, name, score and the game's own plain fields."""
    cols = _columns(view)
    player, score = now("player"), now("score")
    head = f"   {pad(player, NAME)} {right(score, 6)}" + "".join(
        f" {k.replace('_', ' ')[:w]:>{w}}" for k, w in cols)  # the game's own fields: its names as they are
    head = rating_heading(head, visible_len(head) + 2, view.get("players", []))  # a row's tags: after two spaces
    rows = [style.paint(head, "grey")]
    waiting = set(view.get("waiting") or ())
    for p in view.get("players", []):
        marker = ">" if p["name"] in waiting else " "
        name = style.text(p["name"])
        name = style.bold(name) if p["name"] == view.get("you") else name
        cells = "".join(f" {truncate(_value(p.get(k)), w):>{w}}" for k, w in cols)
        row = f" {marker} {pad(name, NAME)} {_value(p.get('score', '')):>6}{cells}"
        rows.append(f"{row}  {', '.join(rating_first([], p, style))}".rstrip())
    return rows


def trick_lines(view: dict[str, Any], style: Style) -> list[str]:
    """The trick on the table in play order, or the last one and who took it (a game without tricks: none)."""
    if view.get("trick"):
        played = "  ".join(f"{style.text(c['player'])} {in_text(style)(c['card'])}" for c in view["trick"])
        return wrap_words(now(" Trick: {cards}", cards=played), style.width, indent=8)
    if view.get("last_trick") and view.get("leader"):
        return last_trick(view, style, in_text(style))
    return []


def prompt_lines(view: dict[str, Any], style: Style) -> list[str]:
    """What this viewer may do now (the moves as typed), or whom the table waits for."""
    over = round_over(view, style, ROUND)
    if over is not None:
        return [over]
    legal = [f"/{a}" for a in view.get("legal", [])]
    if legal:
        moves = ", ".join(legal[:MOST_MOVES]) + (", ..." if len(legal) > MOST_MOVES else "")
        said = now(" Your turn: {moves}.", moves=moves)
        return [style.bold(line) for line in wrap_words(said, style.width, indent=3)]
    who = ", ".join(style.text(n) for n in view.get("waiting") or [])
    return wrap_words(now(" Waiting for {names}.", names=who) if who else now(" Waiting for nobody."), style.width,
                      indent=3)


def table_view(view: dict[str, Any], style: Style) -> list[str]:
    """The seated player's (or an observer's) picture of any game's table."""
    lines = [style.rule(f"{title(view.get('game', '?'))} - {view['phase']}"), *_facts(view, style)]
    lines += player_rows(view, style)
    lines += trick_lines(view, style)
    if view.get("standings"):
        lines += standings(view["standings"], style)
    lines += confirmations(view, style)
    lines += your_hand(view, style)
    return lines + prompt_lines(view, style)


def score_sheet(view: dict[str, Any], style: Style) -> list[str]:
    """Each round's total and change per player (``sheet`` entries carry the ``results`` of their round_end)."""
    names = [p["name"] for p in view.get("players", [])]
    col = max(9, min(12, (WIDTH - 8) // max(1, len(names))))
    heads = "".join(pad(truncate(style.text(n), col - 1), col) for n in names)
    lines = [style.rule(now("Score sheet")), "  " + pad(now("rnd"), 5) + heads]
    for entry in view.get("sheet") or []:
        by_name = {r["player"]: r for r in entry.get("results", [])}
        cells = []
        for n in names:
            r = by_name.get(n)
            text = f"{r.get('score', '')}({r.get('delta', 0):+d})" if r else "-"
            cells.append(pad(style.paint(truncate(text, col - 1), "green" if r and r.get("delta", 0) > 0 else
                                         "red" if r and r.get("delta", 0) < 0 else "grey"), col))
        lines.append(f"  {entry.get('round', '?'):>3}  " + "".join(cells))
    if not view.get("sheet"):
        lines.append(now("  (no round scored yet)"))
    return lines


def sentence(e: dict[str, Any], style: Style) -> str:
    """Any event as words: who, what (its type spelled out) and its other fields (``bid_made`` with player bob
    and bid 2: ``bob: bid made (bid 2).``)."""
    what = e["type"].replace("_", " ").strip() or now("something happened")
    fields = ", ".join(f"{k.replace('_', ' ')} {style.text(_value(v))}" for k, v in e.items()
                       if k not in _EVENT_PLACED and _value(v))
    text = f"{style.text(str(e['player']))}: {what}" if e.get("player") else what.capitalize()
    return text + (f" ({fields})" if fields else "") + "."


def results(e: dict[str, Any], style: Style) -> list[str]:
    """A ``round_end``: each player's change and new total, and the round's own figures of them."""
    lines = [style.rule(now("Round {round} result", round=e.get("round", "?")))]
    for r in e.get("results", []):
        more = "  ".join(f"{k} {_value(v)}" for k, v in r.items() if k not in ("player", "delta", "score")
                         and _plain(v) and _value(v))
        row = f"   {pad(style.text(r['player']), NAME)} {r.get('delta', 0):>+5}  = {r.get('score', ''):>5}  {more}"
        lines.append(row.rstrip() if cell_width(row) <= WIDTH else truncate(row.rstrip(), WIDTH))
    return lines


def event_lines(event: Mapping[str, Any] | Event, style: Style) -> list[str]:
    """The lines a player reads as things happen: the shapes games share by name, anything else as a sentence.
    Worded from the message the table sends (``render.common.event_message``), less its routing fields."""
    e = {k: v for k, v in event_message(event).items() if k not in ("table", "game", "id")}
    kind = e["type"]
    if kind == "card_played" and {"player", "card"} <= e.keys() and len(e) == 3:
        return [now("{player} plays {card}.", player=style.text(e["player"]), card=in_text(style)(e["card"]))]
    if kind == "trick" and "winner" in e:
        return wrap_words(trick_taken(e, style, in_text(style)), style.width)
    if kind == "round_end" and "results" in e:
        return results(e, style)
    if kind == "game_end" and "standings" in e:
        return standings(e["standings"], style)
    return wrap_words(sentence(e, style), style.width)

