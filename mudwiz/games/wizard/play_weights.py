"""How Wizard's ``hard`` plays in its playouts (:class:`mudwiz.games.wizard.playouts.PlayModel`):
lead weights on ``LEAD_FEATURES``, keyed by (players, wanting more tricks), and duck weights on
``DUCK_FEATURES``, keyed by players: 3 for three players, 4 for four and more.

Fitted by ``python bench/play_model.py --load play4.jsonl --load play3.jsonl --write``
from ``hard``'s own play in self-play (bench/play_model.py says how the games were played and saved).
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

DUCK_WEIGHTS: dict[int, tuple[float, ...]] = {
    3: (-0.6014, -1.3719, -0.5185, -0.8263, 0.4972, 0.9165, 0.4934, -0.2480,
        0.3587, 2.0877, -0.4520, 0.5782, -0.1007, 0.3039, 1.0389, 0.0222),
    4: (0.5512, -1.9161, -0.7005, -0.8539, 0.8941, 1.2115, 0.7140, -0.1542,
        0.2516, 1.4535, -1.0246, 0.3085, -0.0985, -0.4277, 0.8180, 0.0878),
}
