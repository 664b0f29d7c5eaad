"""The meeting place's messages as lines for a person: the terminal's presenter (ansi.py) takes these methods as
its own (a method ``_TYPE`` draws a message of that type), and so does the client's log, which asks it."""

from __future__ import annotations

from typing import Any

from mudwiz.render.style import Style, pad, wrap_words


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
        kind = "registered" if m["registered"] else "guest"
        rows = [s.rule(f"{s.text(m['name'])} ({kind})")]
        if m["online"]:
            away = m.get("away")
            state = f"online, {m['where']}" if m.get("where") else "online"
            rows.append(f"  {state}" + ("" if away is None else f"; away{': ' + s.text(away) if away else ''}"))
        elif m["seen"]:
            rows.append(f"  offline; last seen {when(m['seen'])}")
        else:
            rows.append("  offline; last seen: not known")
        for r in m["ratings"]:
            rows.append(f"  {r['game']:<10} rating {r['rating']}, {r['games']} rated "
                        f"game{'s' * (r['games'] != 1)}, rank {r['rank']}")
        if m["games"]:
            rows.append("  Last games:")
            for g in m["games"]:
                place = "abandoned" if g["place"] is None else f"place {g['place']} of {len(g['players'])}"
                rows.append(f"    #{g['id']:<6} {g['game']:<10} {g['date'][:10]}  {place}")
        elif not m["ratings"]:
            rows.append("  No games kept.")
        if m.get("adjourned"):
            rows.append(f"  Adjourned games at table {', '.join(str(t) for t in m['adjourned'])} (/adjourned "
                        f"{s.text(m['name'])})")
        if m["plan"]:
            rows.append("  Plan:")
            rows += [f"    {s.text(line)}" for line in m["plan"]]
        return rows

    def _plan(self, m: dict[str, Any]) -> list[str]:
        s = self.style
        rows = [s.rule(f"Your plan ({len(m['plan'])} of {m['limit']} lines)")]
        rows += [f"  {s.text(line)}" for line in m["plan"]] or ["  Empty: /plan add TEXT adds a line."]
        return rows

    def _notify(self, m: dict[str, Any]) -> list[str]:
        verb = "logged in" if m["event"] == "arrived" else "logged out"
        return [self.style.paint(f"* Notify: {self.style.text(m['name'])} has {verb}.", "cyan")]

    def _notify_list(self, m: dict[str, Any]) -> list[str]:
        s = self.style
        online = m["online"]
        if m.get("login"):
            text = (f"Notify: {names(online, s)} {'is' if len(online) == 1 else 'are'} online." if online
                    else "Notify: nobody on your list is online.")
            return [s.paint(line, "cyan") for line in wrap_words(f"* {text}", s.width)]
        if not m["names"]:
            return ["  Your notify list is empty: /notify NAME adds someone."]
        listed = ", ".join(s.text(n) + (" (online)" if n in online else "") for n in m["names"])
        return [s.rule(f"Notify list ({len(m['names'])} of {m['limit']})"), *wrap_words(f"  {listed}", s.width,
                                                                                         indent=2)]

    def _new_messages(self, m: dict[str, Any]) -> list[str]:
        s = self.style
        count = f"{m['unread']} new message{'s' * (m['unread'] != 1)}"
        came = f"A message from {s.text(m['from'])} has come: you have" if m.get("from") else "You have"
        text = f"* {came} {count}; /messages reads them."
        return [s.paint(line, "yellow", "bold") for line in wrap_words(text, s.width)]

    def _messages(self, m: dict[str, Any]) -> list[str]:
        s = self.style
        rows = [s.rule(f"Messages ({len(m['messages'])} of {m['limit']})")]
        for message in m["messages"]:
            head = f"  {'*' if message['unread'] else ' '} {when(message['sent'])} {pad(s.text(message['from']), 16)}"
            rows += wrap_words(f"{head} {s.text(message['text'])}", s.width, indent=4)
        if not m["messages"]:
            rows.append("  No messages.")
        else:
            rows.append("  (* new; /messages clear deletes them all)")
        return rows
