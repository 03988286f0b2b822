"""How `--jobs` and `--dask` split the files: every file once and in order, in parts that
shrink toward the end (so that the workers end together), never larger than their bound."""

import multiprocessing

from hypothesis import given, settings, strategies as st

from sgn.cluster.dask_run import BATCH, LAST_BATCH, _batches
from sgn.pipeline.workers import _take

names = st.lists(st.one_of(st.just("-"), st.integers(0, 10**6).map(lambda n: f"{n}.sgn")), max_size=600)


@settings(max_examples=300, deadline=None)
@given(names, st.integers(1, 64))
def test_dask_batches_hold_every_file_once_in_order_and_shrink(paths, workers):
    batches = list(_batches(paths, workers))
    assert [path for batch in batches for path in batch] == paths
    assert all(batch == ["-"] or ("-" not in batch and 1 <= len(batch) <= BATCH) for batch in batches)
    runs, run = [], []  # the batches between two standard inputs
    for batch in batches + [["-"]]:
        if batch == ["-"]:
            runs.append(run)
            run = []
        else:
            run.append(len(batch))
    for sizes in runs:
        assert sizes == sorted(sizes, reverse=True)
        assert all(size >= LAST_BATCH for size in sizes[:-1])


def test_a_thousand_files_on_two_workers_make_few_tasks_and_a_small_tail():
    sizes = [len(batch) for batch in _batches([f"{n}.sgn" for n in range(1000)], 2)]
    assert sizes[0] == BATCH
    assert len(sizes) <= 25  # each task costs its worker a few milliseconds of Dask's own work
    assert max(sizes[-4:]) <= LAST_BATCH


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 3000), st.integers(2, 8))
def test_jobs_chunks_hold_every_item_once_in_order_and_shrink(count, jobs):
    size = max(1, count // (jobs * 32))
    taken, counter = [], multiprocessing.get_context().Value("q", 0)
    while True:
        chunk = _take(counter, count, size, jobs)
        if chunk is None:
            break
        taken.append(chunk)
    assert [item for start, stop in taken for item in range(start, stop)] == list(range(count))
    sizes = [stop - start for start, stop in taken]
    assert sizes == sorted(sizes, reverse=True)
    assert all(1 <= n <= size for n in sizes)
    if count >= 2 * jobs:
        assert sizes[-1] == 1  # the last items are taken one at a time
