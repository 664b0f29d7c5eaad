"""The meeting place's rules, kept apart from any I/O: seeks and matching, channels, agreements everyone at a table
must give, away texts and who to tell of a login.

Each module is a small state machine in the sans-I/O style: the lobby feeds it what a command asked (the time
passed in as seconds, never read from a clock) and gets back small typed events saying what happened, which it turns
into lines and JSON messages and, in a cluster, routes to whichever process each reader is on. A refusal is a
``Refused`` carrying a typed reason, raised before anything changes. Nothing here imports Twisted or the lobby, so
every rule is tested by feeding it, and the lobby's parts wire it in without it knowing them.
"""
