"""Tiltowait's rules in brief, as ``/rules tiltowait`` shows them: the game owns its text (``Game.RULES``). The page is
translated whole (``rules_ja``), not line by line in the catalog."""

RULES_TEXT = {
    "goal": """\
Tiltowait (ASCII's Wizardry card game): be the first to get rid of your
cards. Match the colour or number of the top discard, and attack and defend
with nine spells. When someone goes out, the others lose the points left in
their hands. The highest total after the last hand wins.""",  # i18n: not text (its Japanese: rules_ja)
    "play": """\
Cards: monsters of four colours, K black, R red, G gold and B blue, 1 to 10,
two of each; and 40 spells (/spells says what each does).
Deal: 7 cards each; the stock's top card starts the discard pile. Play goes
counter-clockwise at first. The last hand's winner starts the next.
Your turn: discard a card of the colour in force or of the top monster's
number (/play R7), or a spell that may go on the top card; or draw one
(/draw). A drawn card that fits may be played at once, or kept (/keep).
A spell that names a colour is played with it: /play MAHALITO G.
Told to draw: /draw the total, stack a matching attack onto the next player,
or cancel it with MONTINO or HAMAN.
Karuki: when a discard leaves you one card, call it with the card:
/play R3 karuki. Forget, and anyone may /catch you before the next move:
you draw 2.
Going out: MAHALITO, MADALTO, MILWA, MONTINO and HAMAN cannot be your last
card (MONTINO and HAMAN may, answering a MILWA or a TILTOWAIT draw).""",  # i18n: not text (its Japanese: rules_ja)
    "scoring": """\
Going out scores 0. Everyone else scores minus the points left in hand: a
monster its number; HALITO, DALTO, KATINO 20; MONTINO, HAMAN 30; MAHALITO,
MADALTO, TILTOWAIT, MILWA 40. A hand holding a TILTOWAIT counts double.
Example: R7, K2 and HALITO-B left: -29; with a TILTOWAIT too: -138.
The match is 5 hands unless the options say otherwise; /ok after each.""",  # i18n: not text (its Japanese: rules_ja)
    "spells": """\
SPELL (cards, points): its effect. Where it may go. -c is its colour: -R.
HALITO-c (8, 20): the next player draws 2.
  On its colour, on any HALITO, on the DALTO of its colour.
DALTO-c (4, 20): play reverses; the next player draws 2.
  On its colour, on any DALTO, on the HALITO of its colour.
MAHALITO (4, 40): the next player draws 4; you name the colour.
  On anything but a HALITO or DALTO.
MADALTO (2, 40): play reverses; the next draws 4; you name the colour.
  As MAHALITO. A MAHALITO or MADALTO stacks on either.
TILTOWAIT (2, 40): every other player in turn draws 2; you name the colour.
  Not on HALITO, DALTO, MAHALITO, MADALTO, KATINO or TILTOWAIT.
  A hand left holding one scores double.
KATINO-c (8, 20): the next player sleeps: their turn is skipped. Nothing
  cancels it. Only on its colour.
MILWA (2, 40): /play MILWA NAME COLOUR: NAME's hand is opened face up to
  the whole table for 5 seconds (option milwa=caster: to you alone); you
  name the colour. On anything.
MONTINO (4, 30): cancels a spell aimed at you, KATINO aside; colour and
  direction stay. On anything; out of turn only to answer a spell.
HAMAN (6, 30): as MONTINO, and you name the colour: /play HAMAN B.""",  # i18n: not text (its Japanese: rules_ja)
}
