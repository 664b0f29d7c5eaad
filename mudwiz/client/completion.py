"""Tab completion for the input line: commands, legal moves, card codes and names, all from the model.

Moves are completed from the latest ``state.legal`` only, so ``/play `` offers exactly the cards the server
would accept now, never a card the client merely guesses might be fine.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from mudwiz.client.model import Model
from mudwiz.client.texts import _
from mudwiz.games import available, plugin, plugins
from mudwiz.texts import N_

# Until the server's catalogue arrives (with ``welcome``), docs/protocol.md's command table: the client may not
# import the server's registry (the games: this install's). /mode is never offered: the client must stay in JSON mode.
COMMANDS = {  # what each does, in the client's language where shown (``{games}``: this install's)
    "/help": N_("the commands, one command, or a game's moves"), "/who": N_("who is online"),
    "/tables": N_("the tables"), "/new": N_("open a table: {games}"), "/join": N_("sit at table N"),
    "/watch": N_("observe table N"), "/leave": N_("leave your table"), "/option": N_("show or set an option"),
    "/bot": N_("add [LEVEL] | remove NAME"), "/start": N_("start the game"), "/ok": N_("confirm the round"),
    "/score": N_("the score sheet"), "/look": N_("redraw"), "/say": N_("chat"),
    "/tell": N_("NAME TEXT: private message"), "/quit": N_("leave the client"),
    "/channel": N_("the channels; join|leave NAME"), "/ch": N_("NAME TEXT: speak on a channel"),
    "/shout": N_("TEXT to everyone"), "/me": N_("TEXT: an emote"), "/away": N_("[TEXT]: mark yourself away"),
    "/seek": N_("GAME [N] [rated|casual] [min=R] [max=R] [OPTION ...]: ask for a game"),
    "/seeks": N_("the open seeks"), "/unseek": N_("withdraw your seek"),
    "/quick": N_("GAME: play soon (bots fill after a wait)"), "/again": N_("after a game: the same seats again"),
}
CHANNEL_VERBS = ("join", "leave")  # /channel's (a sysop's mute and unmute are typed in full)
SEEK_WORDS = ("rated", "casual", "min=", "max=")  # /seek's words after the game (mudwiz/meeting/seekwords.py)
BOT_LEVELS = ("easy", "normal", "hard", "random")
RULE_SECTIONS = ("goal", "play", "scoring", "options")  # /rules GAME SECTION (docs/protocol.md), every game's


def rule_sections() -> list[str]:
    """The sections ``/rules GAME SECTION`` takes: every game's, then those a game here has of its own."""
    return list(dict.fromkeys([*RULE_SECTIONS, *(section for p in plugins().values() for section in p.rules)]))


def channel_names(model: Model) -> list[str]:
    """The built-in channels (one per game, and ``help``): those a newcomer joins; ``/channel`` lists the rest."""
    return [*(model.games or available()), "help"]


def _matching(candidates: Iterable[str], typed: str, meta: str | None = None) -> Iterator[Completion]:
    seen: set[str] = set()
    for c in candidates:
        if c.lower().startswith(typed.lower()) and c not in seen:
            seen.add(c)
            yield Completion(c, start_position=-len(typed), display_meta=meta)


class CommandCompleter(Completer):
    """Completes what is being typed against what the model knows now (it is read at each keystroke)."""

    def __init__(self, model: Model) -> None:
        self.model = model

    def commands(self) -> dict[str, str]:
        known = self.model.commands or {name: _(text, games=", ".join(available()))
                                        for name, text in COMMANDS.items()}
        return {name: text for name, text in known.items() if name != "/mode"}

    def move_verbs(self) -> set[str]:
        """The moves of every game here (its engine's ``VERBS``), slash and all: their arguments come from the
        legal moves only, never from another command's completions."""
        return {f"/{verb}" for game in self.model.games or available() if (found := plugin(game)) is not None
                for verb in found.engine_class.VERBS}

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        text = document.text_before_cursor
        if not text.startswith("/"):
            word = document.get_word_before_cursor()
            if word:
                yield from _matching(self.model.player_names(), word)
            return
        if " " not in text:
            verbs = {c.split()[0]: _("your move now") for c in self.model.legal}
            for name, meta in {**verbs, **self.commands()}.items():
                if name.startswith(text.lower()):
                    yield Completion(name, start_position=-len(text), display_meta=meta)
            return
        verb, _space, rest = text.partition(" ")
        yield from self._arguments(verb.lower(), rest)

    def _first_argument(self, verb: str) -> tuple[list[str], str | None] | None:
        """What a command's one argument may be (and its label), for the commands that take one from a list."""
        model = self.model
        if verb in ("/join", "/watch"):
            ids = [str(t["id"]) for t in model.tables]
            if model.state is not None:
                ids.append(str(model.state.get("table")))
            return ids, "table"
        if verb in ("/tell", "/rating", "/history", "/ignore", "/unignore"):
            return model.player_names(), None
        if verb in ("/finger", "/notify", "/unnotify", "/message"):  # people: a player's name
            return model.player_names(), None
        if verb in ("/new", "/top", "/quick"):
            return list(model.games or available()), None
        if verb == "/ch":
            return channel_names(model), "channel"
        return None

    def _seek_arguments(self, words: list[str], last: str) -> Iterator[Completion]:
        """``/seek``'s: a game, then its words and options."""
        if len(words) == 1:
            yield from _matching(self.model.games or available(), last)
        elif (found := plugin(words[0].lower())) is not None:
            options = [o.name for o in found.engine_class.OPTIONS]
            yield from _matching([*SEEK_WORDS, *options], last, "seek")

    def _arguments(self, verb: str, rest: str) -> Iterator[Completion]:
        model = self.model
        words = rest.split(" ")
        last = words[-1]
        if model.picking and verb == f"/{model.picking}":
            chosen = {w.upper() for w in words[:-1]}
            yield from _matching([c for c in model.hand if c.upper() not in chosen], last, "card")
            return
        moves = [c for c in model.legal if c.lower().startswith(f"{verb} ")]
        if moves or verb in self.move_verbs():
            typed = f"{verb} {rest}".lower()
            for move in moves:  # the whole rest of the move, so "MAHALITO K" comes as one
                if move.lower().startswith(typed):
                    yield Completion(move[len(verb) + 1:], start_position=-len(rest), display_meta="legal")
            return
        if len(words) > 1 and verb not in ("/bot", "/rules", "/channel", "/seek"):
            return  # past the argument: free text (a tell's message)
        single = self._first_argument(verb)
        if single is not None:
            yield from _matching(single[0], last, single[1])
        elif verb == "/seek":
            yield from self._seek_arguments(words, last)
        elif verb == "/rules":
            if len(words) == 1:
                yield from _matching(model.games or available(), last)
            elif len(words) == 2:
                yield from _matching(rule_sections(), last, "section")
        elif verb == "/help":
            topics = [*(c.removeprefix("/") for c in self.commands()), *(model.games or available()), "all"]
            yield from _matching(topics, last)
        elif verb == "/option" and model.state is not None:
            names = [*model.state.get("options", {}), *model.state.get("table_options", {})]
            yield from _matching(names, last, "option")
        elif verb == "/channel" and len(words) <= 2:
            yield from _matching(CHANNEL_VERBS if len(words) == 1 else channel_names(model), last)
        elif verb == "/bot":
            if len(words) == 1:
                yield from _matching(("add", "remove"), last)
            elif len(words) == 2 and words[0] == "add":
                yield from _matching(model.bot_levels or BOT_LEVELS, last)
            elif len(words) == 2 and words[0] == "remove" and model.state is not None:
                yield from _matching([p["name"] for p in model.state.get("players", []) if p.get("bot")], last)
