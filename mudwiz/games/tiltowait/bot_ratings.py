"""Tiltowait's bot levels' fixed ratings: level -> (mu, sigma), on the players' openskill scale.

Written by ``python bench/ratings.py --games 30 --seed 5000 --write`` (bots against bots, rated with
mudwiz/ratings.py's model); never changed by the games people play. A level not here plays as a fresh rating.
"""

BOT_RATINGS: dict[str, tuple[float, float]] = {'random': (7.213, 5.498), 'good': (44.168, 5.513)}
