"""The local executor: shard functions on a pool of forked workers, results in input order."""

from __future__ import annotations

import os

import numpy as np
import pytest

from curate.executor import LocalExecutor


def test_a_pool_runs_a_closure_in_other_processes_and_keeps_the_input_order() -> None:
    shared = {"offset": 1000}  # reaches the workers through the fork, not through pickle

    def work(item: int) -> tuple[int, int]:
        return item + shared["offset"], os.getpid()

    results = list(LocalExecutor(workers=2).map(work, range(20)))
    assert [value for value, _ in results] == [1000 + i for i in range(20)]
    assert os.getpid() not in {pid for _, pid in results}


def test_one_worker_or_one_item_runs_in_this_process() -> None:
    def pid(_: int) -> int:
        return os.getpid()

    assert set(LocalExecutor(workers=1).map(pid, range(3))) == {os.getpid()}
    assert list(LocalExecutor(workers=2).map(pid, [0])) == [os.getpid()]


def test_a_workers_value_error_reaches_the_caller() -> None:
    def work(item: int) -> int:
        if item == 3:
            raise ValueError("bad row 3")
        return item

    with pytest.raises(ValueError, match="bad row 3"):
        list(LocalExecutor(workers=2).map(work, range(6)))


def test_map_groups_on_the_pool_gives_each_group_whole() -> None:
    columns = {"part": np.array([1, 0, 1, 2, 0]), "v": np.arange(5)}

    def total(group: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {"part": group["part"][:1], "sum": np.array([group["v"].sum()])}

    groups = LocalExecutor(workers=2).map_groups(columns, "part", total)
    assert [(int(g["part"][0]), int(g["sum"][0])) for g in groups] == [(0, 5), (1, 2), (2, 3)]
