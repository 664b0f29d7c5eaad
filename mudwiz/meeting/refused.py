"""The one shape of a refusal in the meeting place: an error the command layer shows as one line, with a typed
reason it may test instead of the words.

Each module has its own ``Enum`` of reasons whose values are the line (a ``str.format`` template filled from the
details, such as the limit reached), each marked for the catalog (``N_``), and raises its own subclass of ``Refused``
before changing anything. The line is a ``Later``: put into words for whoever reads it (mudwiz/texts).
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from mudwiz.errors import MudwizError
from mudwiz.texts import later


class Refused(MudwizError):
    """``reason`` is the module's enum member; ``details`` (a limit, a name) fill its line and stay readable."""

    def __init__(self, reason: Enum, **details: Any) -> None:
        super().__init__(later(str(reason.value), **details))
        self.reason = reason
        self.details = details
