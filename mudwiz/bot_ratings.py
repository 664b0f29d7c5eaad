"""The bot levels' fixed ratings: game -> level -> (mu, sigma), on the players' openskill scale.

Written by ``python bench/ratings.py --games 30 --seed 5000 --write`` (bots against bots, rated with
mudwiz/ratings.py's model); never changed by the games people play. A level or game not here plays as a
fresh rating.
"""

BOT_RATINGS: dict[str, dict[str, tuple[float, float]]] = {
    'wizard': {'random': (5.163, 5.556), 'good': (45.181, 5.567)},
    'witches': {'random': (14.517, 5.272), 'good': (42.154, 5.280)},
    'tiltowait': {'random': (7.213, 5.498), 'good': (44.168, 5.513)},
}
