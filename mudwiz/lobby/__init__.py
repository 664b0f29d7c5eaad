"""The lobby (core.py) and its parts; the names other modules import from ``mudwiz.lobby``."""

from mudwiz.lobby.core import Lobby, MeetingSettings
from mudwiz.lobby.directory import Directory, Held, Local
from mudwiz.lobby.names import CODE_ALPHABET, CODE_GROUP, CODE_GROUPS, new_resume_code, typed_code
from mudwiz.lobby.people import (
    ARRIVAL_BURST,
    ARRIVAL_RATE,
    CHAT_BURST,
    CHAT_RATE,
    LOBBY,
    MOVE_BURST,
    MOVE_RATE,
    PRESENCE_CROWD,
    PRESENCE_SUMMARY,
    WHO_PAGE,
    PresenceLimits,
)

__all__ = [
    "ARRIVAL_BURST", "ARRIVAL_RATE", "CHAT_BURST", "CHAT_RATE", "CODE_ALPHABET", "CODE_GROUP", "CODE_GROUPS", "LOBBY",
    "MOVE_BURST", "MOVE_RATE", "PRESENCE_CROWD", "PRESENCE_SUMMARY", "WHO_PAGE", "Directory", "Held", "Local",
    "Lobby", "MeetingSettings", "PresenceLimits", "new_resume_code", "typed_code",
]
