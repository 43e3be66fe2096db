"""`curate run`: every stage of a recipe in order, each skipped when it is up to date.

A step is up to date when its fingerprint (its config, the identity of its input: a git commit,
a folder's content, and the bytes of the workspace tables it reads) equals the one recorded
when it last finished, and the tables it writes still hold what it (or a later step) left
there. The records are `WS/recipe-run.json`, written after every finished step, so a run that
is killed resumes at the step it was in; annotate's own journal keeps the answers received
inside that step. This is independent of any cache inside a stage (ingest's parse cache):
the stage is not even entered when it is up to date.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import hashlib
import json
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from curate import __version__
from curate.errors import UserError
from curate.recipe import Recipe, SourceSpec
from curate.recipe_inputs import checkout, checkout_name, file_digest, folder_digest
from curate.workspace import Workspace
from schemas.atomic import write_text_atomic

STATE_FILE = "recipe-run.json"


@dataclass(frozen=True, slots=True)
class Step:
    """One stage call of the recipe: what it reads and writes (workspace-relative paths), its
    recorded config, the identity of its outside input, and how to run it (-> a summary line)."""

    id: str
    run: Callable[[], str]
    reads: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()
    config: dict[str, Any] = field(default_factory=dict)
    identity: Callable[[], dict[str, Any]] = dict
    # True: runs again whenever a step before it ran (a report of everything before it)
    follows: bool = False
    present: tuple[str, ...] = ()  # tables that must exist (shared with other steps of its kind)


@dataclass(slots=True)
class StepResult:
    step: str
    status: str  # "ran" or "up to date"
    seconds: float
    line: str


@dataclass(slots=True)
class RunOutcome:
    recipe: Recipe
    workspace: Path
    results: list[StepResult]
    seconds: float
    state: Path

    def ran(self) -> list[str]:
        return [r.step for r in self.results if r.status == "ran"]

    def skipped(self) -> list[str]:
        return [r.step for r in self.results if r.status != "ran"]


class RunState:
    """`WS/recipe-run.json`: per step its fingerprint, inputs and outputs; per table the digest
    it was left with and the step that left it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.steps: dict[str, dict[str, Any]] = {}
        self.tables: dict[str, dict[str, str]] = {}
        if path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                self.steps, self.tables = dict(data["steps"]), dict(data["tables"])
            except (OSError, ValueError, KeyError, TypeError):
                self.steps, self.tables = {}, {}  # unreadable: every step runs again, nothing is lost

    def save(self) -> None:
        data = {"tool_version": __version__, "steps": self.steps, "tables": self.tables}
        write_text_atomic(self.path, json.dumps(data, indent=2, sort_keys=True) + "\n")


def _fingerprint(step: Step, inputs: dict[str, str]) -> str:
    body = {
        "step": step.id,
        "config": step.config,
        "identity": step.identity(),
        "inputs": inputs,
        "tool": __version__,
    }
    return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()


class Runner:
    """Runs the steps in order, deciding for each whether it is up to date."""

    def __init__(self, ws: Workspace, steps: list[Step], force: set[str], log: Callable[[str], None]) -> None:
        self.ws, self.steps, self.force, self.log = ws, steps, force, log
        self.order = {step.id: i for i, step in enumerate(steps)}
        ws.create()
        self.state = RunState(ws.root / STATE_FILE)

    def _digest(self, rel: str) -> str:
        return file_digest(self.ws.root / rel)

    def _inputs(self, step: Step) -> dict[str, str]:
        """The digests of the tables `step` reads; a table it also writes and that still holds
        what it wrote counts as the input it had then (verify rewrites what it reads)."""
        before = self.state.steps.get(step.id, {})
        inputs = {}
        for rel in step.reads:
            now = self._digest(rel)
            if rel in step.writes and now and now == before.get("outputs", {}).get(rel):
                now = before.get("inputs", {}).get(rel, now)
            inputs[rel] = now
        if step.follows:
            for earlier in self.steps[: self.order[step.id]]:
                inputs[f"step {earlier.id}"] = str(self.state.steps.get(earlier.id, {}).get("at", ""))
        return inputs

    def _outputs_intact(self, step: Step) -> bool:
        """Each table the step writes exists and holds what this step or a later one left."""
        if not all((self.ws.root / rel).is_file() for rel in step.present):
            return False
        for rel in step.writes:  # workspace-relative, or absolute (a published folder)
            left = self.state.tables.get(rel)
            if left is None or self._digest(rel) != left.get("digest"):
                return False
            by = self.order.get(left.get("by", ""), -1)
            if by < self.order[step.id]:
                return False
        return True

    def up_to_date(self, step: Step, key: str) -> bool:
        before = self.state.steps.get(step.id)
        return (
            step.id not in self.force
            and before is not None
            and before.get("fingerprint") == key
            and self._outputs_intact(step)
        )

    @contextlib.contextmanager
    def _exclusive(self) -> Iterator[None]:
        """One `curate run` per workspace (each stage also takes the workspace lock, but two runs
        would overwrite each other's records)."""
        with open(self.ws.root / "recipe-run.lock", "a+") as handle:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise UserError(
                    f"another `curate run` is running on {self.ws.root}; wait for it to finish"
                ) from None
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    def run(self) -> list[StepResult]:
        with self._exclusive():
            return self._run_steps()

    def _run_steps(self) -> list[StepResult]:
        results = []
        for number, step in enumerate(self.steps, 1):
            started = time.perf_counter()
            inputs = self._inputs(step)
            key = _fingerprint(step, inputs)
            if self.up_to_date(step, key):
                line = str(self.state.steps[step.id].get("line", ""))
                results.append(StepResult(step.id, "up to date", time.perf_counter() - started, line))
                self.log(f"[{number}/{len(self.steps)}] {step.id}: up to date")
                continue
            self.log(f"[{number}/{len(self.steps)}] {step.id} ...")
            self.state.steps.pop(step.id, None)  # not up to date until it finishes again
            self.state.save()
            line = step.run()
            outputs = {rel: self._digest(rel) for rel in step.writes}
            for rel, digest in outputs.items():
                self.state.tables[rel] = {"digest": digest, "by": step.id}
            self.state.steps[step.id] = {
                "fingerprint": key,
                "inputs": inputs,
                "outputs": outputs,
                "line": line,
                "at": datetime.now(UTC).isoformat(timespec="microseconds"),
            }
            self.state.save()
            seconds = time.perf_counter() - started
            results.append(StepResult(step.id, "ran", seconds, line))
            self.log(f"[{number}/{len(self.steps)}] {step.id}: {line} ({seconds:.1f} s)")
        return results


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def run_recipe(
    recipe: Recipe,
    mirror: Path | None = None,
    force: set[str] | None = None,
    until: str | None = None,
    limit: int | None = None,
    log: Callable[[str], None] = _stderr,
) -> RunOutcome:
    """Run (or skip) every step of `recipe`; `until` stops after that step, `force` reruns steps,
    `limit` overrides [annotate] limit."""
    from curate.recipe_steps import recipe_steps  # the stage modules load only when a recipe runs

    started = time.perf_counter()
    ws = Workspace(recipe.workspace)
    steps = recipe_steps(recipe, ws, mirror, limit)
    ids = [s.id for s in steps]
    for name in sorted((force or set()) | ({until} if until else set())):
        if name not in ids:
            raise UserError(f"no step {name!r} in this recipe; its steps: {', '.join(ids)}")
    if until:
        steps = steps[: ids.index(until) + 1]
    runner = Runner(ws, steps, force or set(), log)
    results = runner.run()
    return RunOutcome(recipe, ws.root, results, time.perf_counter() - started, runner.state.path)


def source_root(spec: SourceSpec, ws: Workspace, mirror: Path | None) -> Path:
    """The folder a source is read from: its checkout at the pinned commit, or its local folder."""
    if spec.git:
        # one checkout per repository and commit, shared by the inputs read from it
        root = checkout(spec, ws.root / "sources" / checkout_name(spec.git, spec.commit), mirror)
    else:
        assert spec.path is not None
        root = spec.path
    return root / spec.subdir if spec.subdir else root


def source_identity(spec: SourceSpec, exclude_dirs: list[str]) -> dict[str, Any]:
    """What a source is, for its fingerprint: a commit names its content; a folder or a table
    file is hashed (a Hub dataset id is taken as named)."""
    identity = spec.identity()
    if spec.path is not None:
        identity["content"] = folder_digest(
            spec.path / spec.subdir if spec.subdir else spec.path, exclude_dirs
        )
    elif spec.table and Path(spec.table).is_file():
        identity["content"] = file_digest(Path(spec.table))
    return identity


def as_record(config: Any) -> dict[str, Any]:
    return dataclasses.asdict(config) if config is not None else {}
