"""Tiltowait's bot levels' fixed ratings: level -> (mu, sigma), on the players' openskill scale.

Written by ``python bench/ratings.py --games 1000 --seed 5000 --write`` (bots against bots, rated with
mudwiz/ratings.py's model); never changed by the games people play. A level not here plays as a fresh rating.
"""

BOT_RATINGS: dict[str, tuple[float, float]] = {
    'random': (-1.701, 2.321),
    'easy': (30.466, 1.751),
    'normal': (32.444, 1.688),
    'hard': (37.001, 1.726),
}
