"""The executors (local and Ray) run only a few shards ahead of their consumer: a slow consumer (an audit
asking a judge about each shard's task matches) must not find every shard's result, with the
units it names, piled up in memory."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from curate.executor import LocalExecutor


def test_a_slow_consumer_holds_few_results_not_all_of_them(tmp_path: Path) -> None:
    def work(item: int) -> int:
        (tmp_path / f"ran-{item}").touch()  # seen by the parent: workers share the filesystem
        return item

    results = LocalExecutor(workers=2).map(work, range(40))
    first = next(results)
    time.sleep(1.0)  # ample time for the workers to run whatever was handed to them
    started = len(list(tmp_path.glob("ran-*")))
    rest = list(results)
    assert first == 0 and rest == list(range(1, 40)), "results in input order"
    assert started <= 2 * 2, f"{started} shards ran ahead of a consumer that took one"


def test_on_ray_a_slow_consumer_holds_few_results_and_a_bad_row_is_its_value_error(
    ray_runtime, tmp_path: Path
) -> None:
    from curate.executor import RayExecutor

    def work(item: int) -> int:
        (tmp_path / f"ran-{item}").touch()  # a local runtime: its workers share the filesystem
        if item == 30:
            raise ValueError("row 30: bad input")
        return item

    executor = RayExecutor()
    results = executor.map(work, range(40))
    first = next(results)
    time.sleep(2.0)  # ample time for the workers to run whatever was handed to them
    started = len(list(tmp_path.glob("ran-*")))
    assert first == 0 and started <= 2 * executor.workers, f"{started} shards ran ahead of one taken"
    assert [next(results) for _ in range(29)] == list(range(1, 30)), "results in input order"
    with pytest.raises(ValueError, match="row 30"):
        next(results)
