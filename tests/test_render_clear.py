"""Issue #20, the renderer's side: a first-time player at a telnet prompt can tell at every moment what the
table shows and what it waits for.

Games are played at a real table (fake clock, no sockets) by people who type their first legal move; each
person's messages go through the terminal renderer exactly as a telnet connection's would, in ASCII mode so
the lines can be read back as text.
"""

from __future__ import annotations

from mudwiz.render.style import Style, to_ascii


def test_typographic_punctuation_folds_to_its_ascii_look_alike() -> None:
    text = "\u201cHi\u201d \u2014 it\u2019s \u2018ok\u2019\u2026 \u2022 one \u2013 two \u00abx\u00bb 3\u22122"
    assert to_ascii(text) == "\"Hi\" - it's 'ok'... * one - two <<x>> 3-2"
    assert Style.for_mode("ascii").text("caf\u00e9 na\u00efve \u65e5\u672c") == "cafe naive ??"
    assert to_ascii("e\u0301te\u0301") == "ete"  # combining marks typed apart go, like those of composed accents
    assert to_ascii("\ufb01\u2014") == "fi-"  # a compatibility form and a dash in one text: neither is lost
    assert to_ascii("\u00d8yvind Stra\u00dfe \u0141\u00f3d\u017a") == "Oyvind Strasse Lodz"
