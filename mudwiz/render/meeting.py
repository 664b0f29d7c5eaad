"""The meeting place's messages as lines for a person: the terminal's presenter (ansi.py) takes these methods as
its own (a method ``_TYPE`` draws a message of that type), and so does the client's log, which asks it."""

from __future__ import annotations

from typing import Any

from mudwiz.render.common import where_words
from mudwiz.render.style import Style, pad, wrap_words
from mudwiz.texts import now, now_n


def when(iso: str) -> str:
    """A protocol time (``2024-05-01T18:04:11Z``) as a person reads it: ``2024-05-01 18:04 UTC``."""
    return iso[:16].replace("T", " ") + " UTC"


def names(listed: list[str], style: Style) -> str:
    return ", ".join(style.text(n) for n in listed)


class PeopleLines:
    """Finger, plans, notify lists and messages."""

    style: Style

    def _finger(self, m: dict[str, Any]) -> list[str]:
        s = self.style
        name = s.text(m["name"])
        rows = [s.rule(now("{name} (registered)", name=name) if m["registered"] else now("{name} (guest)", name=name))]
        if m["online"]:
            away = m.get("away")
            state = now("online, {where}", where=where_words(m["where"])) if m.get("where") else now("online")
            rows.append(f"  {state}" + ("" if away is None else now("; away: {why}", why=s.text(away)) if away
                                        else now("; away")))
        elif m["seen"]:
            rows.append(now("  offline; last seen {when}", when=when(m["seen"])))
        else:
            rows.append(now("  offline; last seen: not known"))
        for r in m["ratings"]:
            rows.append(f"  {r['game']:<10} " + now_n("rating {rating}, {n} rated game, rank {rank}",
                                                     "rating {rating}, {n} rated games, rank {rank}", r["games"],
                                                     rating=r["rating"], rank=r["rank"]))
        if m["games"]:
            rows.append(now("  Last games:"))
            for g in m["games"]:
                place = now("abandoned") if g["place"] is None else now("place {place} of {n}", place=g["place"],
                                                                         n=len(g["players"]))
                rows.append(f"    #{g['id']:<6} {g['game']:<10} {g['date'][:10]}  {place}")
        elif not m["ratings"]:
            rows.append(now("  No games kept."))
        if m.get("adjourned"):
            rows += wrap_words(now("  Adjourned games at table {tables} (/adjourned {name})",
                                   tables=", ".join(str(t) for t in m["adjourned"]), name=name), s.width, indent=4)
        if m["plan"]:
            rows.append(now("  Plan:"))
            rows += [f"    {s.text(line)}" for line in m["plan"]]
        return rows

    def _plan(self, m: dict[str, Any]) -> list[str]:
        s = self.style
        rows = [s.rule(now("Your plan ({n} of {limit} lines)", n=len(m["plan"]), limit=m["limit"]))]
        rows += [f"  {s.text(line)}" for line in m["plan"]] or [now("  Empty: /plan add TEXT adds a line.")]
        return rows

    def _notify(self, m: dict[str, Any]) -> list[str]:
        name = self.style.text(m["name"])
        said = (now("* Notify: {name} has logged in.", name=name) if m["event"] == "arrived"
                else now("* Notify: {name} has logged out.", name=name))
        return [self.style.paint(line, "cyan") for line in wrap_words(said, self.style.width)]

    def _notify_list(self, m: dict[str, Any]) -> list[str]:
        s = self.style
        online = m["online"]
        if m.get("login"):
            text = (now_n("* Notify: {names} is online.", "* Notify: {names} are online.", len(online),
                          names=names(online, s)) if online else now("* Notify: nobody on your list is online."))
            return [s.paint(line, "cyan") for line in wrap_words(text, s.width)]
        if not m["names"]:
            return wrap_words(now("  Your notify list is empty: /notify NAME adds someone."), s.width, indent=4)
        listed = ", ".join(now("{name} (online)", name=s.text(n)) if n in online else s.text(n) for n in m["names"])
        return [s.rule(now("Notify list ({n} of {limit})", n=len(m["names"]), limit=m["limit"])),
                *wrap_words(f"  {listed}", s.width, indent=2)]

    def _new_messages(self, m: dict[str, Any]) -> list[str]:
        s = self.style
        if m.get("from"):
            text = now_n("* A message from {name} has come: you have {n} new message; /messages reads them.",
                         "* A message from {name} has come: you have {n} new messages; /messages reads them.",
                         m["unread"], name=s.text(m["from"]))
        else:
            text = now_n("* You have {n} new message; /messages reads them.",
                         "* You have {n} new messages; /messages reads them.", m["unread"])
        return [s.paint(line, "yellow", "bold") for line in wrap_words(text, s.width)]

    def _messages(self, m: dict[str, Any]) -> list[str]:
        s = self.style
        hidden = m.get("hidden", 0)
        rows = [s.rule(now("Messages ({n} of {limit})", n=len(m["messages"]) + hidden, limit=m["limit"]))]
        for message in m["messages"]:
            head = f"  {'*' if message['unread'] else ' '} {when(message['sent'])} {pad(s.text(message['from']), 16)}"
            rows += wrap_words(f"{head} {s.text(message['text'])}", s.width, indent=4)
        if hidden:
            rows += wrap_words(now_n("  {n} more, from a name you ignore, is not shown.",
                                     "  {n} more, from names you ignore, are not shown.", hidden), s.width, indent=4)
        if not m["messages"] and not hidden:
            rows.append(now("  No messages."))
        else:
            rows.append(now("  (* new; /messages clear deletes them all)"))
        return rows
