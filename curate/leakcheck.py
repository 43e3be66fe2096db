"""What the last dedup run checked, read from its run record: which benchmarks the units were
compared with, the task-level policy and what was removed or flagged. The dataset card and the
HTML report both say only this, so neither claims a decontamination that did not run."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from schemas.runs import DedupRun, StageRun


@dataclass(frozen=True, slots=True)
class LeakCheck:
    ran: bool  # the units were compared with at least one benchmark
    benchmarks: list[str] = field(default_factory=list)  # [] with `ran`: a record from before names
    items: int = 0  # benchmark items compared
    leaks: int = 0  # units marked leak (copies, and task-level matches under `drop`)
    task_policy: str = ""  # flag or drop; "" when the benchmark states no task
    task_matches: int = 0  # units that solve a benchmark task with other code
    task_dropped: int = 0  # of the leaks, those marked for a task-level match

    def named(self) -> str:
        """The benchmarks, as prose: "example-bench (11 items)"."""
        names = ", ".join(self.benchmarks) or "a benchmark (its name is not in the run record)"
        return f"{names} ({self.items:,} item{'s' * (self.items != 1)})"

    def task_sentence(self) -> str:
        """What the task-level pass did, or "" when it had nothing to compare."""
        if not self.task_policy:
            return ""
        n = self.task_matches
        solve = f"{n:,} unit{'s' * (n != 1)} solve{'s' * (n == 1)} a benchmark task with other code"
        if self.task_policy == "drop":
            return (
                f"Task-level matches (`--task-leaks drop`): {solve}; {self.task_dropped:,} removed as leaks."
            )
        return (
            f"Task-level matches (`--task-leaks flag`): {solve}; flagged in the leakage report, not removed."
        )


def last_leak_check(runs: Sequence[StageRun]) -> LeakCheck | None:
    """The check of the last dedup run, None when dedup never ran."""
    run = next((r for r in reversed(runs) if isinstance(r, DedupRun)), None)
    if run is None:
        return None
    counts = run.counts
    items = int(counts.get("benchmark_items", 0))
    if not items:
        return LeakCheck(False)
    tasks = "task_matches" in counts
    return LeakCheck(
        True,
        sorted(run.benchmarks),
        items,
        int(counts.get("leaks", 0)),
        str(run.config.get("task_leaks", "flag")) if tasks else "",
        int(counts.get("task_matches", 0)),
        int(counts.get("task_leaks_dropped", 0)),
    )
