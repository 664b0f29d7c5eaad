"""Protocol messages -> lines for a person at a terminal (ANSI colour, or plain ASCII).

Each game's renderer (its plugin's ``renderer``, else ``mudwiz.render.generic``) draws its table, score sheet
and event lines; this module
draws everything else (chat, notices, lists, the waiting room) and decides *when* a whole table view is worth
a person's screen: on ``/look``, when it becomes their turn, when a new round is dealt and when a trick is
taken — not after every card, which would scroll the game away (each card is a line of its own).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from importlib import import_module
from itertools import zip_longest
from types import ModuleType
from typing import Any

from twisted.logger import Logger

from mudwiz.games import available, plugin
from mudwiz.games.base import Event, Phase
from mudwiz.render import generic, seeks
from mudwiz.render.common import confirmations, frame_view, rated, standings
from mudwiz.render.meeting import PeopleLines
from mudwiz.render.reflow import reflow
from mudwiz.render.seasons import SeasonLines
from mudwiz.render.style import WIDTH, Style, pad, visible_len, wrap_cards, wrap_words
from mudwiz.render.talk import away, channel_lines, recent_lines, talk_chat
from mudwiz.texts import words

log = Logger()

SHEET_GAP = 2  # columns between the table view and a score sheet drawn beside it
MIN_SHEET = 30  # columns a score sheet beside the table needs at the least; narrower, it is left to /score


def own_renderer(game: str | None) -> ModuleType | None:
    """The renderer the game's plugin ships, or None (an unknown game, none shipped, or one that fails to import:
    logged, and the game is drawn generically rather than not at all)."""
    found = plugin(game)
    if found is None or found.renderer is None:
        return None
    try:
        return import_module(found.renderer)
    except ImportError:
        log.failure("renderer {renderer} of {game} could not be imported: drawn generically",
                    renderer=found.renderer, game=game)
        return None


def game_renderer(game: str) -> ModuleType:
    """The module that draws ``game``: its own renderer, else the generic one, which draws any game."""
    return own_renderer(game) or generic


def draw(game: str, part: str) -> Callable[..., list[str]]:
    """One part of a game's renderer (``table_view``, ``score_sheet``, ``event_lines``); a part its renderer
    leaves out is the generic renderer's."""
    return getattr(game_renderer(game), part, None) or getattr(generic, part)


def engine_view(message: dict[str, Any]) -> dict[str, Any]:
    """A ``state`` message back into the engine view the game renderers read (legal moves without the slash)."""
    return {**message, "legal": [a.removeprefix("/") for a in message["legal"] if a not in ("/ok", "/start")]}


def clock(seconds: float) -> str:
    """A replay's time since the start: ``m:ss``."""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def replay_move(frame: dict[str, Any], style: Style) -> str:
    """A replay step in words: the deal, a player's move, or the table going on to the next round."""
    if frame["step"] == 0:
        return "The deal."
    if frame["player"] is None:
        return f"Move {frame['step']} at {clock(frame['t'])}: the next round."
    return f"Move {frame['step']} at {clock(frame['t'])}: {style.text(frame['player'])} /{frame['action']}"


def replay_moves(m: dict[str, Any], step: int, style: Style, around: int = 3) -> list[str]:
    """The moves before and after ``step``, the one shown marked, in as many lines as fit 80 columns."""
    shown = [mv for mv in m["moves"] if abs(mv["step"] - step) <= around]
    pieces = [("> " if mv["step"] == step else "") + f"{mv['step']}. " +
              (f"{style.text(mv['player'])} {mv['action']}" if mv["player"] else "(next round)") for mv in shown]
    if step <= around:
        pieces.insert(0, ("> " if step == 0 else "") + "0. deal")
    laid = wrap_cards([piece + "   " for piece in pieces], WIDTH, indent=8)  # a move is never broken
    return [" Moves: " + laid[0][8:].rstrip(), *(line.rstrip() for line in laid[1:])]


def no_tables() -> str:
    """The lobby's empty table list, naming the games this server has (``/new wizard (or witches, tiltowait)``)."""
    first, *rest = available() or ["GAME"]
    more = f" (or {', '.join(rest)})" if rest else ""
    return f"No tables yet: /new {first}{more} opens one."


class Presenter(PeopleLines, SeasonLines):
    """Per-connection renderer: remembers just enough (last turn, last round) to know when to draw the table."""

    def __init__(self, style: Style) -> None:
        self.style = style
        self._turn: tuple[Any, ...] | None = None  # the turn last drawn (None: it was not this person's turn)
        self._round: tuple[Any, Any] | None = None
        self._phase = ""
        self._trick_taken = False  # a trick event came since the last state: draw the table with it
        self._confirmed: tuple[str, ...] = ()  # who had typed /ok at the round end last drawn
        # the table and score sheet of the last state that carried one: a state sends the sheet only when it
        # changed, and a wide window draws it beside every table view, not only beside those that carried it
        self._sheet: tuple[Any, list[Any]] | None = None

    def lines(self, message: dict[str, Any], event: Event | None = None) -> list[str]:
        """The lines ``message`` shows. A game's event is worded from the message alone, as the client words it;
        ``event``, the engine's, is not read (the telnet session still passes it). A ``Later`` text (mudwiz/texts)
        is drawn in the language spoken now, the reader's; a game's state holds none."""
        kind = message["type"]
        if kind != "state":
            message = words(message)
        if kind == "trick":
            self._trick_taken = True
        handler = getattr(self, f"_{kind}", None)
        if handler is not None:
            return handler(message)
        if kind in seeks.RENDERERS:
            return seeks.RENDERERS[kind](message, self.style)
        if "game" in message:
            return draw(message["game"], "event_lines")(message, self.style)
        return []

    # -- replies and talk

    def _painted(self, text: str, *how: str) -> list[str]:
        """Free text (replies, notices) in lines that fit 80 columns, each painted on its own."""
        return [self.style.paint(line, *how) for line in wrap_words(text, self.style.width)]

    def _ok(self, m: dict[str, Any]) -> list[str]:
        return self._painted(m["text"], "grey") if m.get("text") else []

    def _error(self, m: dict[str, Any]) -> list[str]:
        return self._painted(f"! {m['message']}", "red", "bold")

    def _notice(self, m: dict[str, Any]) -> list[str]:
        return self._painted(f"* {self.style.text(m['text'])}", "cyan")

    def _chat(self, m: dict[str, Any]) -> list[str]:
        s = self.style
        text, who = s.text(m["text"]), s.text(m["from"])
        talk = talk_chat(m, s)
        if talk is not None:
            return talk
        if m["channel"] == "tell":
            return wrap_words(s.paint(f"{who} tells {s.text(m['to'])}: ", "magenta", "bold") + text, s.width)
        return wrap_words(s.paint(f"[{m['channel']}] ", "grey") + s.bold(who) + ": " + text, s.width)

    def _recent(self, m: dict[str, Any]) -> list[str]:
        return recent_lines(m, self.style)

    def _channels(self, m: dict[str, Any]) -> list[str]:
        return channel_lines(m, self.style)

    # -- from the sysops

    def _announce(self, m: dict[str, Any]) -> list[str]:
        s = self.style
        return wrap_words(s.paint(f"** Announcement from the sysop {s.text(m['from'])}: ", "yellow", "bold")
                          + s.text(m["text"]), WIDTH)

    def _shutdown(self, m: dict[str, Any]) -> list[str]:
        return self._painted(f"** {m['text']}", "yellow", "bold")

    def _kicked(self, m: dict[str, Any]) -> list[str]:
        return self._painted(f"! {m['text']}", "red", "bold")

    def _bans(self, m: dict[str, Any]) -> list[str]:
        s = self.style
        rows = [s.rule(f"Bans ({len(m['bans'])})")]
        for b in m["bans"]:
            until = f"until {b['until'].replace('T', ' ').replace('Z', ' UTC')}" if b["until"] else "until lifted"
            rows.append(f"  {b['kind']:<8} {pad(s.text(b['target']), 40)} {until}, by {s.text(b['by'])}")
        return rows if m["bans"] else [*rows, "  Nobody is banned."]

    def _reveal_end(self, m: dict[str, Any]) -> list[str]:
        return [self.style.paint(f"* {self.style.text(m['player'])}'s hand is closed again.", "cyan")]

    def _help(self, m: dict[str, Any]) -> list[str]:
        lines = m["text"].splitlines()
        if str(m.get("topic", "")).startswith("rules") and max(map(visible_len, lines), default=0) > self.style.width:
            return reflow(lines, self.style.width, self.style.text)  # a sentence's tail was left on a row alone
        return [self.style.text(line) for line in lines]

    def _who(self, m: dict[str, Any]) -> list[str]:
        rows = [f"  {pad(self.style.text(u['name']), 18)} {u['where']:<22} {rated(u)}{away(u, self.style)}".rstrip()
                for u in m["users"]]
        total = m.get("total", len(rows))
        if m.get("next"):
            rows.append(f"  ... more: /who {self.style.text(m['next'])} lists the next {len(rows)}")
        return [self.style.rule(f"Online ({total})"), *rows]

    def _tables(self, m: dict[str, Any]) -> list[str]:
        if not m["tables"]:
            return [no_tables()]
        rows = [self.style.rule("Tables")]
        for t in m["tables"]:
            players = ", ".join(self.style.text(p) for p in t["players"]) or "-"
            watchers = f", {t['observers']} watching" if t["observers"] else ""
            rows.append(f"  #{t['id']:<3} {t['game']:<10} {t['status']:<8} {t['seats']:>5}  {players}{watchers}")
        return rows

    def _options(self, m: dict[str, Any]) -> list[str]:
        """One option a line, its help broken between words into a column of its own: a help text runs past 80
        columns, and a terminal's own wrapping would cut words in half under the names."""
        rows = [self.style.rule(f"Options of table {m['table']} ({m['game']})")]
        for o in m["options"]:
            value = str(o["shown"])
            head = f"  {o['name']:<13} {value:<6} "
            rows += wrap_words(head + self.style.text(o["help"]), self.style.width, indent=len(head))
        rows.append("  /option NAME [VALUE] sets one (host, before /start).")
        return rows

    def _score(self, m: dict[str, Any]) -> list[str]:
        return draw(m["game"], "score_sheet")(m, self.style)

    # -- game records

    def _history(self, m: dict[str, Any]) -> list[str]:
        """A player's last games, one a line (the players wrap under it): id, game, date, their place, scores."""
        s = self.style
        rows = [s.rule(f"Games of {s.text(m['name'])}")]
        if not m["games"]:
            return [*rows, f"  No games recorded for {s.text(m['name'])}."]
        for g in m["games"]:
            # an abandoned game recorded with places (since they were kept) counts: a person's place is "left"
            place = g["outcome"] if g["outcome"] == "damaged" or g["place"] is None else (
                f"{'left' if g['outcome'] == 'abandoned' else 'place'} {g['place']}/{len(g['players'])}")
            players = ", ".join(s.text(p["name"]) + ("" if p["score"] is None else f" {p['score']}")
                                for p in g["players"])
            head = f"  #{g['id']:<5} {g['game']:<10} {g['date'][:10]} {g['date'][11:16]}  {place:<11} "
            rows += wrap_words(head + players, self.style.width, indent=len(head))
        rows.append("  /game ID shows a game's score sheet.")
        return rows

    def _game(self, m: dict[str, Any]) -> list[str]:
        """A recorded game: who played (and what sat in each seat), its options, its score sheet, its places."""
        s = self.style
        date = f"{m['date'][:10]} {m['date'][11:16]} UTC"
        lines = [s.rule(f"Game #{m['id']}: {m['game']}, {date}, {m['outcome']}")]
        seats = [s.text(p["name"]) + ("" if p["kind"] == "person" else f" ({p['kind'].replace(':', ' ')})")
                 for p in m["players"]]
        lines += wrap_words(f" Players: {', '.join(seats)}", self.style.width)
        on = [f"{k}={v}" if v is not True else k for k, v in m["options"].items() if v not in (None, False, "off")]
        lines += wrap_words(f" Options: {', '.join(on) or 'none'}", self.style.width)
        lines += draw(m["game"], "score_sheet")(m, s)
        if not m["standings"]:
            return [*lines, s.bold(" Abandoned with no final places: it counts for nobody's rating.")]
        if m["outcome"] == "abandoned":
            bots = any(p["kind"].startswith("bot:") for p in m["players"])
            lines += map(s.bold, wrap_words(" Abandoned: nobody was left playing (they left, or dropped for good). It "
                                            "counts as it stood" + (", those who left placed below the bots." if bots
                                                                    else "."), self.style.width))
        return [*lines, *standings(m["standings"], s)]

    def _analysis(self, m: dict[str, Any]) -> list[str]:
        """The coach after a game (``/analyze``): drawn by the game's renderer (``analysis_lines``), which knows
        its moves; a game whose renderer has none is shown its rule alone."""
        part = getattr(game_renderer(m["game"]), "analysis_lines", None)
        if part is None:
            return [self.style.rule(f"Analysis of game #{m['id']}: {m['game']}")]
        return list(part(m, self.style))

    # -- ratings

    def _rating(self, m: dict[str, Any]) -> list[str]:
        """A player's (or a bot level's) rating in each game: the shown figure, mu and sigma, games, rank."""
        s = self.style
        rows = [s.rule(f"Ratings of {s.text(m['name'])}" + (" (fixed: bots are not rated by games)" if m["bot"]
                                                              else ""))]
        if not m["ratings"]:
            return [*rows, *wrap_words(f"  {s.text(m['name'])} has no rating yet: registered players are rated by "
                                       "every game they finish.", WIDTH, indent=2)]
        for r in m["ratings"]:
            played = "" if m["bot"] else f"  {r['games']:>4} game{'s' * (r['games'] != 1)}  rank {r['rank']}"
            rows.append(f"  {r['game']:<10} {r['rating']:>6}  (mu {r['mu']:5.2f}, sigma {r['sigma']:4.2f})"
                        f"{played}")
        rows.append("  Shown: 1000 + 40 x (mu - 3 sigma); a new player starts at 1000 (/help rating).")
        return rows

    def _top(self, m: dict[str, Any]) -> list[str]:
        """Each game's best rated players, then its bot levels' fixed ratings to compare with."""
        s = self.style
        rows = []
        for g in m["games"]:
            rows.append(s.rule(f"Top rated: {g['game']}"))
            rows += [f"  {r['rank']:>3}. {pad(s.text(r['name']), 16)} {r['rating']:>6}  "
                     f"(mu {r['mu']:5.2f}, sigma {r['sigma']:4.2f}) {r['games']:>4} game{'s' * (r['games'] != 1)}"
                     for r in g["players"]]
            if not g["players"]:
                rows.append("  Nobody is rated yet.")
            bots = ", ".join(f"{b['name']} {b['rating']}" for b in g["bots"])
            rows += wrap_words(f"  Bots (fixed): {bots}", WIDTH, indent=4)
        return rows

    def _replay(self, m: dict[str, Any]) -> list[str]:
        """One step of a recorded game (``/replay ID STEP``): what happened, the table after it with every hand
        shown, drawn by the game's own table view, the moves around it, and how to go on."""
        s, frame = self.style, m["frames"][0]
        step, last, game_id = frame["step"], m["steps"], m["id"]
        lines = [s.rule(f"Replay of game #{game_id}: {m['game']}, {m['date'][:10]}, step {step} of {last}")]
        lines.append(s.bold(f" {replay_move(frame, s)}"))
        for event in frame["events"]:
            lines += draw(m["game"], "event_lines")({**event, "game": m["game"]}, s)
        lines += draw(m["game"], "table_view")(frame_view(m, frame), s)
        lines += replay_moves(m, step, s)
        after = f"/replay next (or /replay {game_id} {step + 1}): the next move" if step < last else "The end"
        before = "; /replay prev: the one before" if step > 0 else ""
        return [*lines, *wrap_words(s.paint(f" {after}{before}.", "grey"), WIDTH, indent=1)]

    # -- the table

    def _state(self, m: dict[str, Any]) -> list[str]:
        if m["phase"] == Phase.WAITING:
            self._turn, self._round = None, None
            return self.waiting_room(m) if m.get("look") else []
        view = engine_view(m)
        if "sheet" in view:  # this table's sheet as it now stands (a new game's: empty), from any state: the
            self._sheet = (m["table"], view["sheet"])  # round end's comes once, with no table drawn for it
        first = self._phase != m["phase"]
        self._phase = m["phase"]
        trick_taken, self._trick_taken = self._trick_taken, False
        if m["phase"] == Phase.GAMEOVER:
            return self.final_view(m) if m.get("look") else self.closing_hint(m) if first else []
        if m["phase"] == Phase.ROUNDEND:
            # Who has typed /ok and whom the next round waits for, as it changes: one line, not the whole table.
            confirmed, self._confirmed = self._confirmed, tuple(m.get("confirmed", ()))
            if m.get("look"):
                return self.table_view(m, view)
            if first:
                return self.closing_hint(m)
            return confirmations(view, self.style) if self._confirmed != confirmed else []
        # Your turn is when the game waits on you, not when an optional move (a karuki call) is open to you.
        # A turn is new when the moves on offer change, not only when it was someone else's turn before: after
        # taking a trick you lead the next, and after the pass phase the last to pass may lead at once.
        my_turn = bool(view["legal"]) and m.get("you") in m.get("waiting", ())
        turn = (m["table"], m.get("round"), m["phase"], tuple(view["legal"])) if my_turn else None
        key = (m["table"], m.get("round"))
        # The table is drawn again when a trick is taken, whoever's turn it is (observers too): it shows the trick
        # just taken and who took it, and the event lines of the play never scroll the table out of sight.
        show = m.get("look") or (turn is not None and turn != self._turn) or key != self._round or trick_taken
        self._turn, self._round = turn, key
        if not show:
            return []
        return self.table_view(m, view)

    def table_view(self, m: dict[str, Any], view: dict[str, Any]) -> list[str]:
        """The game's table view, drawn for 80 columns; on a window wide enough for the score sheet as well
        (a telnet client's, 80 + 2 + what the sheet takes), the sheet beside it, its latest rounds when it is
        taller than the table, so the view never takes more rows than it would alone."""
        rows = self._sheet[1] if self._sheet is not None and self._sheet[0] == m["table"] else None
        room = self.style.width - WIDTH - SHEET_GAP
        if room < MIN_SHEET or not rows:
            return draw(m["game"], "table_view")(view, self.style)
        lines = draw(m["game"], "table_view")(view, replace(self.style, width=WIDTH))
        sheet = draw(m["game"], "score_sheet")({**view, "sheet": rows}, replace(self.style, width=room))
        if max(map(visible_len, sheet)) > room or max(map(visible_len, lines)) > WIDTH:
            return draw(m["game"], "table_view")(view, self.style)
        if len(sheet) > len(lines):  # the rule and the names, then the latest rounds
            sheet = sheet[:2] + sheet[len(sheet) - len(lines) + 2:]
        return [(pad(left, WIDTH + SHEET_GAP) + right).rstrip(" ") if right else left
                for left, right in zip_longest(lines, sheet, fillvalue="")]

    def final_view(self, m: dict[str, Any]) -> list[str]:
        """A finished game's table (on /look, or to whoever comes to watch it): the final places and scores, and
        what to type next. The last round's table is history by then; /score has every round."""
        title = f"{m['game'].capitalize()} - game over: final standings"
        return [*standings(m.get("standings") or [], self.style, title), *self.closing_hint(m)]

    def closing_hint(self, m: dict[str, Any]) -> list[str]:
        """The line or two after a round's or the game's result: what to type next (each fits 80 columns)."""
        bold = self.style.bold
        if m["phase"] == Phase.GAMEOVER:
            again = " Type /start for a new game." if "/start" in m["legal"] else ""
            return [bold(f" Game over.{again}"), bold(" /score shows the sheet; /leave returns to the lobby.")]
        unit = getattr(game_renderer(m["game"]), "ROUND", generic.ROUND)  # Witches and Tiltowait deal hands
        if m["observer"]:
            return [bold(f" {unit.capitalize()} over; the next one starts when the players are ready.")]
        wait = m.get("table_options", {}).get("confirm")
        after = f" (or it starts in {wait} s)" if wait else ""
        return [bold(f" {unit.capitalize()} over: type /ok when ready for the next {unit}{after}.")]

    def waiting_room(self, m: dict[str, Any]) -> list[str]:
        s = self.style
        lines = [s.rule(f"Table {m['table']}: {m['game']}, waiting ({len(m['players'])}/{m['max_players']})")]
        for p in m["players"]:
            tags = " (host)" if p["name"] == m["host"] else ""
            tags += " (bot)" if p.get("bot") else ""
            tags += "" if p.get("rating") is None else " " + s.paint(f"(rating {p['rating']})", "grey")
            lines.append(f"   {s.text(p['name'])}{tags}")
        on = [f"{k}={v}" if v is not True else k for k, v in m["options"].items() if v not in (None, False, "off")]
        lines.append(f" Options: {', '.join(on) or 'none'}   (/option to see them all)")
        if "/start" in m["legal"]:
            lines.append(s.bold(" Ready: /start to play."))
        else:
            lines.append(f" Needs {m['min_players']} to {m['max_players']} players; the host types /start.")
        return lines
