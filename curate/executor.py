"""Where a stage's shard functions run: `local` (this process, one shard after the other) or
`ray` (Ray Data tasks on a local runtime or the cluster at RAY_ADDRESS). Stages are written once
against `Executor` (`map` a function over shards in order, `share` a read-only value with every
task, `map_groups` a function over the groups of a column shuffle) and give the same results on
both: results come back in input order, and the Ray executor only moves the same calls to other
processes. Used by `curate dedup` (`dedup.bands.BandShuffleEngine`) and `curate audit`.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any, TypeVar

import numpy as np

from curate.errors import UserError

T = TypeVar("T")
R = TypeVar("R")
Columns = dict[str, np.ndarray]

ENGINES = ("local", "ray")


def check_engine(engine: str) -> None:
    if engine not in ENGINES:
        raise UserError(f"--engine {engine!r} is not an engine; use one of {', '.join(ENGINES)}")


@dataclass(frozen=True, slots=True)
class LocalShared:
    value: Any

    def get(self) -> Any:
        return self.value


class LocalExecutor:
    """Every call in this process, lazily and in order (memory stays bounded by one shard)."""

    name = "local"
    workers = 1
    distributed = False

    def share(self, value: Any) -> LocalShared:
        return LocalShared(value)

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        return (fn(item) for item in items)

    def map_groups(self, columns: Columns, key: str, fn: Callable[[Columns], Columns]) -> list[Columns]:
        keys = columns[key]
        return [fn({name: values[keys == k] for name, values in columns.items()}) for k in np.unique(keys)]


@dataclass(frozen=True, slots=True)
class RayShared:
    ref: Any  # a Ray ObjectRef

    def get(self) -> Any:
        import ray

        return ray.get(self.ref)


def connect_ray() -> ModuleType:
    """Ray, joined to the cluster at RAY_ADDRESS, or to a local runtime started here when there
    is none (and none was started by the caller with `ray.init(...)`)."""
    try:
        import ray
    except ImportError:
        raise UserError("--engine ray needs Ray: pip install 'ascend-cot-curate[ray]'") from None
    if not ray.is_initialized():
        ray.init(address=os.environ.get("RAY_ADDRESS") or None, include_dashboard=False, log_to_driver=False)
    return ray


def _unwrapped(exc: Exception) -> Exception:
    """A task's ValueError (bad input) comes back wrapped by Ray: the ValueError itself."""
    cause = getattr(exc, "cause", None) or exc.__cause__
    return cause if isinstance(cause, ValueError) else exc


class RayExecutor:
    """Each call a Ray Data task; results pickled back and put in input order."""

    name = "ray"
    distributed = True

    def __init__(self) -> None:
        self.ray = connect_ray()

    @property
    def workers(self) -> int:
        return int(self.ray.cluster_resources().get("CPU", 1))

    def share(self, value: Any) -> RayShared:
        return RayShared(self.ray.put(value))

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        ray = self.ray
        refs = [ray.put(item) for item in items]

        def work(row: dict[str, Any]) -> dict[str, Any]:
            return {"i": row["i"], "result": pickle.dumps(fn(ray.get(refs[row["i"]])))}

        try:
            rows = ray.data.from_items([{"i": i} for i in range(len(refs))]).map(work).take_all()
        except Exception as exc:
            raise _unwrapped(exc) from None
        rows.sort(key=lambda r: r["i"])
        return iter([pickle.loads(r["result"]) for r in rows])

    def map_groups(self, columns: Columns, key: str, fn: Callable[[Columns], Columns]) -> list[Columns]:
        import pyarrow as pa

        dataset = (
            self.ray.data.from_arrow(pa.table(columns)).groupby(key).map_groups(fn, batch_format="numpy")
        )
        return list(dataset.iter_batches(batch_format="numpy", batch_size=None))


Executor = LocalExecutor | RayExecutor


def executor_for(engine: str) -> Executor:
    check_engine(engine)
    return RayExecutor() if engine == "ray" else LocalExecutor()
