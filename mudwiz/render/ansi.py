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
from mudwiz.render.common import confirmations, frame_view, rated, standings, unit_over, where_words
from mudwiz.render.meeting import PeopleLines
from mudwiz.render.reflow import reflow
from mudwiz.render.seasons import SeasonLines, games_said
from mudwiz.render.style import WIDTH, Style, pad, visible_len, wrap_cards, wrap_words
from mudwiz.render.talk import away, channel_lines, recent_lines, talk_chat
from mudwiz.texts import N_, now, now_n, words

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
        return now("The deal.")
    if frame["player"] is None:
        return now("Move {step} at {time}: the next round.", step=frame["step"], time=clock(frame["t"]))
    return now("Move {step} at {time}: {player} /{move}", step=frame["step"], time=clock(frame["t"]),
               player=style.text(frame["player"]), move=frame["action"])


def replay_moves(m: dict[str, Any], step: int, style: Style, around: int = 3) -> list[str]:
    """The moves before and after ``step``, the one shown marked, in as many lines as fit 80 columns."""
    shown = [mv for mv in m["moves"] if abs(mv["step"] - step) <= around]
    pieces = [("> " if mv["step"] == step else "") + f"{mv['step']}. " +
              (f"{style.text(mv['player'])} {mv['action']}" if mv["player"] else now("(next round)")) for mv in shown]
    if step <= around:
        pieces.insert(0, ("> " if step == 0 else "") + now("0. deal"))
    width = min(WIDTH, style.width)
    laid = wrap_cards([piece + "   " for piece in pieces], width, indent=8)  # a move is never broken
    return [pad(now(" Moves:"), 8) + laid[0][8:].rstrip(), *(line.rstrip() for line in laid[1:])]


def no_tables() -> str:
    """The lobby's empty table list, naming the games this server has (``/new wizard (or witches, tiltowait)``)."""
    first, *rest = available() or ["GAME"]
    if rest:
        return now("No tables yet: /new {game} (or {others}) opens one.", game=first, others=", ".join(rest))
    return now("No tables yet: /new {game} opens one.", game=first)


# A table's ``status`` (a protocol code) as /tables says it
TABLE_STATUS = {"waiting": N_("waiting"), "playing": N_("playing"), "over": N_("over"), "adjourned": N_("adjourned")}
OUTCOMES = {"finished": N_("finished"), "abandoned": N_("abandoned"), "damaged": N_("damaged")}


def outcome(code: str) -> str:
    """A recorded game's outcome (the store's word) as a person reads it; an unknown one as it is."""
    return now(OUTCOMES[code]) if code in OUTCOMES else code


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
            told = now("{name} tells {to}: ", name=who, to=s.text(m["to"]))
            return wrap_words(s.paint(told, "magenta", "bold") + text, s.width)
        return wrap_words(s.paint(f"[{m['channel']}] ", "grey") + s.bold(who) + ": " + text, s.width)

    def _recent(self, m: dict[str, Any]) -> list[str]:
        return recent_lines(m, self.style)

    def _channels(self, m: dict[str, Any]) -> list[str]:
        return channel_lines(m, self.style)

    # -- from the sysops

    def _announce(self, m: dict[str, Any]) -> list[str]:
        s = self.style
        said = now("** Announcement from the sysop {name}: ", name=s.text(m["from"]))
        return wrap_words(s.paint(said, "yellow", "bold")
                          + s.text(m["text"]), min(WIDTH, s.width))

    def _shutdown(self, m: dict[str, Any]) -> list[str]:
        return self._painted(f"** {m['text']}", "yellow", "bold")

    def _kicked(self, m: dict[str, Any]) -> list[str]:
        return self._painted(f"! {m['text']}", "red", "bold")

    def _bans(self, m: dict[str, Any]) -> list[str]:
        s = self.style
        rows = [s.rule(now("Bans ({n})", n=len(m["bans"])))]
        for b in m["bans"]:
            until = (now("until {when}, by {name}", when=b["until"].replace("T", " ").replace("Z", " UTC"),
                         name=s.text(b["by"])) if b["until"] else now("until lifted, by {name}", name=s.text(b["by"])))
            rows.append(f"  {b['kind']:<8} {pad(s.text(b['target']), 40)} {until}")
        return rows if m["bans"] else [*rows, now("  Nobody is banned.")]

    def _reveal_end(self, m: dict[str, Any]) -> list[str]:
        return [self.style.paint(now("* {name}'s hand is closed again.", name=self.style.text(m["player"])), "cyan")]

    def _help(self, m: dict[str, Any]) -> list[str]:
        lines = m["text"].splitlines()
        if str(m.get("topic", "")).startswith("rules") and max(map(visible_len, lines), default=0) > self.style.width:
            return reflow(lines, self.style.width, self.style.text)  # a sentence's tail was left on a row alone
        return [self.style.text(line) for line in lines]

    def _who(self, m: dict[str, Any]) -> list[str]:
        rows = [f"  {pad(self.style.text(u['name']), 18)} {pad(where_words(u['where']), 22)} "
                f"{rated(u)}{away(u, self.style)}".rstrip() for u in m["users"]]
        total = m.get("total", len(rows))
        if m.get("next"):
            rows.append(now("  ... more: /who {name} lists the next {n}", name=self.style.text(m["next"]), n=len(rows)))
        return [self.style.rule(now("Online ({n})", n=total)), *rows]

    def _tables(self, m: dict[str, Any]) -> list[str]:
        if not m["tables"]:
            return [no_tables()]
        rows = [self.style.rule(now("Tables"))]
        for t in m["tables"]:
            players = ", ".join(self.style.text(p) for p in t["players"]) or "-"
            watchers = now(", {n} watching", n=t["observers"]) if t["observers"] else ""
            status = now(TABLE_STATUS[t["status"]]) if t["status"] in TABLE_STATUS else t["status"]
            rows.append(f"  #{t['id']:<3} {t['game']:<10} {pad(status, 8)} {t['seats']:>5}  {players}{watchers}")
        return rows

    def _options(self, m: dict[str, Any]) -> list[str]:
        """One option a line, its help broken between words into a column of its own: a help text runs past 80
        columns, and a terminal's own wrapping would cut words in half under the names."""
        rows = [self.style.rule(now("Options of table {table} ({game})", table=m["table"], game=m["game"]))]
        for o in m["options"]:
            value = str(o["shown"])
            head = f"  {o['name']:<13} {value:<6} "
            rows += wrap_words(head + self.style.text(o["help"]), self.style.width, indent=len(head))
        rows += wrap_words(now("  /option NAME [VALUE] sets one (host, before /start)."), self.style.width, indent=4)
        return rows

    def _score(self, m: dict[str, Any]) -> list[str]:
        return draw(m["game"], "score_sheet")(m, self.style)

    # -- game records

    def _history(self, m: dict[str, Any]) -> list[str]:
        """A player's last games, one a line (the players wrap under it): id, game, date, their place, scores."""
        s = self.style
        rows = [s.rule(now("Games of {name}", name=s.text(m["name"])))]
        if not m["games"]:
            return [*rows, now("  No games recorded for {name}.", name=s.text(m["name"]))]
        for g in m["games"]:
            # an abandoned game recorded with places (since they were kept) counts: a person's place is "left"
            of = {"place": g["place"], "n": len(g["players"])}
            place = outcome(g["outcome"]) if g["outcome"] == "damaged" or g["place"] is None else (
                now("left {place}/{n}", **of) if g["outcome"] == "abandoned" else now("place {place}/{n}", **of))
            players = ", ".join(s.text(p["name"]) + ("" if p["score"] is None else f" {p['score']}")
                                for p in g["players"])
            head = f"  #{g['id']:<5} {g['game']:<10} {g['date'][:10]} {g['date'][11:16]}  {pad(place, 11)} "
            under = visible_len(head) if visible_len(head) + 20 <= self.style.width else 4  # narrow: under the row
            rows += wrap_words(head + players, self.style.width, indent=under)
        rows.append(now("  /game ID shows a game's score sheet."))
        return rows

    def _game(self, m: dict[str, Any]) -> list[str]:
        """A recorded game: who played (and what sat in each seat), its options, its score sheet, its places."""
        s = self.style
        date = f"{m['date'][:10]} {m['date'][11:16]} UTC"
        lines = [s.rule(now("Game #{id}: {game}, {date}, {outcome}", id=m["id"], game=m["game"], date=date,
                            outcome=outcome(m["outcome"])))]
        seats = [s.text(p["name"]) + ("" if p["kind"] == "person" else f" ({p['kind'].replace(':', ' ')})")
                 for p in m["players"]]
        lines += wrap_words(now(" Players: {names}", names=", ".join(seats)), self.style.width)
        on = [f"{k}={v}" if v is not True else k for k, v in m["options"].items() if v not in (None, False, "off")]
        lines += wrap_words(now(" Options: {options}", options=", ".join(on)) if on else now(" Options: none"),
                            self.style.width)
        lines += draw(m["game"], "score_sheet")(m, s)
        if not m["standings"]:
            return [*lines, *map(s.bold, wrap_words(now(" Abandoned with no final places: it counts for nobody's "
                                                        "rating."), self.style.width))]
        if m["outcome"] == "abandoned":
            bots = any(p["kind"].startswith("bot:") for p in m["players"])
            said = (now(" Abandoned: nobody was left playing (they left, or dropped for good). It counts as it stood, "
                        "those who left placed below the bots.") if bots else
                    now(" Abandoned: nobody was left playing (they left, or dropped for good). It counts as it stood."))
            lines += map(s.bold, wrap_words(said, self.style.width))
        return [*lines, *standings(m["standings"], s)]

    def _analysis(self, m: dict[str, Any]) -> list[str]:
        """The coach after a game (``/analyze``): drawn by the game's renderer (``analysis_lines``), which knows
        its moves; a game whose renderer has none is shown its rule alone."""
        part = getattr(game_renderer(m["game"]), "analysis_lines", None)
        if part is None:
            return [self.style.rule(now("Analysis of game #{id}: {game}", id=m["id"], game=m["game"]))]
        return list(part(m, self.style))

    # -- ratings

    def _rating(self, m: dict[str, Any]) -> list[str]:
        """A player's (or a bot level's) rating in each game: the shown figure, mu and sigma, games, rank."""
        s = self.style
        name = s.text(m["name"])
        rows = [s.rule(now("Ratings of {name} (fixed: bots are not rated by games)", name=name) if m["bot"]
                       else now("Ratings of {name}", name=name))]
        if not m["ratings"]:
            return [*rows, *wrap_words(now("  {name} has no rating yet: registered players are rated by every game "
                                           "they finish.", name=name), min(WIDTH, s.width), indent=2)]
        for r in m["ratings"]:
            played = "" if m["bot"] else now_n("  {n:>4} game  rank {rank}", "  {n:>4} games  rank {rank}", r["games"],
                                               rank=r["rank"])
            rows.append(f"  {r['game']:<10} {r['rating']:>6}  (mu {r['mu']:5.2f}, sigma {r['sigma']:4.2f})"
                        f"{played}")
        rows += wrap_words(now("  Shown: 1000 + 40 x (mu - 3 sigma); a new player starts at 1000 (/help rating)."),
                           s.width, indent=4)
        return rows

    def _top(self, m: dict[str, Any]) -> list[str]:
        """Each game's best rated players, then its bot levels' fixed ratings to compare with."""
        s = self.style
        rows = []
        for g in m["games"]:
            rows.append(s.rule(now("Top rated: {game}", game=g["game"])))
            rows += [f"  {r['rank']:>3}. {pad(s.text(r['name']), 16)} {r['rating']:>6}  "
                     f"(mu {r['mu']:5.2f}, sigma {r['sigma']:4.2f}) {games_said(r['games'])}" for r in g["players"]]
            if not g["players"]:
                rows.append(now("  Nobody is rated yet."))
            bots = ", ".join(f"{b['name']} {b['rating']}" for b in g["bots"])
            rows += wrap_words(now("  Bots (fixed): {bots}", bots=bots), min(WIDTH, s.width), indent=4)
        return rows

    def _replay(self, m: dict[str, Any]) -> list[str]:
        """One step of a recorded game (``/replay ID STEP``): what happened, the table after it with every hand
        shown, drawn by the game's own table view, the moves around it, and how to go on."""
        s, frame = self.style, m["frames"][0]
        step, last, game_id = frame["step"], m["steps"], m["id"]
        lines = [s.rule(now("Replay of game #{id}: {game}, {date}, step {step} of {last}", id=game_id, game=m["game"],
                            date=m["date"][:10], step=step, last=last))]
        lines.append(s.bold(f" {replay_move(frame, s)}"))
        for event in frame["events"]:
            lines += draw(m["game"], "event_lines")({**event, "game": m["game"]}, s)
        lines += draw(m["game"], "table_view")(frame_view(m, frame), s)
        lines += replay_moves(m, step, s)
        if step < last:
            after = (now(" /replay next (or /replay {id} {step}): the next move; /replay prev: the one before.",
                         id=game_id, step=step + 1) if step > 0 else
                     now(" /replay next (or /replay {id} {step}): the next move.", id=game_id, step=step + 1))
        else:
            after = now(" The end; /replay prev: the one before.") if step > 0 else now(" The end.")
        return [*lines, *wrap_words(s.paint(after, "grey"), min(WIDTH, s.width), indent=1)]

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
        title = now("{game} - game over: final standings", game=m["game"].capitalize())
        return [*standings(m.get("standings") or [], self.style, title), *self.closing_hint(m)]

    def closing_hint(self, m: dict[str, Any]) -> list[str]:
        """The line or two after a round's or the game's result: what to type next (each fits 80 columns)."""
        bold = self.style.bold
        if m["phase"] == Phase.GAMEOVER:
            over = now(" Game over. Type /start for a new game.") if "/start" in m["legal"] else now(" Game over.")
            return [bold(line) for text in (over, now(" /score shows the sheet; /leave returns to the lobby."))
                    for line in wrap_words(text, self.style.width)]
        unit = getattr(game_renderer(m["game"]), "ROUND", generic.ROUND)  # Witches and Tiltowait deal hands
        wait = m.get("table_options", {}).get("confirm")
        said = (unit_over(unit, "watch") if m["observer"] else unit_over(unit, "wait", wait=wait) if wait
                else unit_over(unit, "type"))
        return [bold(line) for line in wrap_words(said, self.style.width)]

    def waiting_room(self, m: dict[str, Any]) -> list[str]:
        s = self.style
        lines = [s.rule(now("Table {table}: {game}, waiting ({n}/{most})", table=m["table"], game=m["game"],
                            n=len(m["players"]), most=m["max_players"]))]
        for p in m["players"]:
            tags = now(" (host)") if p["name"] == m["host"] else ""
            tags += now(" (bot)") if p.get("bot") else ""
            rating = "" if p.get("rating") is None else now("(rating {rating})", rating=p["rating"])
            tags += " " + s.paint(rating, "grey") if rating else ""
            lines.append(f"   {s.text(p['name'])}{tags}")
        on = [f"{k}={v}" if v is not True else k for k, v in m["options"].items() if v not in (None, False, "off")]
        said = (now(" Options: {options}   (/option to see them all)", options=", ".join(on)) if on
                else now(" Options: none   (/option to see them all)"))
        lines += wrap_words(said, s.width, indent=3)
        if "/start" in m["legal"]:
            lines.append(s.bold(now(" Ready: /start to play.")))
        else:
            lines += wrap_words(now(" Needs {low} to {high} players; the host types /start.", low=m["min_players"],
                                    high=m["max_players"]), s.width, indent=3)
        return lines
