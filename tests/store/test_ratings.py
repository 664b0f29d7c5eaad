"""Ratings: the maths of a game's update (mudwiz/ratings.py: places in order, shared places, bots' fixed entries,
guests not kept, stand-ins as the person) and the store that keeps them, on a real SQLite file and a real
PostgreSQL database (written in the game's own transaction, so a failing rating step stores no game either; a
version 2 store migrated; the kept ratings equal a recomputation from the kept games)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Backend
from recorder import Recorder
from twisted.internet.task import Clock

from mudwiz.bots import levels
from mudwiz.commands import dispatch
from mudwiz.games import available, plugin
from mudwiz.lobby import Lobby
from mudwiz.ratings import MODEL, RatingBoard, bot_rating, rate_game, recompute, shown
from mudwiz.store import GameRecord, Rating, Store, StoreError
from mudwiz.table import Records

HASH = "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA"  # never checked here: an account needs a hash


def game(*seats: str | tuple[str, str], places: list[int] | None = None, outcome: str = "finished",
         ended: float = 1000.0, name: str = "wizard") -> GameRecord:
    """A record of ``seats`` (a name: a person; (name, kind)), finishing at ``places`` (default 1, 2, 3...)."""
    pairs = [(s, "person") if isinstance(s, str) else s for s in seats]
    places = places or list(range(1, len(pairs) + 1))
    standings = [{"player": n, "score": -p, "place": p} for (n, _), p in zip(pairs, places, strict=True)]
    return GameRecord(game=name, options={}, table_options={}, seed=1, seats=[{"name": n, "kind": k} for n, k in pairs],
                      actions=[], standings=None if outcome == "abandoned" else standings, outcome=outcome,
                      started=ended - 60, ended=ended)


def by_name(ratings: list[Rating]) -> dict[str, Rating]:
    return {r.name: r for r in ratings}


# ------------------------------------------------------------------ the maths


def test_places_order_the_new_ratings_and_everyone_becomes_surer() -> None:
    new = by_name(rate_game(game("Ann", "Bob", "Cy"), {}, {"ann", "bob", "cy"}))
    assert new["Ann"].mu > MODEL.mu > new["Cy"].mu
    assert new["Ann"].mu > new["Bob"].mu > new["Cy"].mu
    assert all(r.sigma < MODEL.sigma and r.games == 1 and r.updated == 1000.0 for r in new.values())
    assert new["Ann"].shown == shown(new["Ann"].mu, new["Ann"].sigma) > 1000 > new["Cy"].shown
    assert shown(MODEL.mu, MODEL.sigma) == 1000  # a fresh rating shows 1000


def test_a_shared_place_is_an_equal_rank_and_changes_both_alike() -> None:
    new = by_name(rate_game(game("Ann", "Bob", "Cy", places=[1, 1, 3]), {}, {"ann", "bob", "cy"}))
    assert (new["Ann"].mu, new["Ann"].sigma) == (new["Bob"].mu, new["Bob"].sigma)
    assert new["Ann"].mu > new["Cy"].mu
    untied = by_name(rate_game(game("Ann", "Bob", "Cy"), {}, {"ann", "bob", "cy"}))
    assert untied["Ann"].mu > new["Ann"].mu >= untied["Bob"].mu  # sharing first is worth less than first alone


def test_the_current_ratings_are_what_a_game_changes() -> None:
    strong = Rating("Ann", "wizard", 35.0, 2.0, shown(35.0, 2.0), 40, 10.0)
    new = by_name(rate_game(game("Bob", "Ann"), {"ann": strong}, {"ann", "bob"}))
    assert new["Ann"].games == 41 and new["Ann"].mu < strong.mu  # lost to a newcomer: down
    fresh_loss = by_name(rate_game(game("Bob", "Ann"), {}, {"ann", "bob"}))
    assert new["Bob"].mu - MODEL.mu > fresh_loss["Bob"].mu - MODEL.mu  # beating a strong player is worth more


def test_bots_play_their_fixed_entry_and_are_never_rated() -> None:
    record = game("Ann", ("bot1", "bot:good"), ("bot2", "bot:random"))
    new = rate_game(record, {}, {"ann", "bot1", "bot2"})  # even a registered name on a bot's seat is the bot's
    assert [r.name for r in new] == ["Ann"]
    good, rand = bot_rating("wizard", "good"), bot_rating("wizard", "random")
    expected = MODEL.rate([[MODEL.rating()], [MODEL.rating(mu=good.mu, sigma=good.sigma)],
                           [MODEL.rating(mu=rand.mu, sigma=rand.sigma)]], ranks=[1, 2, 3])[0][0]
    assert (new[0].mu, new[0].sigma) == (expected.mu, expected.sigma)
    assert bot_rating("wizard", "nosuch").mu == MODEL.mu  # a level never calibrated plays as a fresh rating


def test_every_game_has_calibrated_bot_entries_ordered_random_easy_normal() -> None:
    for name in available():
        assert set(plugin(name).bot_ratings) == set(levels()), name
        assert bot_rating(name, "random").shown < bot_rating(name, "easy").shown < bot_rating(name, "normal").shown
        assert bot_rating(name, "good") == bot_rating(name, "normal"), name  # the old name of the level
    beat_good = rate_game(game("Ann", ("bot1", "bot:good")), {}, {"ann"})[0]
    beat_random = rate_game(game("Ann", ("bot1", "bot:random")), {}, {"ann"})[0]
    assert beat_good.mu > beat_random.mu


def test_guests_take_part_as_fresh_ratings_but_are_not_kept() -> None:
    new = by_name(rate_game(game("Guest", "Ann", "Bob"), {}, {"ann", "bob"}))
    assert set(new) == {"Ann", "Bob"}
    without = by_name(rate_game(game("Ann", "Bob"), {}, {"ann", "bob"}))
    assert new["Ann"].mu != without["Ann"].mu  # the guest's first place counted against Ann


def test_a_stand_in_is_rated_as_the_person_and_an_abandoned_game_not_at_all() -> None:
    new = by_name(rate_game(game(("Ann", "stand-in"), "Bob"), {}, {"ann", "bob"}))
    assert new["Ann"].mu > MODEL.mu > new["Bob"].mu
    assert rate_game(game("Ann", "Bob", outcome="abandoned"), {}, {"ann", "bob"}) == []


# ------------------------------------------------------------------ the store


def test_the_store_keeps_the_ratings_with_the_games_ranked_in_each_game(backend: Backend) -> None:
    store = backend.open()
    for name in ("Ann", "Bob", "Cy"):
        store.create_account(name, HASH)
    store.record_game(game("Ann", "Bob", "Cy", "guest", ended=1.0), rate_game)
    store.record_game(game("Bob", "Ann", ("bot1", "bot:good"), ended=2.0), rate_game)
    store.record_game(game("Cy", "Ann", name="witches", ended=3.0), rate_game)
    store.record_game(game("Cy", "Ann", outcome="abandoned", ended=4.0), rate_game)
    store.close()
    store = backend.open()
    top = store.top("wizard")
    assert [r.name for r in top] == sorted(["Ann", "Bob", "Cy"], key=lambda n: -store.rating(n, "wizard").shown)
    assert [r.rank for r in top] == [1, 2, 3] and top[0].shown >= top[1].shown >= top[2].shown
    assert store.rating("guest", "wizard") is None and store.rating("bot1", "wizard") is None
    ann = store.ratings_of("ANN")
    assert [(r.game, r.games) for r in ann] == [("witches", 1), ("wizard", 2)]
    assert ann[1].updated == 2.0 and ann[1] == store.rating("ann", "wizard")
    assert store.top("wizard", 1) == top[:1]
    assert store.top("tiltowait") == []


def test_tied_ratings_share_a_rank(store: Store) -> None:
    for name in ("Ann", "Bob", "Cy"):
        store.create_account(name, HASH)
    store.record_game(game("Ann", "Bob", "Cy", places=[1, 1, 3]), rate_game)
    assert [(r.name, r.rank) for r in store.top("wizard")] == [("Ann", 1), ("Bob", 1), ("Cy", 3)]


def failing(record: GameRecord, current: Any, registered: Any) -> list[Rating]:
    raise RuntimeError("the rating step failed")


def test_a_failing_rating_step_stores_no_game_either(store: Store) -> None:
    store.create_account("Ann", HASH)
    with pytest.raises(RuntimeError, match="rating step failed"):
        store.record_game(game("Ann", "Bob"), failing)
    assert store.games_of("Ann") == [] and store.rating("Ann", "wizard") is None

    def unwritable(record: GameRecord, current: Any, registered: Any) -> list[Rating]:
        good = rate_game(record, current, registered)
        return [*good, Rating("Ann", "wizard", None, 1.0, 1, 1, 1.0)]  # type: ignore[arg-type]  # NOT NULL

    with pytest.raises(StoreError):
        store.record_game(game("Ann", "Bob"), unwritable)
    assert store.games_of("Ann") == [] and store.rating("Ann", "wizard") is None
    store.record_game(game("Ann", "Bob"), rate_game)  # and the store still works
    assert len(store.games_of("Ann")) == 1 and store.rating("Ann", "wizard") is not None


def test_a_version_2_file_gains_ratings_and_keeps_its_games_and_accounts(backend: Backend) -> None:
    old = backend.open(backend.migrations[:2])  # as the accounts slice left it
    kept = old.record_game(game("Ann", "Bob"))
    assert old.version == 2
    backend.query(f"INSERT INTO accounts VALUES ('ann', 'Ann', '{HASH}', 1.0)")  # as its code registered one
    old.close()
    store = backend.open()
    assert store.version == len(backend.migrations) and store.game(kept) is not None
    assert store.account("ann") is not None and store.ratings_of("Ann") == []  # old games are not rated afresh
    store.record_game(game("Ann", "Bob"), rate_game)
    assert store.rating("ann", "wizard") is not None and store.rating("bob", "wizard") is None
    store.close()
    assert backend.query("SELECT name_key, game, games FROM ratings") == [("ann", "wizard", 1)]


def test_the_kept_ratings_equal_a_recomputation_from_the_kept_games(store: Store) -> None:
    people = ["Ann", "Bob", "Cy", "Di"]
    for name in people:
        store.create_account(name, HASH)
    plays = [game("Ann", "Bob", "Cy", ended=1), game("Cy", "Di", ("bot1", "bot:good"), ended=2),
             game("Bob", "Ann", "guest", places=[1, 1, 3], ended=3), game("Di", ("Ann", "stand-in"), ended=4),
             game("Ann", "Cy", name="witches", ended=5), game("Bob", "Cy", outcome="abandoned", ended=6),
             game("Cy", "Bob", ("bot1", "bot:random"), "Ann", ended=7)]
    ids = [store.record_game(p, rate_game) for p in plays]
    records = [store.game(i) for i in ids]
    again = recompute([r for r in records if r is not None], {p.lower() for p in people})
    kept = {(r.name.lower(), r.game): r for p in people for r in store.ratings_of(p)}
    assert kept == again and len(kept) == 6  # four in wizard, two in witches
    assert kept[("ann", "wizard")].games == 4


def test_the_board_keeps_at_most_its_limit_of_names_forgetting_the_oldest_read(store: Store) -> None:
    store.create_account("Ann", HASH)
    store.record_game(game("Ann", "Bob"), rate_game)
    board = RatingBoard(store)
    board.LIMIT = 3
    ann = board.shown("Ann", "wizard")
    assert ann is not None
    for name in ("Bob", "Cy", "Di", "Eve"):  # names shown and never logged out here
        board.shown(name, "wizard")
    assert len(board._known) == 3 and "ann" not in board._known and "bob" not in board._known
    assert board.shown("ANN", "wizard") == ann  # read again when shown again
    assert list(board._known) == ["di", "eve", "ann"]


def test_the_board_reads_a_name_once_and_again_after_a_rated_game(store: Store) -> None:
    store.create_account("Ann", HASH)
    board = RatingBoard(store)
    assert board.shown("Ann", "wizard") is None and board.best("Ann") is None
    store.record_game(game("Ann", "Bob"), rate_game)
    assert board.shown("Ann", "wizard") is None  # in memory: not read again for every state
    [(name, before, after)] = board.refresh(board.read(["Ann", "Bob"]), "wizard")
    assert (name, before) == ("Ann", None) and after == board.shown("ann", "wizard") == store.rating("Ann",
                                                                                                      "wizard").shown
    assert board.for_seat("bot1", "bot:good", "wizard") == bot_rating("wizard", "good").shown
    assert board.for_seat("Ann", "stand-in", "wizard") == after


def test_several_names_ratings_are_read_at_once_as_one_by_one(store: Store) -> None:
    store.create_account("Ann", HASH)
    store.create_account("Bob", HASH)
    store.record_game(game("Ann", "Bob"), rate_game)
    store.record_game(game("Bob", "Ann", "Cy"), rate_game)
    found = store.ratings_of_all(["ANN", "bob", "Cy", "Dee"])
    assert found == {"ann": store.ratings_of("Ann"), "bob": store.ratings_of("Bob"), "cy": [], "dee": []}
    assert [r.name for r in found["ann"]] == ["Ann"] and found["ann"][0].rank >= 1
    assert store.ratings_of_all([]) == {}


def test_a_rating_the_store_did_not_give_is_asked_again_after_a_pause_and_shown(store: Store) -> None:
    """A table keeps its players' ratings between updates while nothing about them changes; a read the
    store refused is not kept as "no rating", nor asked again on every update while the store is down: after
    ``RETRY`` seconds the next state shows it (the store's failure made on purpose, once)."""
    store.create_account("Ann", HASH)
    store.record_game(game("Ann", "Bob"), rate_game)
    expected = store.rating("Ann", "wizard")
    assert expected is not None
    clock = Clock()
    lobby = Lobby(clock, grace=30, bot_delay=0.5, seed=11, records=Records.inline(store))
    ann = Recorder()
    lobby.login(ann, "Ann", registered=True)
    for cmd in ("/new wizard", "/bot add random", "/bot add random"):
        dispatch(lobby, ann, cmd)
    assert lobby.records is not None
    board = lobby.records.board
    board.clock = clock.seconds
    board.forget("Ann")
    real = store.ratings_of
    refusals, reads = [], []

    def refuse_once(name: str) -> list[Rating]:
        reads.append(name)
        if not refusals:
            refusals.append(name)
            raise StoreError("the disk is busy")
        return real(name)

    store.ratings_of = refuse_once  # type: ignore[method-assign]
    dispatch(lobby, ann, "/start")
    assert refusals == ["Ann"]

    def ann_rating() -> int | None:
        return next(p["rating"] for p in ann.last_state()["players"] if p["name"] == "Ann")

    assert ann_rating() is None  # not read this time
    dispatch(lobby, ann, "/look")
    assert ann_rating() is None and reads == ["Ann"]  # nor asked again at once (the store is down: quiet)
    clock.advance(board.RETRY)
    dispatch(lobby, ann, "/look")
    assert ann_rating() == expected.shown and reads == ["Ann", "Ann"]
