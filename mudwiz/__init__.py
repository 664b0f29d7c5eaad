"""mudwiz: a multi-user text card-game server (Wizard, Witches, Tiltowait) on Twisted."""

__version__ = "0.1.0"
