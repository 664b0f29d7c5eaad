"""The pager (mudwiz/pager.py): its state machine alone, then a connection's long reply paged, fed lines."""

from __future__ import annotations

from outbox import Outbox
from twisted.internet.task import Clock

from mudwiz.connection import Connection
from mudwiz.lobby import Lobby
from mudwiz.pager import PROMPT, SKIPPED, Pager, page_size

TEXT = "".join(f"line {n}\n" for n in range(1, 51))  # 50 lines


def test_a_page_is_the_window_less_the_prompt_row() -> None:
    assert page_size(24) == 23
    assert page_size(0) == 23  # not known: 24 rows
    assert page_size(2) == 4  # never less than 5 rows


def test_space_pages_enter_shows_a_line_and_q_stops() -> None:
    pager = Pager(TEXT, 23, ansi=True)
    first = pager.start()
    assert first.startswith("line 1\n") and "line 23\n" in first and "line 24" not in first
    assert first.endswith(PROMPT)
    text, taken = pager.key("\r")
    assert taken and text == "\r\x1b[Kline 24\n" + PROMPT
    text, taken = pager.key(" ")
    assert taken and "line 25\n" in text and "line 47\n" in text and "line 48" not in text
    text, taken = pager.key("q")
    assert taken and text == "\r\x1b[K" + SKIPPED + "\n" and pager.done


def test_the_last_page_ends_the_paging_without_a_prompt() -> None:
    pager = Pager(TEXT, 30, ansi=False)
    pager.start()
    text, taken = pager.key(" ")
    assert taken and pager.done and text.endswith("line 50\n") and PROMPT not in text
    assert text.startswith("\r" + " " * len(PROMPT) + "\r")  # in ASCII the prompt is blanked with spaces


def test_another_key_stops_the_paging_and_is_not_the_pagers() -> None:
    pager = Pager(TEXT, 23, ansi=True)
    pager.start()
    text, taken = pager.key("/")
    assert not taken and pager.done and SKIPPED in text


def test_in_line_mode_enter_pages_q_stops_and_another_line_is_read() -> None:
    pager = Pager(TEXT, 23, ansi=True)
    pager.start()
    text, taken = pager.line("")
    assert taken and text.startswith("line 24\n") and text.endswith(PROMPT)
    assert pager.line("q") == ("", True) and pager.done
    pager = Pager(TEXT, 23, ansi=True)
    pager.start()
    assert pager.line("/who") == (SKIPPED + "\n", False) and pager.done


def logged_in(name: str, lobby: Lobby, terminal: bool = True) -> tuple[Connection, Outbox]:
    outbox = Outbox()
    connection = Connection(lobby, outbox)
    connection.session.terminal = terminal
    connection.start()
    connection.receive(name)
    outbox.take()
    return connection, outbox


def test_a_long_reply_is_paged_and_q_ends_it() -> None:
    connection, outbox = logged_in("ann", Lobby(Clock(), seed=1))
    connection.receive("/rules wizard")
    shown = outbox.take()
    assert shown.endswith(PROMPT) and shown.count("\n") == 23
    connection.receive("")  # line mode: Enter is the next page
    assert outbox.take().count("\n") >= 1
    connection.receive("q")
    assert connection.paged.paging is False
    connection.receive("/pager")  # a command after it is read as ever
    assert "pager on, 24 rows" in outbox.take()


def test_no_pager_for_a_mud_client_or_json_or_when_turned_off() -> None:
    lobby = Lobby(Clock(), seed=1)
    connection, outbox = logged_in("bob", lobby, terminal=False)
    connection.receive("/rules wizard")
    assert PROMPT not in outbox.take()
    connection.receive("/pager on")
    connection.receive("/rules wizard")
    assert outbox.take().endswith(PROMPT)
    connection.receive("q")
    connection.receive("/pager off")
    outbox.take()
    connection.receive("/rules wizard")
    assert PROMPT not in outbox.take()
    connection.receive("/pager 40")
    assert "pager on, 40 rows" in outbox.take()
    connection.receive("/mode json")
    outbox.take()
    connection.receive("/rules wizard")
    assert PROMPT not in outbox.take()


def test_output_for_the_user_while_paged_is_shown_at_once_above_the_prompt() -> None:
    lobby = Lobby(Clock(), seed=1)
    ann, ann_out = logged_in("ann", lobby)
    bob, _ = logged_in("bob", lobby)
    ann.receive("/rules wizard")
    ann_out.take()
    bob.receive("/tell ann the game is on")
    text = ann_out.take()
    assert "the game is on" in text and text.endswith(PROMPT) and text.startswith("\r\x1b[K")
    assert ann.paged.paging  # the paging goes on after it


def test_a_move_at_the_table_while_paged_is_shown_at_once_and_the_paging_goes_on() -> None:
    clock = Clock()
    lobby = Lobby(clock, seed=1, bot_delay=0.5)
    ann, ann_out = logged_in("ann", lobby)
    bob, _ = logged_in("bob", lobby)
    for line in ("/new wizard", "/option turn 0", "/bot add random"):
        ann.receive(line)
    bob.receive("/join 1")
    ann.receive("/start")
    ann_out.take()
    ann.receive("/help all")  # a long reply of her own, paged; then the game moves on under it
    assert ann_out.take().endswith(PROMPT) and ann.paged.paging
    table = lobby.tables[1]
    moves = table.moves
    for _ in range(40):  # bob's bids (his first legal move) and the bot's, until the game has moved
        legal = table.state_for(bob.session)["legal"]
        if legal:
            bob.receive(legal[0])
        clock.advance(1)
        if table.moves > moves + 1:
            break
    shown = ann_out.take()
    assert table.moves > moves + 1 and "bids" in shown, "the moves reached Ann while she was paged"
    assert shown.endswith(PROMPT) and ann.paged.paging  # shown above the prompt, the paging still there
    ann.receive("q")
    assert not ann.paged.paging


def test_an_answer_that_comes_after_its_line_is_paged_as_the_line_would_have_been() -> None:
    """Work in slices (``/analyze``, mudwiz/slices.py) answers once the line that asked is done: its long answer
    is paged all the same, and a short one is written as it comes."""
    connection, outbox = logged_in("ann", Lobby(Clock(), seed=1))
    connection.session.deliver_answer({"type": "help", "topic": "x", "text": TEXT.rstrip("\n")})
    shown = outbox.take()
    assert shown.endswith(PROMPT) and shown.count("\n") == 23 and connection.paged.paging
    connection.receive("q")
    connection.session.deliver_answer({"type": "help", "topic": "x", "text": "line 1\nline 2"})
    assert outbox.take() == "line 1\nline 2\n" and not connection.paged.paging
