"""The work of `--jobs` shared by this process and its workers (sgn/pipeline/workers.py):
every item once, in order, whoever did it; an error at its item's turn; a dead worker's
items done here. Each test synchronises on events between the processes, never on time."""

import multiprocessing
import os

import pytest

from sgn.pipeline.workers import Workers

GUARD = 600  # seconds: a guard against a deadlock, never a measure of speed

if "fork" not in multiprocessing.get_all_start_methods():
    pytest.skip("these tests give the workers closures, which only fork can start", allow_module_level=True)

FORK = multiprocessing.get_context("fork")


def gathered(workers):
    try:
        return list(workers.results())
    finally:
        workers.end()


@pytest.mark.parametrize("count, jobs", [(1, 2), (2, 2), (7, 3), (100, 2), (1000, 4)])
def test_every_item_once_in_order(count, jobs):
    here = os.getpid()
    workers = Workers(FORK, count, jobs, lambda i: ("away", i, os.getpid()), lambda i: ("here", i, os.getpid()))
    found = gathered(workers)
    assert [value[1] for _, value in found] == list(range(count))
    for in_turn, (how, _, pid) in found:
        assert in_turn == (how == "here")
        assert how == "away" or pid == here  # an item given in its turn is done here
    assert workers.processes == [] and workers.links == []


def test_a_worker_shares_the_work():
    """Whoever takes the first item waits until the other process has taken one."""
    taken = FORK.Event()

    def away(i):
        if os.getpid() != parent:
            taken.set()
        else:
            assert taken.wait(GUARD)
        return os.getpid()

    def here(i):
        assert taken.wait(GUARD)
        return os.getpid()

    parent = os.getpid()
    found = gathered(Workers(FORK, 50, 2, away, here))
    assert len(found) == 50 and {pid for _, pid in found} - {parent}  # a worker did some


def test_an_error_is_raised_at_its_items_turn_after_the_items_before_it():
    def away(i):
        if i == 30:
            raise ValueError("item 30")
        return i

    workers = Workers(FORK, 100, 3, away, away)
    given = []
    with pytest.raises(ValueError, match="item 30"):
        for _, value in workers.results():
            given.append(value)
    workers.end()
    assert given == list(range(30))


def test_a_worker_that_dies_loses_no_item():
    """The worker dies on the first item it takes, once this process waits for it: the
    items it took are done here, after it has gone."""
    taken = FORK.Event()

    def away(i):
        if os.getpid() != parent:
            taken.set()
            os._exit(1)  # as killed: nothing sent back
        assert taken.wait(GUARD)
        return ("away", i)

    def here(i):
        assert taken.wait(GUARD)
        return ("here", i)

    parent = os.getpid()
    workers = Workers(FORK, 40, 2, away, here)
    found = gathered(workers)
    assert taken.is_set() and [value[1] for _, value in found] == list(range(40))


def test_ending_early_ends_the_workers():
    workers = Workers(FORK, 10_000, 3, lambda i: i, lambda i: i)
    results = workers.results()
    assert next(results)[1] == 0  # started, one item given
    started = list(workers.processes)
    assert started
    results.close()
    workers.end()
    assert all(not process.is_alive() for process in started)
