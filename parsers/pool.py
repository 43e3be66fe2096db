"""Parser workers that can die alone: one file at a time per worker, under limits.

Each worker is a process started from a fork server (with the parser preloaded) and is handed
one file at a time. A worker that crashes (libclang SIGSEGV, an abort when the address-space
limit is hit) or runs over the wall-time limit is killed and replaced; only the file it was on
is skipped, with the reason, and every other file is still parsed. Workers never outlive the
command: each one watches a pipe whose only writer is the command's process (EOF = the command
is gone, however it died) and, on Linux, also asks the kernel for SIGKILL when its parent dies.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import resource
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from parsers.files import Skip

Outcome = tuple[str, Any]  # (path, what `work` returned for it, or a Skip when the worker died on it)
Progress = Callable[[int, int, int], None]  # (files finished, files in this run, units found so far)
_PR_SET_PDEATHSIG = 1


@dataclass(frozen=True, slots=True)
class Limits:
    """What one file may cost a worker."""

    seconds: float  # wall time to parse one file
    memory_mb: int  # address space of a worker (RLIMIT_AS); 0 = no limit


@dataclass(frozen=True, slots=True)
class Job:
    """What every worker of a pool runs: `init(*init_args)` once, then `work(path)` per file
    (both importable module-level functions; `work` returns the result of that file)."""

    init: Callable[..., None]
    init_args: tuple[Any, ...]
    work: Callable[[str], Any]
    preload: tuple[str, ...]


# ---- worker side -------------------------------------------------------------------------


def _die_with_command(lifeline: Connection) -> None:
    """End this worker when the command's process is gone: its end of `lifeline` closes."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # the fork server's death too
    except (OSError, AttributeError):
        pass  # not Linux: the lifeline alone does it

    def watch() -> None:
        with contextlib.suppress(EOFError, OSError):
            lifeline.recv()
        os._exit(1)

    threading.Thread(target=watch, name="lifeline", daemon=True).start()


def _limit_memory(memory_mb: int) -> None:
    if memory_mb <= 0:
        return
    limit = memory_mb * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _worker_main(conn: Connection, lifeline: Connection, job: Job, limits: Limits) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the command handles Ctrl-C and ends us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_command(lifeline)
    _limit_memory(limits.memory_mb)
    job.init(*job.init_args)
    while True:
        try:
            path = conn.recv()
        except (EOFError, OSError):
            return
        if path is None:
            return
        conn.send(job.work(path))


# ---- command side ------------------------------------------------------------------------


@contextlib.contextmanager
def _main_module_hidden() -> Iterator[None]:
    """Start processes that do not import the command's main module again. A worker needs
    nothing from it (its job is in an importable module), but multiprocessing re-imports it
    in every new process: the whole CLI, 2 to 9 seconds per worker on a busy machine, during
    which a worker neither parses nor watches its lifeline."""
    main = sys.modules["__main__"]
    saved: dict[str, Any] = {k: main.__dict__[k] for k in ("__file__", "__spec__") if k in main.__dict__}
    main.__dict__.pop("__file__", None)
    main.__dict__["__spec__"] = None
    try:
        yield
    finally:
        main.__dict__.pop("__spec__", None)
        main.__dict__.update(saved)


def warm_up(preload: tuple[str, ...]) -> None:
    """Start the fork server now, so that it imports `preload` (the parser, pyarrow) while the
    command still walks the tree; the pool's first workers then fork from a ready server."""
    from multiprocessing import forkserver

    multiprocessing.get_context("forkserver").set_forkserver_preload(list(preload))
    with _main_module_hidden():
        forkserver.ensure_running()


class _Worker:
    def __init__(self, context: Any, lifeline: Connection, job: Job, limits: Limits) -> None:
        self.conn, child_conn = context.Pipe()
        self.process = context.Process(
            target=_worker_main, args=(child_conn, lifeline, job, limits), daemon=True
        )
        with _main_module_hidden():
            self.process.start()
        child_conn.close()
        self.path: str | None = None
        self.deadline = 0.0

    def give(self, path: str, seconds: float) -> None:
        self.path = path
        self.deadline = time.monotonic() + seconds
        self.conn.send(path)

    def end(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()


def _death(process: Any) -> str:
    code = process.exitcode
    if code is not None and code < 0:
        try:
            return signal.Signals(-code).name
        except ValueError:
            return f"signal {-code}"
    return f"exit {code}"


class WorkerPool:
    """Parse files over `jobs` workers; a context manager that ends every worker on exit
    (normal, exception, or KeyboardInterrupt)."""

    def __init__(self, job: Job, limits: Limits, jobs: int) -> None:
        self.job = job
        self.limits = limits
        self.jobs = max(1, jobs)
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(list(job.preload))
        self.workers: list[_Worker] = []
        self._lifeline_r: Connection | None = None
        self._lifeline_w: Connection | None = None

    def __enter__(self) -> WorkerPool:
        self._lifeline_r, self._lifeline_w = self.context.Pipe(duplex=False)
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for worker in self.workers:
            worker.end()
        self.workers = []
        for end in (self._lifeline_r, self._lifeline_w):
            if end is not None:
                end.close()
        self._lifeline_r = self._lifeline_w = None

    def _start(self) -> _Worker:
        assert self._lifeline_r is not None, "use the pool as a context manager"
        return _Worker(self.context, self._lifeline_r, self.job, self.limits)

    def _replace(self, worker: _Worker) -> None:
        worker.end()
        self.workers[self.workers.index(worker)] = self._start()

    def run(
        self,
        paths: Sequence[str],
        progress: Progress | None = None,
        count: Callable[[Any], int] | None = None,
    ) -> list[Outcome]:
        """(path, result) for every path (a crash or a limit is a Skip of that path only);
        `progress` hears of each finished file, with the units `count` finds in the results."""
        pending = deque(paths)
        while len(self.workers) < min(self.jobs, len(pending)):
            self.workers.append(self._start())
        out: list[Outcome] = []
        units = 0
        while pending or any(w.path is not None for w in self.workers):
            for worker in self.workers:
                if worker.path is None and pending:
                    worker.give(pending.popleft(), self.limits.seconds)
            busy = [w for w in self.workers if w.path is not None]
            timeout = max(0.0, min(w.deadline for w in busy) - time.monotonic())
            wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout)
            for worker in busy:
                outcome = self._collect(worker)
                if outcome is not None:
                    out.append(outcome)
                    if progress:
                        units += count(outcome[1]) if count else 0
                        progress(len(out), len(paths), units)
        return out

    def _collect(self, worker: _Worker) -> Outcome | None:
        """The worker's outcome when it is done with its file (or dead, or over time)."""
        path = worker.path
        assert path is not None
        try:
            if worker.conn.poll():
                result = worker.conn.recv()
                worker.path = None
                return path, result
        except (EOFError, OSError):
            # The pipe closed: the worker died on this file, though the process may not be reaped
            # yet (is_alive() can still say True for a moment after a SIGSEGV): wait for it.
            worker.process.join(timeout=5)
        if not worker.process.is_alive():
            worker.process.join()
            reason = f"parser worker crashed ({_death(worker.process)}) on this file"
        elif time.monotonic() >= worker.deadline:
            reason = f"parse took longer than {self.limits.seconds:g} s (limit)"
        else:
            return None
        worker.path = None
        self._replace(worker)
        return path, Skip(path, reason)
