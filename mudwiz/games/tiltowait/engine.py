"""Tiltowait (ASCII's Wizardry card game), to the letter of ``shared/rules/tiltowait.md``.

A shedding game of the Crazy Eights / UNO family: match the colour or number of the top discard, attack and
defend with nine spells, be the first to empty your hand. Every choice the rules page leaves open is written
down under "Decisions" in ``docs/tiltowait.md``; the code below says which one it implements where it matters.

Vocabulary: the *turn* player moves next in ordinary play; while a spell waits for an answer (a draw to take,
a TILTOWAIT draw, a MILWA to allow) the game is waiting on the *asked* player instead, who may be anybody.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from mudwiz.cards import Action, Deck, rank_of, remove_card, sort_hand, suit_of
from mudwiz.errors import BadOption, IllegalAction
from mudwiz.games.base import Event, Game, Option, Phase, Seat, TimedReveal, shuffle
from mudwiz.games.tiltowait.rules import RULES_TEXT

COLOURS = "KRGB"  # the order the sheet lists them in: black, red, gold, blue
COLOUR_NAMES = {"K": "black", "R": "red", "G": "gold", "B": "blue"}
HAND_SIZE = 7
DEFAULT_HANDS = 5
MILWA_SECONDS = 5
MILWA_AUDIENCES = ("table", "caster")  # option milwa: who sees the opened hand; the sheet's "opened" is the table

HALITO, DALTO, MAHALITO, MADALTO, TILTOWAIT = "HALITO", "DALTO", "MAHALITO", "MADALTO", "TILTOWAIT"
KATINO, MILWA, MONTINO, HAMAN = "KATINO", "MILWA", "MONTINO", "HAMAN"
COLOURED_SPELLS = {HALITO: 2, DALTO: 1, KATINO: 2}  # copies per colour; wire code ``HALITO-R``
PLAIN_SPELLS = {MAHALITO: 4, MADALTO: 2, TILTOWAIT: 2, MILWA: 2, MONTINO: 4, HAMAN: 6}
POINTS = {HALITO: 20, DALTO: 20, MAHALITO: 40, MADALTO: 40, TILTOWAIT: 40, KATINO: 20, MILWA: 40,
          MONTINO: 30, HAMAN: 30}
DRAWS = {HALITO: 2, DALTO: 2, MAHALITO: 4, MADALTO: 4}  # what the next player is told to draw
REVERSES = frozenset({DALTO, MADALTO})
NAMES_COLOUR = frozenset({MAHALITO, MADALTO, TILTOWAIT, MILWA, HAMAN})
CANCELS = frozenset({MONTINO, HAMAN})
NOT_LAST = frozenset({MAHALITO, MADALTO, MILWA, MONTINO, HAMAN})
SMALL_ATTACKS = frozenset({HALITO, DALTO})
BIG_ATTACKS = frozenset({MAHALITO, MADALTO})
NOT_UNDER_TILTOWAIT = frozenset({HALITO, DALTO, MAHALITO, MADALTO, KATINO, TILTOWAIT})
TILTOWAIT_DRAW = 2
KARUKI_PENALTY = 2
KARUKI = "karuki"  # the verb of the call, and the last word of a discard that makes it: ``play R3 karuki``

DECK = Deck(
    suits=COLOURS,
    low=1,
    high=10,
    specials={
        **{f"{spell}-{c}": copies for spell, copies in COLOURED_SPELLS.items() for c in COLOURS},
        **PLAIN_SPELLS,
    },
)


def full_deck() -> list[str]:
    """The 120 cards: ``Deck`` builds each monster once, and Tiltowait has two of each."""
    cards = DECK.cards()
    return cards + [c for c in cards if suit_of(c)]


CODES = sort_hand(set(DECK.cards()), COLOURS)  # the 49 distinct codes in hand order
ORDER = {code: i for i, code in enumerate(CODES)}
# code -> (spell or None, colour or None, number or 0): legal_actions asks these thousands of times a hand
_INFO = {
    code: (None, suit_of(code), rank_of(code)) if suit_of(code) else
    (code.split("-")[0], code.split("-")[1] if "-" in code else None, 0)
    for code in CODES
}


def spell_of(code: str) -> str | None:
    """The spell's name (``HALITO`` for ``HALITO-R``), or None for a monster."""
    return _INFO[code][0]


def colour_of(code: str) -> str | None:
    """A monster's or coloured spell's colour letter; None for the colourless spells."""
    return _INFO[code][1]


def number_of(code: str) -> int:
    """A monster's number; 0 for a spell."""
    return _INFO[code][2]


def points(code: str) -> int:
    """What a card left in hand costs: a monster its number, a spell its points."""
    spell = spell_of(code)
    return number_of(code) if spell is None else POINTS[spell]


def hand_score(cards: list[str]) -> int:
    """Minus the hand's points, doubled once when it holds a TILTOWAIT (two TILTOWAITs still double once)."""
    total = sum(points(c) for c in cards)
    return -total * (2 if TILTOWAIT in cards else 1)


def parse_colour(text: str) -> str:
    """A colour as typed (``r``, ``Red``, ``gold``) to its letter; gold is G here, not green."""
    word = text.strip().upper()
    for letter, name in COLOUR_NAMES.items():
        if word in (letter, name.upper()):
            return letter
    raise IllegalAction(f"{text!r} is not a colour: say K (black), R (red), G (gold) or B (blue)")


def parse_card(text: str) -> str:
    """A card as typed to its wire code, with a hint for a coloured spell named without its colour."""
    word = text.strip().upper()
    if word in COLOURED_SPELLS:
        raise IllegalAction(f"{word} has a colour: say {word}-K, {word}-R, {word}-G or {word}-B")
    try:
        return DECK.parse(word)
    except IllegalAction:
        raise IllegalAction(
            f"{text!r} is not a Tiltowait card: monsters are K, R, G or B with 1..10 (R7), spells "
            "HALITO-R, DALTO-R, KATINO-R, MAHALITO, MADALTO, TILTOWAIT, MILWA, MONTINO, HAMAN"
        ) from None


def colour_text(colour: str | None) -> str:
    return COLOUR_NAMES[colour] if colour else "none"


# ---------------------------------------------------------------- events


@dataclass(frozen=True)
class HandStart(Event):
    """A hand is dealt: seven cards each, ``top`` turned from the stock; ``starter`` moves first."""

    round: int
    starter: str
    top: str
    cards: int = HAND_SIZE


@dataclass(frozen=True)
class CardPlayed(Event):
    """A discard; ``target`` is the player a MILWA looks at."""

    player: str
    card: str
    target: str | None = None


@dataclass(frozen=True)
class ColourNamed(Event):
    player: str
    colour: str


@dataclass(frozen=True)
class Reversed(Event):
    """Direction of play changed (``player`` None: the turned first card did it)."""

    player: str | None
    direction: str


@dataclass(frozen=True)
class DrawPending(Event):
    """``player`` is told to draw ``count`` (the stacked total) by ``card``: stack, cancel or draw."""

    player: str
    count: int
    card: str


@dataclass(frozen=True)
class Asleep(Event):
    """KATINO: ``player`` sleeps through their turn."""

    player: str


@dataclass(frozen=True)
class Cancelled(Event):
    """``player`` cancels ``spell`` (the card on top, or TILTOWAIT / MILWA) with ``card``."""

    player: str
    card: str
    spell: str


@dataclass(frozen=True)
class Drew(Event):
    """Cards drawn; everyone sees the count, only the drawer the cards. ``reason``: draw, attack, tiltowait, karuki."""

    player: str
    count: int
    cards: list[str] | None = None
    reason: str = "draw"

    def visible_to(self, viewer: str | None) -> Event | None:
        return self if viewer == self.player else replace(self, cards=None)


@dataclass(frozen=True)
class Kept(Event):
    """The player drew a playable card and kept it: the turn passes."""

    player: str


@dataclass(frozen=True)
class TiltowaitTurn(Event):
    """TILTOWAIT: ``player`` is now to draw 2 or cancel their own draw."""

    player: str


@dataclass(frozen=True)
class MilwaCast(Event):
    """MILWA aimed at ``target``, who may cancel it or let ``caster`` look."""

    caster: str
    target: str


@dataclass(frozen=True)
class HandShown(Event):
    """The public half of a MILWA: ``player``'s hand is opened by ``to``'s MILWA, to ``audience`` (``table``:
    everyone; ``caster``: ``to`` alone). What is seen is ``MilwaReveal``."""

    player: str
    to: str
    audience: str = "table"


@dataclass(frozen=True)
class MilwaReveal(Event, TimedReveal):
    """The target's cards, opened ``seconds`` long (the table times it) to ``audience``: ``table``, everyone
    seated or watching (the sheet: the cards are "opened", face up), or ``caster`` alone (option milwa=caster)."""

    caster: str
    target: str
    cards: list[str] = field(default_factory=list)
    seconds: int = MILWA_SECONDS
    audience: str = "table"

    def visible_to(self, viewer: str | None) -> Event | None:
        return self if self.audience == "table" or viewer == self.caster else None

    @property
    def reveal_seconds(self) -> float:
        return self.seconds

    @property
    def revealed_player(self) -> str:
        return self.target


@dataclass(frozen=True)
class Karuki(Event):
    player: str


@dataclass(frozen=True)
class Caught(Event):
    """``by`` caught ``player`` with one card and no karuki call: a penalty draw follows."""

    player: str
    by: str


@dataclass(frozen=True)
class Reshuffled(Event):
    """The discard pile but its top became the new stock of ``cards`` cards."""

    cards: int


@dataclass(frozen=True)
class RoundEnd(Event):
    """A hand is over: ``winner`` went out; ``results`` in seat order: player, cards, doubled, delta, score."""

    round: int
    winner: str
    results: list[dict[str, Any]] = field(default_factory=list)


# ---------------------------------------------------------------- the engine


class Tiltowait(Game):
    name = "tiltowait"
    title = "Tiltowait"
    min_players = 3
    max_players = 10
    OPTIONS = (
        Option("hands", f"play N hands (default {DEFAULT_HANDS} when no limit is set)", default=None, lo=1, hi=100),
        Option("limit", "play until a total reaches this floor or below, e.g. limit=-300", default=None,
               lo=-100000, hi=-1),
        Option("milwa", "who sees the hand MILWA opens: table (everyone) or caster", default="table",
               choices=MILWA_AUDIENCES),
    )
    REACTION_VERBS = frozenset({"catch"})
    VERBS = {
        "play": "play CARD [COLOUR] [karuki]: discard, e.g. play R7, play MAHALITO G, play MILWA NAME B; "
                "end with karuki when it leaves you one card",
        "draw": "draw: draw one card (or take the draw a spell gives you)",
        "keep": "keep: keep the card you drew, or let a MILWA show your hand",
        "karuki": "karuki: call your last card",
        "catch": "catch NAME: NAME has one card and did not call karuki: they draw 2",
    }
    RULES = RULES_TEXT

    # -- options

    @classmethod
    def _check_combination(cls, options: dict[str, Any], nplayers: int | None) -> None:
        if options["hands"] is not None and options["limit"] is not None:
            raise BadOption("hands and limit each set the match's length: choose one (hands=off or limit=off)")

    @property
    def hands_to_play(self) -> int | None:
        """How many hands the match lasts; None when it runs until the limit."""
        if self.options["hands"] is not None:
            return int(self.options["hands"])
        return None if self.options["limit"] is not None else DEFAULT_HANDS

    # -- set-up

    def _start(self) -> list[Event]:
        n = len(self.players)
        self.scores = [0] * n
        self.sheet: list[dict[str, Any]] = []
        self.round = 0
        self.starter = self.rng.randrange(n)  # the sheet: rock-paper-scissors
        return self._deal()

    def _deal(self) -> list[Event]:
        n = len(self.players)
        self.round += 1
        deck = full_deck()
        shuffle(self.rng, deck)
        self.hands: list[list[str]] = [deck[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i in range(n)]
        self.stock: list[str] = deck[n * HAND_SIZE :]  # the top of the stock is the end of the list
        self.discard: list[str] = [self.stock.pop()]
        self._phase = Phase.PLAYING
        self.direction = -1  # counter-clockwise: seat - 1 moves next
        self.turn: Seat = self.starter
        self.colour: str | None = colour_of(self.top)
        self.pending = 0  # the draw total aimed at the turn player
        self.attacker: Seat | None = None
        self.drawn: str | None = None  # a playable card the turn player just drew
        self.responders: list[Seat] = []  # TILTOWAIT: who still draws 2 or cancels, the first is asked now
        self.caster: Seat | None = None  # of the TILTOWAIT or MILWA being answered
        self.milwa_target: Seat | None = None
        self.asleep: Seat | None = None
        self.exposed: Seat | None = None  # down to one card without a karuki call, and nobody has moved since
        self.called: set[Seat] = set()
        events: list[Event] = [HandStart(self.round, self.players[self.starter], self.top)]
        return events + self._turned_spell()

    def _turned_spell(self) -> list[Event]:
        """A spell turned as the first discard takes effect on the first player (docs: Decisions)."""
        spell = spell_of(self.top)
        first = self.starter
        events: list[Event] = []
        if spell in REVERSES:
            self.direction = -self.direction
            events.append(Reversed(None, self.direction_name))
        if spell in DRAWS:
            self.pending = DRAWS[spell]
            events.append(DrawPending(self.players[first], self.pending, self.top))
        elif spell == KATINO:
            self.asleep, self.turn = first, self._next(first)
            events.append(Asleep(self.players[first]))
        elif spell == TILTOWAIT:  # everyone, the first player first, draws 2; then the next player plays
            self.responders = [(first + i * self.direction) % len(self.players) for i in range(len(self.players))]
            self.turn = self._next(first)  # the sheet: the spell's effect is the first player's turn
            events.append(TiltowaitTurn(self.players[first]))
        return events  # MILWA, MONTINO, HAMAN: nothing to do but name the colour

    # -- state queries

    @property
    def top(self) -> str:
        return self.discard[-1]

    @property
    def direction_name(self) -> str:
        return "cw" if self.direction == 1 else "ccw"

    @property
    def situation(self) -> str:
        """What the asked player answers: ``milwa``, ``tiltowait``, ``attack``, ``drawn`` or a plain ``turn``."""
        if self._phase != Phase.PLAYING:
            return ""
        if self.milwa_target is not None:
            return "milwa"
        if self.responders:
            return "tiltowait"
        if self.pending:
            return "attack"
        return "drawn" if self.drawn is not None else "turn"

    @property
    def free(self) -> bool:
        """No colour named yet (a colourless spell was turned): any card may be played, naming the colour."""
        return self.colour is None and self.situation in ("turn", "drawn")

    def _next(self, seat: Seat) -> Seat:
        return (seat + self.direction) % len(self.players)

    def asked(self) -> Seat | None:
        """The one seat the game waits on now."""
        sit = self.situation
        if not sit:
            return None
        if sit == "milwa":
            return self.milwa_target
        return self.responders[0] if sit == "tiltowait" else self.turn

    def waiting(self) -> list[Seat]:
        seat = self.asked()
        return [] if seat is None else [seat]

    def seat_named(self, name: str) -> Seat | None:
        """The seat of a player named as typed: exactly, else the one name equal ignoring case."""
        if name in self.players:
            return self.players.index(name)
        folded = [i for i, p in enumerate(self.players) if p.casefold() == name.casefold()]
        return folded[0] if len(folded) == 1 else None

    def refusal(self, seat: Seat, card: str, sit: str | None = None) -> str | None:
        """Why ``seat`` may not discard ``card`` now (in any form), or None when it may (``sit``: the situation,
        when the caller has it)."""
        hand = self.hands[seat]
        if card not in hand:
            return f"you have no {card}"
        sit, spell = sit or self.situation, spell_of(card)
        last = len(hand) == 1
        if sit in ("milwa", "tiltowait"):
            return None if spell in CANCELS else self.aimed_at_you()
        if last and spell in NOT_LAST:
            extra = " (MONTINO and HAMAN may, answering MILWA or a TILTOWAIT draw)" if spell in CANCELS else ""
            return f"{spell} cannot be your last card{extra}: /draw instead"
        if sit == "attack":
            if spell in CANCELS:
                return None
            top = spell_of(self.top)
            if top in SMALL_ATTACKS:
                if spell == top or (spell in SMALL_ATTACKS and colour_of(card) == colour_of(self.top)):
                    return None
                stack = f"{top} or a {DALTO if top == HALITO else HALITO} of its colour"
            elif spell in BIG_ATTACKS:
                return None
            else:
                stack = "MAHALITO or MADALTO"
            return (f"{self.top} tells you to draw {self.pending}: /draw, stack a {stack}, "
                    "or cancel with MONTINO or HAMAN")
        if sit == "drawn" and card != self.drawn:
            return f"you drew {self.drawn}: play it or keep it"
        return None if self.colour is None else self.mismatch(card)

    def aimed_at_you(self) -> str:
        """What the player a TILTOWAIT or MILWA waits on may do, in words (the moves follow the reply)."""
        if self.situation == "milwa":
            return "MILWA is aimed at you: let it open your hand (/keep), or cancel it with MONTINO or HAMAN"
        return f"TILTOWAIT is aimed at you: /draw your {TILTOWAIT_DRAW} cards, or cancel them with MONTINO or HAMAN"

    def fits(self, card: str) -> bool:
        """Whether ``card`` goes on the top discard in the colour in force (the table's "when playable")."""
        top = self.discard[-1]
        spell, colour, number = _INFO[card]
        top_spell, top_colour, top_number = _INFO[top]
        if spell is None:
            return colour == self.colour or number == top_number
        if spell in SMALL_ATTACKS:  # on a HALITO; on a DALTO of its colour (and the other way round)
            return colour == self.colour or top_spell == spell or (top_spell in SMALL_ATTACKS and top_colour == colour)
        if spell == KATINO:  # the sheet: not discarded unless the colour matches, on a KATINO too
            return colour == self.colour
        if spell in BIG_ATTACKS:
            return top_spell not in SMALL_ATTACKS
        if spell == TILTOWAIT:
            return top_spell not in NOT_UNDER_TILTOWAIT
        return True  # MILWA, MONTINO, HAMAN go on anything

    def mismatch(self, card: str) -> str | None:
        """Why ``card`` does not go on the top discard in the colour in force, or None when it does."""
        if self.fits(card):
            return None
        top, colour = self.top, colour_text(self.colour)
        spell, top_spell = spell_of(card), spell_of(top)
        if spell is None:
            number = f" or a {number_of(top)}" if top_spell is None else ""
            return f"{card} does not match: play {colour}{number} on {top}, or a spell that may go on it"
        if spell in SMALL_ATTACKS:
            other = DALTO if spell == HALITO else HALITO
            return f"{spell} goes on its colour ({colour} is in force), on a {spell} or on a {other} of its colour"
        if spell == KATINO:
            return f"KATINO goes only on its colour ({colour} is in force)"
        return f"{spell} cannot go on a {top_spell}"

    def _forms(self, seat: Seat, card: str) -> list[Action]:
        """Every way to send a discard of ``card``: the colours it may name, MILWA's players."""
        spell = spell_of(card)
        if spell == MILWA:
            return [Action("play", (card, self.players[s], c))
                    for s in self._others(seat) for c in COLOURS]
        if spell in NAMES_COLOUR or self.free:  # a stacked MAHALITO and a cancelling HAMAN name one too
            return [Action("play", (card, c)) for c in COLOURS]
        return [Action("play", (card,))]

    def _others(self, seat: Seat) -> list[Seat]:
        """The other seats in order of play, starting with the next one."""
        n = len(self.players)
        return [(seat + i * self.direction) % n for i in range(1, n)]

    def legal_actions(self, seat: Seat) -> list[Action]:
        if self._phase != Phase.PLAYING:
            return []
        actions: list[Action] = []
        if seat == self.asked():
            sit = self.situation
            held = sorted(set(self.hands[seat]), key=ORDER.__getitem__)
            # a cheap first sieve, so that refusal() builds no message for the many cards that plainly fail
            if sit == "drawn":
                cards = [c for c in held if c == self.drawn]
            elif sit == "turn":
                cards = [c for c in held if self.colour is None or self.fits(c)]
            else:  # answering a spell: monsters never help
                cards = [c for c in held if spell_of(c) is not None]
            calls = len(self.hands[seat]) == 2  # a discard now leaves one card: it may carry the karuki call
            for card in cards:
                if self.refusal(seat, card, sit) is None:
                    forms = self._forms(seat, card)
                    actions.extend(forms)
                    if calls:
                        actions.extend(Action("play", (*a.args, KARUKI)) for a in forms)
            actions.append(Action("keep" if sit in ("milwa", "drawn") else "draw"))
        if len(self.hands[seat]) == 1 and seat not in self.called:
            actions.append(Action("karuki"))
        if self.exposed is not None and self.exposed != seat:
            actions.append(Action("catch", (self.players[self.exposed],)))
        return actions

    # -- what was typed

    def normalize(self, action: Action) -> Action:
        verb, words = action.verb, list(action.args)
        if verb not in self.VERBS:
            raise self.not_a_move(verb)
        if verb in ("draw", "keep", "karuki"):
            if words:
                raise self.usage_error(verb)
            return Action(verb)
        if verb == "catch":
            if len(words) != 1:
                raise self.usage_error(verb)
            return Action(verb, (self._name_as_typed(words[0]),))
        if not words:
            raise self.usage_error(verb)
        if len(words) > 1 and words[-1].lower() == KARUKI:  # "play R3 karuki": the discard with the call
            plain = self.normalize(Action(verb, tuple(words[:-1])))
            return Action(verb, (*plain.args, KARUKI))
        first = words.pop(0).upper()
        if first in COLOURED_SPELLS and words:  # "play halito r" for HALITO-R
            first = f"{first}-{parse_colour(words.pop(0))}"
        card = parse_card(first)
        if spell_of(card) == MILWA:
            if len(words) != 2:
                raise IllegalAction("MILWA names a player and a colour: /play MILWA NAME COLOUR")
            return Action("play", (card, self._name_as_typed(words[0]), parse_colour(words[1])))
        if len(words) > 1:
            raise self.usage_error(verb)
        return Action("play", (card, *(parse_colour(w) for w in words)))

    def _name_as_typed(self, name: str) -> str:
        seat = self.seat_named(name)
        return name if seat is None else self.players[seat]

    def explain(self, seat: Seat, action: Action) -> str:
        """Why a move is refused, in words; the moves the player may make are added where the reply is sent."""
        verb, args = action.verb, action.args
        hand = self.hands[seat]
        if verb == "karuki":
            if seat in self.called:
                return "you have already called karuki"
            return f"karuki is called with one card left, and you hold {len(hand)}"
        if verb == "catch":
            target = self.seat_named(args[0])
            if target is None:
                return f"there is no player {args[0]!r} here"
            if target == seat:
                return "you cannot catch yourself: call karuki instead" if len(hand) == 1 else "nobody to catch"
            name = self.players[target]
            if len(self.hands[target]) != 1:
                return f"{name} holds {len(self.hands[target])} cards, not one"
            if target in self.called:
                return f"{name} called karuki"
            return f"too late: {name} could be caught only before the next move"
        asked = self.asked()
        if seat != asked:
            waiting = "nobody" if asked is None else self.players[asked]
            if verb == "play" and spell_of(args[0]) in CANCELS:
                return (f"{args[0]} is played out of turn only to cancel a spell aimed at you; "
                        f"waiting for {waiting}")
            return f"it is not your turn: waiting for {waiting}"
        sit = self.situation
        if verb == "keep":
            if sit == "tiltowait":
                return self.aimed_at_you()
            if sit == "attack":
                return f"you are told to draw {self.pending}: /draw, stack or cancel"
            return "/keep is for a card you have just drawn, or to let a MILWA open your hand"
        if verb == "draw":
            if sit == "milwa":
                return self.aimed_at_you()
            return f"you have drawn already: play {self.drawn} or keep it"
        if args[-1] == KARUKI:
            plain = Action(verb, args[:-1])
            if not self.is_legal(seat, plain):
                return self.explain(seat, plain)
            return f"karuki goes with the discard that leaves you one card, and you hold {len(hand)}"
        card, extra = args[0], args[1:]
        reason = self.refusal(seat, card)
        if reason is not None:
            return reason
        spell = spell_of(card) or card
        forms = self._forms(seat, card)
        if spell == MILWA:
            target = self.seat_named(extra[0])
            if target is None:
                return f"there is no player {extra[0]!r} here"
            return "MILWA looks at another player's hand, not yours"
        if len(forms[0].args) == 2 and not extra:
            why = "the colour is not named yet: name it with any card" if self.free else f"{spell} names a colour"
            return f"{why}: /play {card} COLOUR (K, R, G or B)"
        if len(forms[0].args) == 1 and extra:
            if spell in CANCELS:
                return "MONTINO keeps the colour in force: /play MONTINO (HAMAN names a colour)"
            return f"{card} names no colour: /play {card}"
        return f"you cannot /{action} now"  # not reached while refusal() and _forms() agree

    # -- moves

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        if action.verb == "karuki":
            return self._karuki(seat)
        if action.verb == "catch":
            target = self.seat_named(action.args[0])
            assert target is not None
            return self._catch(seat, target)
        sit = self.situation
        self.exposed = None  # a move closes the karuki window and ends the sleeper's skipped turn
        self.asleep = None
        if action.verb == "draw":
            events = {"tiltowait": self._tiltowait_draw, "attack": self._take_attack}.get(sit, self._draw_one)(seat)
        elif action.verb == "keep":
            events = self._show_hand(seat) if sit == "milwa" else self._keep(seat)
        else:
            calls = action.args[-1] == KARUKI
            card, extra = action.args[0], action.args[1 : len(action.args) - calls]
            if sit in ("milwa", "tiltowait") or (sit == "attack" and spell_of(card) in CANCELS):
                events = self._cancel(seat, card, extra[0] if extra else None)
            else:
                events = self._play(seat, card, extra)
            if calls:  # legal only when the discard leaves one card, so the hand goes on
                events += self._karuki(seat)
        self.called = {s for s in self.called if len(self.hands[s]) == 1}
        return events

    def _play(self, seat: Seat, card: str, extra: tuple[str, ...]) -> list[Event]:
        """A discard in turn (a stack included); a spell's effect; going out applies an attack first."""
        hand, spell, name = self.hands[seat], spell_of(card), self.players[seat]
        remove_card(hand, card)
        self.discard.append(card)
        self.drawn = None
        target = self.seat_named(extra[0]) if spell == MILWA else None
        events: list[Event] = [CardPlayed(name, card, None if target is None else self.players[target])]
        if extra:
            self.colour = extra[-1]
            events.append(ColourNamed(name, self.colour))
        elif colour_of(card):
            self.colour = colour_of(card)
        out = not hand
        if spell in REVERSES:
            self.direction = -self.direction
            events.append(Reversed(name, self.direction_name))
        self.turn = self._next(seat)
        if spell in DRAWS:
            self.pending += DRAWS[spell]
            self.attacker = seat
            if out:  # the effect is applied first, with no answer: the hand is over
                events += self._draw(self.turn, self.pending, "attack")
                self.pending = 0
            else:
                events.append(DrawPending(self.players[self.turn], self.pending, card))
        elif spell == KATINO and not out:
            self.asleep, self.turn = self.turn, self._next(self.turn)
            events.append(Asleep(self.players[self.asleep]))
        elif spell == TILTOWAIT:
            self.caster = seat
            if out:
                for other in self._others(seat):
                    events += self._draw(other, TILTOWAIT_DRAW, "tiltowait")
            else:
                self.responders = self._others(seat)
                events.append(TiltowaitTurn(self.players[self.responders[0]]))
        elif spell == MILWA:
            assert target is not None
            self.caster, self.milwa_target = seat, target
            events.append(MilwaCast(name, self.players[target]))
        return events + self._after_discard(seat)

    def _cancel(self, seat: Seat, card: str, colour: str | None) -> list[Event]:
        """MONTINO/HAMAN answering a spell aimed at ``seat``: the spell is void, a reversal already made stands."""
        sit, name = self.situation, self.players[seat]
        cancelled = {"milwa": MILWA, "tiltowait": TILTOWAIT}.get(sit, self.top)
        remove_card(self.hands[seat], card)
        self.discard.append(card)
        events: list[Event] = [CardPlayed(name, card), Cancelled(name, card, cancelled)]
        if colour is not None:
            self.colour = colour
            events.append(ColourNamed(name, colour))
        if sit == "attack":
            self.pending, self.attacker = 0, None
            self.turn = self._next(seat)
        elif sit == "tiltowait":
            events += self._next_responder()
        else:
            self.milwa_target = self.caster = None
        return events + self._after_discard(seat)

    def _after_discard(self, seat: Seat) -> list[Event]:
        if not self.hands[seat]:
            return self._end_hand(seat)
        if len(self.hands[seat]) == 1:
            self.exposed = seat
        return []

    def _next_responder(self) -> list[Event]:
        self.responders.pop(0)
        if self.responders:
            return [TiltowaitTurn(self.players[self.responders[0]])]
        self.caster = None
        return []

    def _take_attack(self, seat: Seat) -> list[Event]:
        events = self._draw(seat, self.pending, "attack")
        self.pending, self.attacker = 0, None
        self.turn = self._next(seat)
        return events

    def _tiltowait_draw(self, seat: Seat) -> list[Event]:
        return self._draw(seat, TILTOWAIT_DRAW, "tiltowait") + self._next_responder()

    def _draw_one(self, seat: Seat) -> list[Event]:
        """Draw one: a playable card may be played at once (or kept); otherwise the turn passes."""
        held = len(self.hands[seat])
        events = self._draw(seat, 1, "draw")
        got = self.hands[seat][-1] if len(self.hands[seat]) > held else None
        if got is not None and (self.colour is None or self.fits(got)):
            self.drawn = got
        else:
            self.turn = self._next(seat)
        return events

    def _keep(self, seat: Seat) -> list[Event]:
        self.drawn = None
        self.turn = self._next(seat)
        return [Kept(self.players[seat])]

    def _show_hand(self, seat: Seat) -> list[Event]:
        caster = self.caster
        assert caster is not None
        self.milwa_target = self.caster = None
        cards = sort_hand(self.hands[seat], COLOURS)
        audience = self.options["milwa"]
        return [HandShown(self.players[seat], self.players[caster], audience),
                MilwaReveal(self.players[caster], self.players[seat], cards, MILWA_SECONDS, audience)]

    def _karuki(self, seat: Seat) -> list[Event]:
        self.called.add(seat)
        if self.exposed == seat:
            self.exposed = None
        return [Karuki(self.players[seat])]

    def _catch(self, seat: Seat, target: Seat) -> list[Event]:
        self.exposed = None
        events: list[Event] = [Caught(self.players[target], self.players[seat])]
        return events + self._draw(target, KARUKI_PENALTY, "karuki")

    def _draw(self, seat: Seat, count: int, reason: str) -> list[Event]:
        """Draw ``count``, reshuffling the discard pile but its top when the stock runs out; if both are
        empty, draw what there is."""
        events: list[Event] = []
        got: list[str] = []
        for _ in range(count):
            if not self.stock and len(self.discard) > 1:
                rest, self.discard = self.discard[:-1], self.discard[-1:]
                shuffle(self.rng, rest)
                self.stock = rest
                events.append(Reshuffled(len(rest)))
            if not self.stock:
                break
            got.append(self.stock.pop())
        self.hands[seat].extend(got)
        events.append(Drew(self.players[seat], len(got), got, reason))
        return events

    def _end_hand(self, winner: Seat) -> list[Event]:
        results = []
        for s, name in enumerate(self.players):
            cards = sort_hand(self.hands[s], COLOURS)
            delta = 0 if s == winner else hand_score(cards)
            self.scores[s] += delta
            results.append({"player": name, "cards": cards, "doubled": TILTOWAIT in cards, "delta": delta,
                            "score": self.scores[s]})
        self.sheet.append({"round": self.round, "winner": self.players[winner], "results": results})
        self.pending, self.responders, self.drawn, self.exposed, self.asleep = 0, [], None, None, None
        self.milwa_target = self.caster = self.attacker = None
        limit, hands = self.options["limit"], self.hands_to_play
        over = (limit is not None and min(self.scores) <= limit) or (hands is not None and self.round >= hands)
        return [RoundEnd(self.round, self.players[winner], results), *self._close_round(over)]

    def _advance(self) -> list[Event]:
        self.starter = self.players.index(self.sheet[-1]["winner"])  # the last hand's winner starts
        return self._deal()

    # -- what a seat may know

    def answer(self) -> dict[str, Any] | None:
        """The spell the asked player is answering, for the table view."""
        sit = self.situation
        by = {"attack": self.attacker}.get(sit, self.caster)
        base = {"by": None if by is None else self.players[by]}
        if sit == "attack":
            return {**base, "spell": self.top, "to": self.players[self.turn], "draw": self.pending}
        if sit == "tiltowait":
            return {**base, "spell": TILTOWAIT, "to": self.players[self.responders[0]], "draw": TILTOWAIT_DRAW,
                    "left": [self.players[s] for s in self.responders]}
        if sit == "milwa":
            assert self.milwa_target is not None
            return {**base, "spell": MILWA, "to": self.players[self.milwa_target], "draw": 0}
        return None

    def _rounds(self) -> int | None:
        return self.hands_to_play

    def _dealer(self) -> Seat:
        return self.starter  # nobody deals a Tiltowait hand: the common ``dealer`` is who starts it

    def _hand(self, seat: Seat) -> list[str]:
        return sort_hand(self.hands[seat], COLOURS)

    def _player(self, seat: Seat, viewer: Seat | None) -> dict[str, Any]:
        return {"held": len(self.hands[seat]), "asleep": seat == self.asleep, "karuki": seat in self.called}

    def _players_alike(self) -> bool:
        return True  # ``_player`` reads no viewer

    def _view_own(self, seat: Seat | None) -> dict[str, Any]:
        return {"drawn": self.drawn if seat is not None and seat == self.turn and self.situation == "drawn" else None}

    def _view(self, seat: Seat | None) -> dict[str, Any]:
        return {
            "starter": self.players[self.starter],
            "top": self.top,
            "colour": self.colour,
            "direction": self.direction_name,
            "pending": self.pending,
            "stock": len(self.stock),
            "discard": len(self.discard),
            "answer": self.answer(),
            "next": self.players[self.turn] if self._phase == Phase.PLAYING else None,
            **self._view_own(seat),
            "free": self.free,
        }
