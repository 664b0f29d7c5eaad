"""Wizard's bot levels' fixed ratings: level -> (mu, sigma), on the players' openskill scale.

Written by ``python bench/ratings.py --games 30 --seed 5000 --write`` (bots against bots, rated with
mudwiz/ratings.py's model); never changed by the games people play. A level not here plays as a fresh rating.
"""

BOT_RATINGS: dict[str, tuple[float, float]] = {'random': (5.163, 5.556), 'good': (45.181, 5.567)}
