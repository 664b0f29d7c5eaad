"""Wizard's bot levels' fixed ratings: level -> (mu, sigma), on the players' openskill scale.

Written by ``python bench/ratings.py --only wizard --games 1000 --seed 5000 --option rounds=10 --write``
(bots against bots, rated with mudwiz/ratings.py's model); never changed by the games people play. A level
not here plays as a fresh rating.
"""

BOT_RATINGS: dict[str, tuple[float, float]] = {
    'random': (-8.281, 2.438),
    'easy': (34.575, 1.782),
    'normal': (40.429, 1.718),
    'hard': (40.861, 1.737),
}
