"""Witches's bot levels' fixed ratings: level -> (mu, sigma), on the players' openskill scale.

Written by ``python bench/ratings.py --only witches --games 1000 --seed 5000 --write``
(bots against bots, rated with mudwiz/ratings.py's model); never changed by the games people play. A level
not here plays as a fresh rating.
"""

BOT_RATINGS: dict[str, tuple[float, float]] = {
    'random': (7.930, 1.938),
    'easy': (23.623, 1.729),
    'normal': (30.155, 1.690),
    'hard': (35.297, 1.744),
}
