"""Witches's bot levels' fixed ratings: level -> (mu, sigma), on the players' openskill scale.

Written by ``python bench/ratings.py --games 100 --seed 5000 --write`` (bots against bots, rated with
mudwiz/ratings.py's model); never changed by the games people play. A level not here plays as a fresh rating.
"""

BOT_RATINGS: dict[str, tuple[float, float]] = {
    'random': (4.037, 3.815),
    'easy': (20.932, 3.702),
    'normal': (27.323, 3.567),
    'hard': (38.558, 3.899),
}
