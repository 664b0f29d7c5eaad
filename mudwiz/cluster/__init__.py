"""Several mudwiz processes as one server: a Redis bus between them (bus.py), who is alive (nodes.py), and
on top of those the shared presence, lobby chat and tells, the table directory, play at a table another process
hosts, and the takeover of a dead process's tables (docs/scaling.md)."""
