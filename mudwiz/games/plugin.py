"""One game as one entry: what the server, the bots, the renderers and the client need to know about it.

A ``GamePlugin`` is data, not behaviour: the engine class and dotted paths (``"package.module:attr"``) to the
optional parts, which are imported only when used. A package adds a game by pointing an entry point of the
``mudwiz.games`` group at one (``docs/games.md``); nothing in mudwiz lists games by hand any more.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from mudwiz.games.base import Game

GROUP = "mudwiz.games"  # the entry point group plugins register in


def load(path: str) -> Any:
    """The object a ``"module:attr"`` path names (``"module"`` alone: the module). Raises ImportError or
    AttributeError when it is missing, for the caller to log."""
    module, _, attr = path.partition(":")
    obj: Any = import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class GamePlugin:
    """A game's parts. Only ``engine`` is required: a game without a renderer is drawn by
    ``mudwiz.render.generic``, one without bots of a level plays that level randomly, one without client columns
    shows its players' plain fields in the client.

    - ``engine``: the ``Game`` subclass, or its ``"module:Class"`` path (imported when the registry loads);
    - ``renderer``: a module path with ``table_view``, ``score_sheet`` and ``event_lines`` (any may be left out);
    - ``bots``: level name -> ``"module:Class"`` of a policy (``mudwiz.bots.Bot`` subclass); ``random`` is free;
    - ``client``: a module path with ``columns(state)`` and ``info_segments(state)`` for the terminal client;
    - ``low_wins``: the lowest score wins (a rise in score is bad news);
    - ``bot_ratings``: level -> (mu, sigma), the levels' fixed ratings (``bench/ratings.py`` calibrates them); a
      level not here plays as a fresh rating;
    - ``order``: where mudwiz lists its own games (other distributions' games follow by name).

    What the shared layers would otherwise have to know of a game, its plugin declares (all optional):

    - ``phases``: the game's own phases besides the common ``Phase`` words (waiting, playing, roundend,
      gameover), in the order a round goes through them;
    - ``prompts``: verb -> the words the client's status line asks for (``YOUR TURN: name trump``), where
      ``{count}`` is the ``card_choice`` count; a verb not here is asked for by itself;
    - ``card_choice``: a verb whose move names several cards of the hand, chosen one by one (the client's Space;
      a random bot's sample): the view's field of that name gives their ``count``;
    - ``calls``: words a move may end with to make a call along with it (``play R3 karuki``): the client keeps
      such a form with its move and offers it first;
    - ``round_start``: the type of the event that opens a round (the client forgets the last trick's taker);
    - ``keys``: the terminal client's keys of this game, (key, what it does), for its key help;
    - ``sections``: commands that show one section of the rules (``/spells``): command -> its ``/help`` words;
    - ``texts``: the ``"module:attr"`` path of the game's ``mudwiz.texts.Domain``, its own message catalog
      (``<package>/locale/<lang>/LC_MESSAGES/<domain>.po``), loaded with the engine so that the game's ``later``
      texts read in every language in any process;
    - ``letters``: the card legend, (letter, what it means in this game) in the order shown: ``/rules GAME`` and
      ``/help cards`` say them, and where another game reads a letter otherwise (``games/legend.py``);
    - ``rules_in``: language code -> ``"module:attr"`` of the rules in brief in that language, the same sections
      as ``RULES`` (``/rules GAME ja``; a language not here is shown the English);
    - ``legend_in``: language code -> ``"module:attr"`` of the card legend as one line in that language, code and
      name side by side (``R=赤 Y=黄``), shown in that language's ``cards`` section;
    - ``analysis``: the ``"module:function"`` path of the coach after a game (``/analyze``, ``mudwiz export
      --analysis``): ``analyse(players, options, seed, log, seat, round)`` (``round`` None: every round) returns
      work in pieces (a generator yielding None where it may pause) whose result is the JSON-ready analysis of
      that seat, judged from what the seat could see; its renderer's ``analysis_lines(message, style)`` draws
      it. A game without one has no analysis.
    """

    engine: type[Game] | str
    renderer: str | None = None
    bots: Mapping[str, str] = field(default_factory=dict)
    client: str | None = None
    low_wins: bool = False
    bot_ratings: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    order: int = 0
    phases: tuple[str, ...] = ()
    prompts: Mapping[str, str] = field(default_factory=dict)
    card_choice: str | None = None
    calls: tuple[str, ...] = ()
    round_start: str | None = None
    keys: tuple[tuple[str, str], ...] = ()
    sections: Mapping[str, str] = field(default_factory=dict)
    letters: tuple[tuple[str, str], ...] = ()
    rules_in: Mapping[str, str] = field(default_factory=dict)
    legend_in: Mapping[str, str] = field(default_factory=dict)
    texts: str | None = None
    analysis: str | None = None

    @property
    def engine_class(self) -> type[Game]:
        engine = load(self.engine) if isinstance(self.engine, str) else self.engine
        if not (isinstance(engine, type) and issubclass(engine, Game)):
            raise TypeError(f"{self.engine!r} is not a mudwiz.games.base.Game subclass")
        return engine

    @property
    def name(self) -> str:
        """The name tables are opened with (``/new NAME``): the engine's own ``name``."""
        return self.engine_class.name

    @property
    def rules(self) -> Mapping[str, str]:
        """The rules in brief, by section: the engine's ``RULES`` (the game owns its text)."""
        return self.engine_class.RULES

    def rules_for(self, lang: str) -> Mapping[str, str]:
        """The rules in brief in ``lang`` (a language code, ``ja``), by section; the English ``RULES`` when the
        game has none in that language, so that every player is shown the rules in some language."""
        path = self.rules_in.get(lang)
        return load(path) if path else self.rules

    def legend_for(self, lang: str) -> str | None:
        """The card legend as one line in ``lang`` (``R=赤 Y=黄 ...``), or None when the game has none in it."""
        path = self.legend_in.get(lang)
        return load(path) if path else None

    @classmethod
    def of(cls, obj: Any) -> GamePlugin:
        """What an entry point names, as a plugin: a ``GamePlugin``, or a bare ``Game`` subclass (a game that
        needs nothing but its engine)."""
        if isinstance(obj, GamePlugin):
            return obj
        if isinstance(obj, type) and issubclass(obj, Game):
            return cls(engine=obj)
        raise TypeError(f"{obj!r} is neither a GamePlugin nor a Game subclass")
