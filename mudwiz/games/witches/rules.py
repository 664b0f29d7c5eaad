"""Witches's rules in brief, as ``/rules witches`` shows them: the game owns its text (``Game.RULES``)."""

RULES_TEXT = {
    "goal": """\
Witches (Amigo): a trick-taking game like Hearts. Avoid taking fire points,
or take every fire card and cast a spell on everyone else. The game ends
after the hand in which a total reaches 70; the lowest total wins.""",  # i18n: not text (rules_ja.py)
    "play": """\
Cards: four colours, R red, G green, Y yellow and B blue, numbered 1 to 14;
and four Wizards (W), worth 0 and of no colour. Red cards are fire cards.
Deal: every card, evenly. Then everyone passes at once, face down
(/pass C1 C2 ...): 4 cards with 3 players, 3 with 4 or 5, 2 with 6; to the
left, then to the right (4 and 6 players: left, right, then opposite).
Tricks: the player left of the dealer leads; play a card with /play R12.
Holding the colour led (the first card that is not a Wizard), play it or a
Wizard; otherwise play anything. There is no trump: the highest card of the
colour led wins (all Wizards: the first). The winner leads the next trick.""",  # i18n: not text (rules_ja.py)
    "scoring": """\
Count the fire points in the tricks you took:
- 1 for each red card (the fire witch R11 has none of its own);
- the fire witch R11 doubles those, to at most 15;
- the water witch G11 is 5 points, the pygmy queen G12 is 10;
- the air witch B11 cancels the water witch and the pygmy queen;
- the earth witch Y11 takes 5 off (never below 0).
Example: R2, R5, R9, the water and the earth witch: 3 + 5 - 5 = 3 points.
Spells: take all 14 red cards and the water witch (20 points), the pygmy
queen (25) or both (30): you score 0, everyone else scores the spell. If the
hand ends the game, choose: /spell give (as usual) or /spell take (off your
own total). After each hand, /ok when you have seen the result.""",  # i18n: not text (rules_ja.py)
}
