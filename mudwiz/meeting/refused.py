"""The one shape of a refusal in the meeting place: an error the command layer shows as one line, with a typed
reason it may test instead of the words.

Each module has its own ``Enum`` of reasons whose values are the default line (a ``str.format`` template filled
from the details, such as the limit reached), and raises its own subclass of ``Refused`` before changing anything.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from mudwiz.errors import MudwizError


class Refused(MudwizError):
    """``reason`` is the module's enum member; ``details`` (a limit, a name) fill its line and stay readable."""

    def __init__(self, reason: Enum, **details: Any) -> None:
        super().__init__(str(reason.value).format(**details))
        self.reason = reason
        self.details = details
