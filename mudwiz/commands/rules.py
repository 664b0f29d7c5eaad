"""Rules at the table: /rules and /spells, written from each game's own text."""

from __future__ import annotations

from mudwiz.commands.help import help_row
from mudwiz.commands.registry import Kind, Reply, Route, Scope, command
from mudwiz.errors import BadCommand
from mudwiz.games import available, game_class, section_help
from mudwiz.games.base import Game
from mudwiz.games.legend import rules_lines
from mudwiz.lobby import Lobby
from mudwiz.session import Session
from mudwiz.texts import later, now

# what /rules GAME shows; a game's other sections on request
MAIN_SECTIONS = ("goal", "cards", "play", "scoring", "options")


def rules_sections(cls: type[Game]) -> dict[str, list[str]]:
    """A game's rules by section, each line indented under its heading: the game's own text (``Game.RULES``)
    and ``options``, written from its OPTIONS so that it cannot drift from what /option accepts."""
    cards = rules_lines(cls.name)  # the card legend, from the game's plugin, after the goal; none, no section
    sections = {}
    for name, text in cls.RULES.items():
        sections[name] = ["  " + line for line in text.splitlines()]
        if name == "goal" and cards:
            sections["cards"] = cards
    options = [now('  /option NAME VALUE sets one (the host, before /start):')]
    options += [line for o in cls.OPTIONS for line in help_row(o.name, o.help, 14)]
    return {**sections, "options": options}


def rules_text(cls: type[Game], section: str | None = None) -> str:
    """``/rules GAME``: goal, play, scoring and options, then where the rest is; with ``section``, that part
    alone (each part fits a 24-row screen)."""
    sections = rules_sections(cls)
    if section is not None:
        if section not in sections:
            raise BadCommand(later('{title} rules have no section {section!r}: {join}',
                                   title=cls.title, section=section, join=', '.join(sections)))
        return "\n".join([f"{cls.title} rules: {section}", *sections[section]])
    lines = [now('{title} rules, {min_players} to {max_players} players',
                 title=cls.title, min_players=cls.min_players, max_players=cls.max_players)]
    for name in MAIN_SECTIONS:
        lines += [name.capitalize(), *sections.get(name, [])]
    more = [f"/rules {cls.name} {name}" for name in sections if name not in MAIN_SECTIONS]
    lines.append(now('One part at a time: /rules {name} SECTION.', name=cls.name)
                 + (now(' More: {sections}.', sections=', '.join(more)) if more else ""))
    lines.append(now('/help {name} lists the moves.', name=cls.name))
    return "\n".join(lines)


def _show_rules(session: Session, game: str, section: str | None) -> None:
    topic = " ".join(["rules", game, *([section] if section else [])])
    session.deliver({"type": "help", "topic": topic, "text": rules_text(game_class(game), section)})


@command("rules", "/rules [GAME [SECTION]]", later("a game's rules in brief (at a table: its game); SECTION shows "
                                                   'one part: goal, cards, play, scoring, options, spells'),
         scope=Scope.LOBBY, kind=Kind.GAMES, place=1, route=Route.ABOUT_TABLE)
def _rules(lobby: Lobby, session: Session, arg: str) -> Reply:
    words = arg.lower().split()
    games = available()
    usage = now('usage: /rules GAME [SECTION]; games: {join}', join=', '.join(games))
    if words and words[0] in games:
        game, words = words[0], words[1:]
    elif session.table is not None:
        game = session.table.name  # "/rules" or "/rules spells" at a table: its game
    elif words:
        raise BadCommand(later('no rules for {value!r}; games: {join}', value=words[0], join=', '.join(games)))
    else:
        raise BadCommand(usage)
    if len(words) > 1:
        raise BadCommand(usage)
    _show_rules(session, game, words[0] if words else None)
    return None


@command("spells", "/spells", later("{section_help} (a table's own game first)", section_help=section_help('spells')),
         scope=Scope.LOBBY, kind=Kind.GAMES, place=2, route=Route.ABOUT_TABLE)
def _spells(lobby: Lobby, session: Session, arg: str) -> Reply:
    with_spells = [g for g in available() if "spells" in game_class(g).RULES]
    if session.table is not None and session.table.name in with_spells:
        with_spells.insert(0, session.table.name)
    if not with_spells:
        raise BadCommand(later('no game here has spells'))
    _show_rules(session, with_spells[0], "spells")
    return None
