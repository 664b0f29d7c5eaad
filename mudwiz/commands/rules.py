"""Rules at the table: /rules and /spells, written from each game's own text."""

from __future__ import annotations

from mudwiz.commands.help import help_row, in_own_words
from mudwiz.commands.registry import Kind, Reply, Route, Scope, command
from mudwiz.errors import BadCommand
from mudwiz.games import available, game_class, languages, plugin, section_help
from mudwiz.games.base import Game
from mudwiz.games.legend import rules_lines
from mudwiz.lobby import Lobby
from mudwiz.session import Session
from mudwiz.texts import N_, later, now, speaking

# what /rules GAME shows; a game's other sections on request
MAIN_SECTIONS = ("goal", "cards", "play", "scoring", "options")
ENGLISH = "en"
# The sections' headings on a page in another language than English (the English page shows the names as typed)
HEADINGS = {"goal": N_("Goal"), "cards": N_("Cards"), "play": N_("Play"), "scoring": N_("Scoring"),
            "options": N_("Options"), "spells": N_("Spells")}


def _cards(cls: type[Game], lang: str) -> list[str]:
    """The ``cards`` section: the letter legend (English), or the game's legend line in ``lang``, code and name
    side by side; none, no section."""
    if lang == ENGLISH:
        return rules_lines(cls.name)
    found = plugin(cls.name)
    legend = found.legend_for(lang) if found is not None else None
    with speaking(lang):
        said = now("  The letters hands are shown and moves typed with (/play R12 and so on):")
    return [said, f"  {legend}"] if legend else []


def rules_sections(cls: type[Game], lang: str = ENGLISH) -> dict[str, list[str]]:
    """A game's rules by section, each line indented under its heading: the game's own text (``Game.RULES``, or
    its plugin's text in ``lang``, English when it has none) and ``options``, written from its OPTIONS so that it
    cannot drift from what /option accepts."""
    found = plugin(cls.name)
    text = found.rules_for(lang) if found is not None else cls.RULES
    cards = _cards(cls, lang)  # the card legend, from the game's plugin, after the goal; none, no section
    sections = {}
    for name, body in text.items():
        sections[name] = ["  " + line for line in body.splitlines()]
        if name == "goal" and cards:
            sections["cards"] = cards
    with speaking(lang):  # the page's language, whatever the reader's (``/rules wizard ja``)
        options = [now('  /option NAME VALUE sets one (the host, before /start):')]
        options += [line for o in cls.OPTIONS for line in help_row(o.name, in_own_words(cls.name, o.help), 14)]
    return {**sections, "options": options}


def rules_text(game: type[Game] | str, section: str | None = None, lang: str = ENGLISH) -> str:
    """``/rules GAME``: goal, play, scoring and options, then where the rest is; with ``section``, that part
    alone (each part fits a 24-row screen). ``lang`` (``ja``) picks the game's text in that language, where it
    has one: the call a language setting makes (``rules_text("wizard", lang="ja")``)."""
    cls = game_class(game) if isinstance(game, str) else game
    if lang != ENGLISH:
        return _rules_text_ja(cls, section, lang)
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


def _rules_text_ja(cls: type[Game], section: str | None, lang: str) -> str:
    """The page of ``rules_text`` in Japanese: the same parts, headed in Japanese; section names stay as typed."""
    sections = rules_sections(cls, lang)
    if section is not None:
        if section not in sections:
            raise BadCommand(later('{title} rules have no section {section!r}: {join}',
                                   title=cls.title, section=section, join=', '.join(sections)))
        with speaking(lang):
            heading = now(HEADINGS[section]) if section in HEADINGS else section
            return "\n".join([now("{title} rules: {section}", title=cls.title, section=heading), *sections[section]])
    with speaking(lang):
        lines = [now('{title} rules, {min_players} to {max_players} players',
                     title=cls.title, min_players=cls.min_players, max_players=cls.max_players)]
        for name in MAIN_SECTIONS:
            lines += [now(HEADINGS[name]), *sections.get(name, [])]
        lines.append(now("One part at a time: /rules {name} SECTION {lang}", name=cls.name, lang=lang))
        lines.append(now("  SECTION: {sections}", sections=", ".join(sections)))
        lines.append(now('/help {name} lists the moves.', name=cls.name))
    return "\n".join(lines)


def _show_rules(session: Session, game: str, section: str | None, lang: str = ENGLISH) -> None:
    topic = " ".join(["rules", game, *([section] if section else []), *([lang] if lang != ENGLISH else [])])
    session.deliver({"type": "help", "topic": topic, "text": rules_text(game_class(game), section, lang)})


@command("rules", "/rules [GAME [SECTION]]", later("a game's rules in brief (at a table: its game); SECTION shows "
                                                   "one part: goal, cards, play, scoring, options, spells; ja last: in "
                                                   "Japanese"),
         scope=Scope.LOBBY, kind=Kind.GAMES, place=1, route=Route.ABOUT_TABLE)
def _rules(lobby: Lobby, session: Session, arg: str) -> Reply:
    words = arg.lower().split()
    games = available()
    usage = now('usage: /rules GAME [SECTION]; games: {join}', join=', '.join(games))
    lang = session.lang if session.lang in languages() else ENGLISH  # the reader's language (/lang), unless asked
    if words and words[-1] in languages() and (len(words) > 1 or session.table is not None):
        lang = words.pop()  # "/rules wizard ja", "/rules wizard play ja"; at a table "/rules ja"
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
    _show_rules(session, game, words[0] if words else None, lang)
    return None


@command("spells", "/spells", later("{section_help} (a table's own game first)", section_help=section_help('spells')),
         scope=Scope.LOBBY, kind=Kind.GAMES, place=2, route=Route.ABOUT_TABLE)
def _spells(lobby: Lobby, session: Session, arg: str) -> Reply:
    with_spells = [g for g in available() if "spells" in game_class(g).RULES]
    if session.table is not None and session.table.name in with_spells:
        with_spells.insert(0, session.table.name)
    if not with_spells:
        raise BadCommand(later('no game here has spells'))
    _show_rules(session, with_spells[0], "spells", session.lang if session.lang in languages() else ENGLISH)
    return None
