"""Witches's bot levels' fixed ratings: level -> (mu, sigma), on the players' openskill scale.

Written by ``python bench/ratings.py --games 300 --seed 5000 --write`` (bots against bots, rated with
mudwiz/ratings.py's model); never changed by the games people play. A level not here plays as a fresh rating.
"""

BOT_RATINGS: dict[str, tuple[float, float]] = {
    'random': (10.122, 2.481),
    'easy': (24.089, 2.185),
    'normal': (32.046, 2.139),
    'hard': (32.993, 2.199),
}
