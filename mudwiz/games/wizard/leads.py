"""How Wizard's ``hard`` leads in its playouts: weights on ``LEAD_FEATURES`` (mudwiz/games/wizard/playouts.py),
keyed by (players, wanting more tricks): 3 for three players, 4 for four and more.

Fitted by ``python bench/leads.py --load leads4.jsonl --load leads3.jsonl --write``
from ``hard``'s own leads in self-play (bench/leads.py says how the games were played and saved).
"""

LEAD_WEIGHTS: dict[tuple[int, bool], tuple[float, ...]] = {
    (3, False): (-0.8738, 0.1134, 1.5610, -0.2733, 1.9877, -0.7785, 0.9401, 0.0651,
        1.7274, -0.5563, -2.0142, 1.5706, 1.2452, -0.3936, -0.5460, 0.7023),
    (3, True): (0.4186, 0.5812, -0.8705, -0.6481, 0.8706, 1.8808, 0.8475, -0.6961,
        0.9228, 0.4297, -0.8810, -0.5138, -0.3160, -0.4732, -0.7250, -0.4189),
    (4, False): (-1.8462, 0.0521, 1.2437, 0.0521, 1.3922, -0.2778, 0.9092, 0.1771,
        1.5703, -0.5917, -2.9795, 0.8312, -0.5932, -0.0422, -1.2257, 0.5543),
    (4, True): (0.9166, -0.3485, -1.3599, -1.4385, 0.8278, 1.9840, 1.0123, -0.7692,
        0.7098, 0.4274, -0.9581, -0.1761, 0.1324, -0.4092, -0.6609, -0.3195),
}
