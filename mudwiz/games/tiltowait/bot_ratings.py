"""Tiltowait's bot levels' fixed ratings: level -> (mu, sigma), on the players' openskill scale.

Written by ``python bench/ratings.py --games 300 --seed 5000 --write`` (bots against bots, rated with
mudwiz/ratings.py's model); never changed by the games people play. A level not here plays as a fresh rating.
"""

BOT_RATINGS: dict[str, tuple[float, float]] = {
    'random': (-8.470, 3.230),
    'easy': (31.223, 2.248),
    'normal': (33.940, 2.196),
    'hard': (36.841, 2.235),
}
