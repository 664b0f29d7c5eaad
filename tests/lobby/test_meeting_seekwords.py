"""The words of /seek read into a request: any order after the game, each once, numbers as typed in ASCII."""

from __future__ import annotations

import pytest

from mudwiz.meeting.seekwords import USAGE, SeekRequest, SeekWordsRefusal, SeekWordsRefused, parse_seek


def test_the_game_alone() -> None:
    assert parse_seek(["Wizard"]) == SeekRequest("wizard")


def test_everything_in_any_order() -> None:
    request = parse_seek("wizard turn=60 MAX=1800 4 Rated nolast min=1400".split())
    assert request == SeekRequest("wizard", 4, True, 1400, 1800, (("turn", "60"), ("nolast", None)))
    assert parse_seek(["witches", "casual", "3"]) == SeekRequest("witches", 3, False)


@pytest.mark.parametrize("words", [[], [""], ["4"], ["turn=60"], ["wizard", "=5"]])
def test_no_game_or_an_empty_word_is_the_usage(words: list[str]) -> None:
    with pytest.raises(SeekWordsRefused) as refused:
        parse_seek(words)
    assert refused.value.reason is SeekWordsRefusal.USAGE and str(refused.value) == USAGE


@pytest.mark.parametrize(("words", "what"), [
    ("wizard 3 4", "the number of players"),
    ("wizard rated casual", "rated or casual"),
    ("wizard min=1 min=2", "min="),
    ("wizard max=1 MAX=2", "max="),
    ("wizard turn=1 TURN=2", "turn"),
    ("wizard nolast nolast", "nolast"),
])
def test_anything_twice_is_refused(words: str, what: str) -> None:
    with pytest.raises(SeekWordsRefused) as refused:
        parse_seek(words.split())
    assert refused.value.reason is SeekWordsRefusal.TWICE
    assert str(refused.value) == f"{what} is given twice: nothing was sought"


@pytest.mark.parametrize("value", ["", "x", "-5", "１４００", "1e3"])
def test_a_range_needs_an_ascii_whole_number(value: str) -> None:
    with pytest.raises(SeekWordsRefused) as refused:
        parse_seek(["wizard", f"min={value}"])
    assert refused.value.reason is SeekWordsRefusal.BAD_NUMBER
    assert str(refused.value) == f"min= needs a whole number, not {value}"


def test_a_number_in_other_digits_is_an_option_word_not_a_count() -> None:
    assert parse_seek(["wizard", "٣"]).players is None  # the normaliser refuses the option "٣"
