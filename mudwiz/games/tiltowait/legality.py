"""Which Tiltowait moves a seat may make now, how a typed move is read, and why one is refused: the rules'
questions, asked before a move changes anything."""

from __future__ import annotations

from mudwiz.cards import Action
from mudwiz.errors import IllegalAction
from mudwiz.games.base import Phase, Seat
from mudwiz.games.tiltowait.cards import (
    _INFO,
    BIG_ATTACKS,
    CANCELS,
    COLOURED_SPELLS,
    COLOURS,
    DALTO,
    HALITO,
    KARUKI,
    KATINO,
    MILWA,
    NAMES_COLOUR,
    NOT_LAST,
    NOT_UNDER_TILTOWAIT,
    ORDER,
    SMALL_ATTACKS,
    TILTOWAIT,
    TILTOWAIT_DRAW,
    colour_of,
    colour_text,
    number_of,
    parse_card,
    parse_colour,
    spell_of,
)
from mudwiz.games.tiltowait.texts import later
from mudwiz.games.tiltowait.views import TiltowaitViews
from mudwiz.texts import Later


class TiltowaitLegality(TiltowaitViews):
    """The legal moves, the typed move's reading and the refusals' words."""

    def refusal(self, seat: Seat, card: str, sit: str | None = None) -> Later | None:
        """Why ``seat`` may not discard ``card`` now (in any form), or None when it may (``sit``: the situation,
        when the caller has it)."""
        hand = self.hands[seat]
        if card not in hand:
            return later("you have no {card}", card=card)
        sit, spell = sit or self.situation, spell_of(card)
        last = len(hand) == 1
        if sit in ("milwa", "tiltowait"):
            return None if spell in CANCELS else self.aimed_at_you()
        if last and spell in NOT_LAST:
            if spell in CANCELS:
                return later("{spell} cannot be your last card (MONTINO and HAMAN may, answering MILWA or a "
                             "TILTOWAIT draw): /draw instead", spell=spell)
            return later("{spell} cannot be your last card: /draw instead", spell=spell)
        if sit == "attack":
            if spell in CANCELS:
                return None
            top = spell_of(self.top)
            if top in SMALL_ATTACKS:
                if spell == top or (spell in SMALL_ATTACKS and colour_of(card) == colour_of(self.top)):
                    return None
                return later("{card} tells you to draw {n}: /draw, stack a {top} or a {other} of its colour, or "
                             "cancel with MONTINO or HAMAN", card=self.top, n=self.pending, top=top,
                             other=DALTO if top == HALITO else HALITO)
            if spell in BIG_ATTACKS:
                return None
            return later("{card} tells you to draw {n}: /draw, stack a MAHALITO or MADALTO, or cancel with MONTINO "
                         "or HAMAN", card=self.top, n=self.pending)
        if sit == "drawn" and card != self.drawn:
            return later("you drew {card}: play it or keep it", card=self.drawn)
        return None if self.colour is None else self.mismatch(card)

    def aimed_at_you(self) -> Later:
        """What the player a TILTOWAIT or MILWA waits on may do, in words (the moves follow the reply)."""
        if self.situation == "milwa":
            return later("MILWA is aimed at you: let it open your hand (/keep), or cancel it with MONTINO or HAMAN")
        return later("TILTOWAIT is aimed at you: /draw your {n} cards, or cancel them with MONTINO or HAMAN",
                     n=TILTOWAIT_DRAW)

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

    def mismatch(self, card: str) -> Later | None:
        """Why ``card`` does not go on the top discard in the colour in force, or None when it does."""
        if self.fits(card):
            return None
        assert self.colour is not None  # fits() takes any card while no colour is named
        top, colour = self.top, colour_text(self.colour)
        spell, top_spell = spell_of(card), spell_of(top)
        if spell is None:
            if top_spell is None:
                return later("{card} does not match: play {colour} or a {number} on {top}, or a spell that may go "
                             "on it", card=card, colour=colour, number=number_of(top), top=top)
            return later("{card} does not match: play {colour} on {top}, or a spell that may go on it",
                         card=card, colour=colour, top=top)
        if spell in SMALL_ATTACKS:
            return later("{spell} goes on its colour ({colour} is in force), on a {spell} or on a {other} of its "
                         "colour", spell=spell, colour=colour, other=DALTO if spell == HALITO else HALITO)
        if spell == KATINO:
            return later("KATINO goes only on its colour ({colour} is in force)", colour=colour)
        return later("{spell} cannot go on a {top}", spell=spell, top=top_spell)

    def _forms(self, seat: Seat, card: str) -> list[Action]:
        """Every way to send a discard of ``card``: the colours it may name, MILWA's players."""
        spell = spell_of(card)
        if spell == MILWA:
            return [Action("play", (card, self.players[s], c))
                    for s in self._others(seat) for c in COLOURS]
        if spell in NAMES_COLOUR or self.free:  # a stacked MAHALITO and a cancelling HAMAN name one too
            return [Action("play", (card, c)) for c in COLOURS]
        return [Action("play", (card,))]

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
                raise IllegalAction(later("MILWA names a player and a colour: /play MILWA NAME COLOUR"))
            return Action("play", (card, self._name_as_typed(words[0]), parse_colour(words[1])))
        if len(words) > 1:
            raise self.usage_error(verb)
        return Action("play", (card, *(parse_colour(w) for w in words)))

    def _name_as_typed(self, name: str) -> str:
        seat = self.seat_named(name)
        return name if seat is None else self.players[seat]

    def _explain_call(self, seat: Seat, action: Action) -> Later:
        """Why a karuki call or a catch is refused: they are made out of turn, so the turn says nothing."""
        hand = self.hands[seat]
        if action.verb == "karuki":
            if seat in self.called:
                return later("you have already called karuki")
            return later("karuki is called with one card left, and you hold {n}", n=len(hand))
        args = action.args
        target = self.seat_named(args[0])
        if target is None:
            return later("there is no player {name!r} here", name=args[0])
        if target == seat:
            if len(hand) == 1:
                return later("you cannot catch yourself: call karuki instead")
            return later("nobody to catch")
        name = self.players[target]
        if len(self.hands[target]) != 1:
            return later("{name} holds {n} cards, not one", name=name, n=len(self.hands[target]))
        if target in self.called:
            return later("{name} called karuki", name=name)
        return later("too late: {name} could be caught only before the next move", name=name)

    def explain(self, seat: Seat, action: Action) -> str | Later:
        """Why a move is refused, in words; the moves the player may make are added where the reply is sent."""
        verb, args = action.verb, action.args
        hand = self.hands[seat]
        if verb in ("karuki", "catch"):
            return self._explain_call(seat, action)
        asked = self.asked()
        if seat != asked:
            waiting = later("nobody") if asked is None else self.players[asked]
            if verb == "play" and spell_of(args[0]) in CANCELS:
                return later("{card} is played out of turn only to cancel a spell aimed at you; waiting for {name}",
                             card=args[0], name=waiting)
            return later("it is not your turn: waiting for {name}", name=waiting)
        sit = self.situation
        if verb == "keep":
            if sit == "tiltowait":
                return self.aimed_at_you()
            if sit == "attack":
                return later("you are told to draw {n}: /draw, stack or cancel", n=self.pending)
            return later("/keep is for a card you have just drawn, or to let a MILWA open your hand")
        if verb == "draw":
            if sit == "milwa":
                return self.aimed_at_you()
            return later("you have drawn already: play {card} or keep it", card=self.drawn)
        if args[-1] == KARUKI:
            plain = Action(verb, args[:-1])
            if not self.is_legal(seat, plain):
                return self.explain(seat, plain)
            return later("karuki goes with the discard that leaves you one card, and you hold {n}", n=len(hand))
        card, extra = args[0], args[1:]
        reason = self.refusal(seat, card)
        if reason is not None:
            return reason
        spell = spell_of(card) or card
        forms = self._forms(seat, card)
        if spell == MILWA:
            target = self.seat_named(extra[0])
            if target is None:
                return later("there is no player {name!r} here", name=extra[0])
            return later("MILWA looks at another player's hand, not yours")
        if len(forms[0].args) == 2 and not extra:
            if self.free:
                return later("the colour is not named yet: name it with any card: /play {card} COLOUR (K, R, G or "
                             "B)", card=card)
            return later("{spell} names a colour: /play {card} COLOUR (K, R, G or B)", spell=spell, card=card)
        if len(forms[0].args) == 1 and extra:
            if spell in CANCELS:
                return later("MONTINO keeps the colour in force: /play MONTINO (HAMAN names a colour)")
            return later("{card} names no colour: /play {card}", card=card)
        return later("you cannot /{action} now", action=str(action))  # not reached while refusal() and _forms() agree
