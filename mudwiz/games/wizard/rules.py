"""Wizard's rules in brief, as ``/rules wizard`` shows them: the game owns its text (``Game.RULES``)."""

RULES_TEXT = {
    "goal": """\
Wizard (Amigo, Ken Fisher): bid how many tricks you will take, then take
exactly that many. Taking more is as bad as taking fewer. The highest total
after the last round wins.""",  # i18n: not text (rules page: rules_ja.py)
    "play": """\
Cards: four suits, B blue, G green, R red and Y yellow, numbered 1 to 13;
four Wizards (Z) above everything, four Jesters (N) below everything.
Rounds: round 1 deals 1 card each, round 2 deals 2, and so on until the deck
runs out: 20 rounds for 3 players, 15 for 4, 12 for 5, 10 for 6.
Trump: the next card of the deck is turned and its suit is trump. A Jester
means no trump; a Wizard lets the dealer name it (/trump R). The last round
turns nothing: no trump.
Bidding: from the dealer's left, each says how many tricks they will take,
0 up to the cards dealt (/bid 2); the dealer bids last.
Tricks: the player left of the dealer leads; play a card with /play R12.
Follow the suit of the first suit card if you can; a Wizard or a Jester may
always be played. If a Wizard comes before any suit card, nothing need be
followed. The first Wizard wins the trick; else the highest trump; else the
highest card of the suit led (all Jesters: the first). The winner leads.""",  # i18n: not text (rules page: rules_ja.py)
    "scoring": """\
Exactly your bid: 20 points, plus 10 for each trick you took.
Missed: minus 10 for each trick too many or too few.
Examples: bid 2, took 2: +40. Bid 0, took 0: +20. Bid 3, took 1: -20.
After each round, /ok when you have seen the result.""",  # i18n: not text (rules page: rules_ja.py)
}
