"""Everyone must agree (``/again``, ``/adjourn``): agreeing, taking it back, someone leaving."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mudwiz.meeting.agreement import (
    Agreed,
    Agreement,
    AgreementRefusal,
    AgreementRefused,
    AllAgreed,
    Cancelled,
    State,
    Withdrew,
)


def test_done_when_all_agree_with_who_has_agreed_at_each_step() -> None:
    a, events = Agreement.propose(["Ann", "bob", "Cat"], by="ANN")
    assert events == [Agreed("Ann", ("Ann",), ("bob", "Cat"))]
    assert a.agree("cat") == [Agreed("Cat", ("Ann", "Cat"), ("bob",))]
    assert a.state is State.OPEN
    assert a.agree("BOB") == [Agreed("bob", ("Ann", "bob", "Cat"), ()), AllAgreed(("Ann", "bob", "Cat"))]
    assert a.state is State.DONE and a.waiting == ()


def test_one_asked_is_done_at_once() -> None:
    a, events = Agreement.propose(["ann"], by="ann")
    assert events[-1] == AllAgreed(("ann",)) and a.state is State.DONE


def test_withdraw_takes_an_agreement_back() -> None:
    a, _ = Agreement.propose(["ann", "bob"], by="ann")
    assert a.withdraw("Ann") == Withdrew("ann", (), ("ann", "bob"))
    with pytest.raises(AgreementRefused) as refused:
        a.withdraw("ann")
    assert refused.value.reason is AgreementRefusal.NOT_AGREED and str(refused.value) == "ann has not agreed"
    assert a.agree("bob") == [Agreed("bob", ("bob",), ("ann",))]


def test_someone_asked_leaving_cancels_it_and_others_leaving_do_not() -> None:
    a, _ = Agreement.propose(["ann", "bob"], by="ann")
    assert a.leave("watcher") == [] and a.state is State.OPEN
    assert a.leave("BOB") == [Cancelled("bob")] and a.state is State.CANCELLED
    assert a.leave("ann") == []
    with pytest.raises(AgreementRefused) as refused:
        a.agree("ann")
    assert refused.value.reason is AgreementRefusal.CLOSED
    assert str(refused.value) == "that is no longer open: it is called off"


def test_refusals_change_nothing() -> None:
    a, _ = Agreement.propose(["ann", "bob", "cat"], by="ann")
    with pytest.raises(AgreementRefused) as refused:
        a.agree("ann")
    assert refused.value.reason is AgreementRefusal.ALREADY_AGREED
    with pytest.raises(AgreementRefused) as refused:
        a.agree("zed")
    assert refused.value.reason is AgreementRefusal.NOT_ASKED and str(refused.value) == "zed is not among those asked"
    assert a.agreed == ("ann",) and a.waiting == ("bob", "cat") and a.state is State.OPEN


def test_nobody_to_ask_and_names_asked_twice() -> None:
    with pytest.raises(AgreementRefused) as refused:
        Agreement([])
    assert refused.value.reason is AgreementRefusal.NOBODY
    assert Agreement(["Ann", "ann", "bob"]).asked == ("Ann", "bob")
    with pytest.raises(AgreementRefused):
        Agreement.propose(["ann"], by="bob")


def test_a_done_agreement_takes_nothing_more() -> None:
    a, _ = Agreement.propose(["ann", "bob"], by="ann")
    a.agree("bob")
    for change in (a.agree, a.withdraw):
        with pytest.raises(AgreementRefused) as refused:
            change("ann")
        assert refused.value.reason is AgreementRefusal.CLOSED
    assert a.leave("ann") == [] and a.state is State.DONE


@given(st.lists(st.tuples(st.sampled_from(["agree", "withdraw", "leave"]), st.sampled_from(["a", "b", "c", "x"]))))
def test_done_exactly_when_everyone_asked_has_agreed(ops: list[tuple[str, str]]) -> None:
    a = Agreement(["a", "b", "c"])
    done_events = 0
    for op, name in ops:
        try:
            events = a.leave(name) if op == "leave" else (
                a.agree(name) if op == "agree" else [a.withdraw(name)])
        except AgreementRefused:
            continue
        done_events += sum(isinstance(e, AllAgreed) for e in events)
        assert set(a.agreed) | set(a.waiting) == {"a", "b", "c"} and not set(a.agreed) & set(a.waiting)
        assert (a.state is State.DONE) == (a.waiting == () and done_events == 1)
    assert done_events <= 1
