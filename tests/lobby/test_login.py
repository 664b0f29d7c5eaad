"""The login's state machine (mudwiz/login.py) on its own: its transition table, state by state, and that what a
state does not allow is an error that changes nothing. The paths through it are the wire tests' (a guest, a
password, a resume code, a takeover, a BBS or SSH login, timeouts and failed logins)."""

from __future__ import annotations

import pytest

from mudwiz.login import (
    ASKING,
    CHECKING,
    GONE,
    LOGGED_IN,
    TRANSITIONS,
    Asking,
    Input,
    Login,
    LoginError,
    Purpose,
    State,
)

# Each state's inputs and where they lead, written out again as the login was meant to be: the table must say this.
ALLOWED = {State(state): {Input(happened): State(to) for happened, _, to in (move.partition("->") for move in moves)}
           for state, *moves in (row.split() for row in """
    naming     ask->proving  enter->in  lose->closed
    proving    answer->verifying  lose->closed
    verifying  done->naming  lose->closed
    in         ask->setting  lose->left
    setting    answer->saving  lose->left
    saving     done->in  lose->left
    closed     lose->closed
    left       lose->left
""".strip().splitlines())}


def at(state: State) -> Login:
    login = Login()
    login.state = state
    if state in ASKING:
        login.asking = Asking(Purpose.LOGIN if state is State.PROVING else Purpose.REGISTER, "ann")
    return login


def test_the_table_covers_every_state_and_says_what_each_allows() -> None:
    assert set(TRANSITIONS) == set(State)
    assert TRANSITIONS == ALLOWED


@pytest.mark.parametrize("state", list(State))
@pytest.mark.parametrize("happened", list(Input))
def test_each_input_leads_where_the_table_says_or_is_an_error(state: State, happened: Input) -> None:
    login = at(state)
    if happened in ALLOWED[state]:
        if happened is Input.ASK:  # as the connection begins a dialogue: with the dialogue
            login.ask(Asking(Purpose.PASSWORD, "ann"))
        else:
            login.fire(happened)
        assert login.state is ALLOWED[state][happened]
        assert (login.asking is not None) == (login.state in ASKING)  # a dialogue only while one is asked
    else:
        with pytest.raises(LoginError, match=f"cannot {happened.value} when {state.value}"):
            login.fire(happened)
        assert login.state is state  # refused, nothing changed


def test_a_connection_starts_at_the_name_prompt() -> None:
    login = Login()
    assert login.state is State.NAMING and login.asking is None
    assert not login.logged_in and not login.gone


def test_a_proof_asked_answered_and_accepted() -> None:
    login = Login()
    asking = Asking(Purpose.LOGIN, "ann")
    login.ask(asking)
    assert login.state is State.PROVING and login.asking is asking and not login.logged_in
    assert login.answered() is asking and login.state is State.VERIFYING and login.asking is None
    assert login.fire(Input.DONE) is State.NAMING  # the answer came: refused, or about to log in
    assert login.fire(Input.ENTER) is State.IN and login.logged_in


def test_a_new_password_once_in_then_lost() -> None:
    login = at(State.IN)
    login.ask(Asking(Purpose.PASSWORD, "ann"))
    assert login.state is State.SETTING and login.logged_in
    login.answered()
    assert login.state is State.SAVING
    assert login.fire(Input.LOSE) is State.LEFT and login.logged_in and login.gone  # it had logged in


def test_answered_without_a_dialogue_is_an_error() -> None:
    with pytest.raises(LoginError):
        Login().answered()


def test_the_sets_of_states_agree_with_the_table() -> None:
    assert LOGGED_IN == {State.IN, State.SETTING, State.SAVING, State.LEFT}
    assert all(Input.ANSWER in ALLOWED[s] for s in ASKING)
    assert all(Input.DONE in ALLOWED[s] for s in CHECKING)
    assert all(set(ALLOWED[s]) == {Input.LOSE} and ALLOWED[s][Input.LOSE] is s for s in GONE)


@pytest.mark.parametrize("purpose", list(Purpose))
def test_each_dialogue_asks_its_prompts_in_order(purpose: Purpose) -> None:
    asking = Asking(purpose, "ann")
    asked = []
    while not asking.complete:
        asked.append(asking.prompt)
        asking.answers.append("x")
    assert tuple(asked) == purpose.prompts
    assert purpose.account <= purpose.proof and purpose.takeover <= purpose.proof
