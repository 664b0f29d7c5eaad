"""The coach's ``analysis`` message of a Wizard game (mudwiz/games/wizard/analysis.py) drawn for a terminal, within
80 columns: a row a round (the bid beside hard's, the tricks taken, the costly cards), then each costly card in a
sentence, and how the judging was done. The renderer (``render.analysis_lines``) is this; a long one is paged by
the connection as any long answer is."""

from __future__ import annotations

from typing import Any

from mudwiz.games.wizard.names import suit_name
from mudwiz.games.wizard.texts import _, _n
from mudwiz.render.style import Style, pad, visible_len, wrap_words


def _cell(text: str, width: int) -> str:
    """``text`` right-aligned in ``width`` cells (a Japanese heading counts two a character)."""
    return " " * max(0, width - visible_len(text)) + text


def _trump(style: Style, suit: str | None) -> str:
    if suit is None:
        return _("none")
    colour = {"B": "blue", "G": "green", "R": "red", "Y": "yellow"}[suit]  # i18n: not text (colour names)
    return style.paint(str(suit_name(suit)), colour)


def analysis_lines(m: dict[str, Any], style: Style) -> list[str]:
    """Every seat of the message (one for ``/analyze``: the asker's), each a table of rounds and its costly cards."""
    lines: list[str] = []
    for seat in m["seats"]:
        lines += _seat(m, seat, style)
    return lines


def _seat(m: dict[str, Any], seat: dict[str, Any], style: Style) -> list[str]:
    width = style.width
    title = _("Analysis of game #{id}: {player}, {date}", id=m["id"], player=style.text(seat["player"]),
              date=str(m["date"])[:10])
    lines = [style.rule(title)]
    intro = _("Your bids beside the {level} bot's from your seat (and the tricks it expected), with the round score "
              "each was worth over the same deals; then each card of yours that cost about a trick, and the bot's "
              "card instead.", level=seat["level"])
    lines += wrap_words(" " + intro, width, indent=1)
    heads = [_("round"), _("trump"), _("bid"), _("took"), _("{level} (expects)", level=seat["level"]),
             _("score: yours/its"), _("costly")]
    sizes = [8, 8, 6, 6, 15, 19, 7]
    lines.append(style.paint(" " + " ".join(_cell(h, n) for h, n in zip(heads, sizes, strict=True)), "grey"))
    details: list[str] = []
    for r in seat["rounds"]:
        bid = r["bid"]
        ours = "-" if bid is None else str(bid["yours"])
        hard = "-" if bid is None else f"{bid['hard']} ({bid['expected']['hard']:.1f})"
        points = "-" if bid is None else f"{bid['points']['yours']:+.0f} / {bid['points']['hard']:+.0f}"
        taken = "-" if r["taken"] is None else str(r["taken"])
        costly = str(len(r["plays"])) if r["plays"] else "-"
        trump = _trump(style, r["trump"])
        row = [f"{r['round']:>8}", _cell(trump, 8), f"{ours:>6}", f"{taken:>6}", f"{hard:>15}", f"{points:>19}",
               f"{costly:>7}"]
        line = " " + " ".join(row)
        if bid is not None and bid["yours"] != bid["hard"]:
            line = pad(line, 77) + style.paint(" *", "yellow")
        lines.append(line)
        for play in r["plays"]:
            text = _("Round {round}, trick {trick}: you played {yours} (expected {tricks_yours:.1f} tricks, "
                     "{points_yours:+.0f} points); {level} would play {hard} ({tricks_hard:.1f} tricks, "
                     "{points_hard:+.0f} points).", round=r["round"], trick=play["trick"],
                     yours=style.card(play["yours"], bare=True), hard=style.card(play["hard"], bare=True),
                     level=seat["level"], tricks_yours=play["expected"]["yours"],
                     tricks_hard=play["expected"]["hard"], points_yours=play["points"]["yours"],
                     points_hard=play["points"]["hard"])
            details += wrap_words(" " + text, width, indent=3)
    if not seat["rounds"]:
        lines.append(" " + _("You made no move in that game."))
    if any(r["bid"] is not None and r["bid"]["yours"] != r["bid"]["hard"] for r in seat["rounds"]):
        lines.append(style.paint(" " + _("*: the bot would have bid otherwise."), "yellow"))
    lines += details
    checked = sum(r["choices"] for r in seat["rounds"])
    lost = sum(len(r["plays"]) for r in seat["rounds"])
    lines += [style.paint(line, "grey") for line in wrap_words(" " + _n(
        "Judged over {samples} deals of the cards you could not see, from what you knew then: of {n} play with a "
        "choice, {costly} cost {cost:g} points or more (a trick) beside the bot's card.",
        "Judged over {samples} deals of the cards you could not see, from what you knew then: of {n} plays with a "
        "choice, {costly} cost {cost:g} points or more (a trick) beside the bot's card.", checked,
        samples=seat["samples"], costly=lost, cost=seat["cost"]), width, indent=1)]
    return lines
