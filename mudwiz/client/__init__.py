"""``mudwiz client``: a full-screen prompt_toolkit client that speaks the JSON protocol (docs/protocol.md).

connection.py  the TCP line connection (asyncio streams), JSON in, requests out
model.py       what the client knows: the latest state, the log, the connection status, the card cursor
events.py      protocol messages -> short log lines
panes.py       the text of the table pane, the status line and the score sheet
completion.py  completion of commands, legal moves, card codes and names
app.py         the prompt_toolkit Application: layout, key bindings, login and reconnect
"""
