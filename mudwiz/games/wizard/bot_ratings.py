"""Wizard's bot levels' fixed ratings: level -> (mu, sigma), on the players' openskill scale.

Written by ``python bench/ratings.py --games 24 --seed 5000 --option rounds=5 --write`` (bots against bots, rated with
mudwiz/ratings.py's model); never changed by the games people play. A level not here plays as a fresh rating.
"""

BOT_RATINGS: dict[str, tuple[float, float]] = {
    'random': (8.365, 6.178),
    'easy': (22.521, 5.972),
    'normal': (32.357, 6.222),
    'hard': (33.797, 6.528),
}
