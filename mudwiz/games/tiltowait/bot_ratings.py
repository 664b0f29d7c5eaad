"""Tiltowait's bot levels' fixed ratings: level -> (mu, sigma), on the players' openskill scale.

Written by ``python bench/ratings.py --games 300 --seed 5000 --write`` (bots against bots, rated with
mudwiz/ratings.py's model); never changed by the games people play. A level not here plays as a fresh rating.
"""

BOT_RATINGS: dict[str, tuple[float, float]] = {
    'random': (-7.225, 3.113),
    'easy': (30.273, 2.205),
    'normal': (32.001, 2.180),
    'hard': (34.138, 2.220),
}
