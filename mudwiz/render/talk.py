"""How the talk beyond chat reads on a terminal (and in the client's log, which words messages as this does):
emotes and shouts among the chat lines, a channel's or a table's recent lines, the list of channels."""

from __future__ import annotations

from typing import Any

from mudwiz.render.style import Style, pad, wrap_words
from mudwiz.texts import now


def said_at(at: str) -> str:
    """A recent line's time (``2026-12-06T10:02:03Z``) as shown beside it: ``10:02`` (UTC)."""
    return at[11:16]


def talk_chat(m: dict[str, Any], s: Style) -> list[str] | None:
    """An emote or a shout; None for any other chat line (drawn as it always was)."""
    text, who = s.text(m["text"]), s.text(m["from"])
    if m.get("emote"):
        return wrap_words(s.paint(f"[{m['channel']}] ", "grey") + "* " + s.bold(who) + " " + text, s.width)
    if m["channel"] == "shout":
        return wrap_words(s.paint(now("{name} shouts: ", name=who), "yellow", "bold") + text, s.width)
    return None


def away(row: dict[str, Any], s: Style) -> str:
    """A /who row's away mark: `` (away: lunch)``, or nothing."""
    if "away" not in row:
        return ""
    return now(" (away: {why})", why=s.text(row["away"])) if row["away"] else now(" (away)")


def recent_lines(m: dict[str, Any], s: Style) -> list[str]:
    """The last lines said on a channel or at a table, each with the time it was said."""
    if not m["lines"]:
        return [s.paint(now("Nothing said on {channel} lately.", channel=m["channel"]), "grey")]
    rows = [s.rule(now("Recent on {channel}", channel=m["channel"]))]
    for line in m["lines"]:
        who, text = s.text(line["from"]), s.text(line["text"])
        said = f"* {s.bold(who)} {text}" if line["emote"] else f"{s.bold(who)}: {text}"
        rows.extend(wrap_words(s.paint(said_at(line["at"]), "grey") + " " + said, s.width, indent=8))
    return rows


def channel_lines(m: dict[str, Any], s: Style) -> list[str]:
    """``/channel``: each channel with who is on it."""
    rows = [s.rule(now("Channels ({n})", n=len(m["channels"])))]
    for c in m["channels"]:
        members = ", ".join(s.text(name) for name in c["members"]) or "-"
        rows.extend(wrap_words(f"  {pad('#' + s.text(c['name']), 18)} {members}", s.width, indent=21))
    rows += wrap_words(now("  /channel join NAME joins one (a new NAME makes it); /ch NAME TEXT speaks there"), s.width,
                       indent=4)
    return rows
