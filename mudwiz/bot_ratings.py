"""The bot levels' fixed ratings: game -> level -> (mu, sigma), on the players' openskill scale.

Written by ``python bench/ratings.py --write`` (bots against bots, rated with mudwiz/ratings.py's model); never
changed by the games people play. A level or game not here plays as a fresh rating.
"""

BOT_RATINGS: dict[str, dict[str, tuple[float, float]]] = {}
