"""The task-level matches of a streamed audit, kept out of memory.

A training side of a million rows can solve a benchmark task a hundred thousand times (every row
that calls `Relu` solves `relu`). Holding each matched unit (its code) and each match's record
until the report is written made the audit's memory grow by about 5.6 KB per match. The store
takes the matches shard by shard instead, while the shard's units are in memory: the judge (when
one is given) is asked about them there, their counters are added up, and each match is reduced
to its short record (`task_leaks.short_record`), written to a private temporary SQLite database
with its sort key. Only the strongest `DETAILED_RECORDS` matches keep their unit, for the facts
the report shows side by side. leakage.json then reads the records back in report order
(`records`), so memory stays flat however many matches there are; every match is still
counted, and named in leakage.json.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any

from curate.report.leakage import RawJson
from curate.report.task_leaks import DETAILED_RECORDS, report_order, short_record, task_record
from curate.tasklevel import MatchJudge
from dedup.decide import task_counts
from dedup.tasks import TaskIndex
from schemas import BenchmarkItem, KernelUnit
from schemas.tasks import TaskMatch

_SORT = "ORDER BY op_level, score DESC, path, seq"  # = task_leaks.report_order, on disk

# One entry of the strongest matches: (report order key, match, its unit).
_Top = tuple[tuple[bool, float, str, int], TaskMatch, KernelUnit]


def _encoded(text: str) -> bytes:
    """UTF-8 that keeps a lone surrogate (a JSON row id may hold one); bytes compare in code
    point order, as Python compares strings."""
    return text.encode("utf-8", "surrogatepass")


class TaskMatchStore:
    """Every task match of an audit, added shard by shard (`add`) and read back in report order."""

    def __init__(
        self, items: Sequence[BenchmarkItem], index: TaskIndex, judge: MatchJudge | None = None
    ) -> None:
        self.items, self.index, self.judge = items, index, judge
        # "": a private on-disk database in SQLite's temporary directory, deleted when closed;
        # its page cache is bounded, so a large store is on disk, not in memory.
        self._db = sqlite3.connect("")
        self._db.execute(
            "CREATE TABLE matches (op_level INTEGER, score REAL, path BLOB, seq INTEGER PRIMARY KEY, record BLOB)"
        )
        self._seq = 0
        self._top: list[_Top] = []
        self._counts: dict[str, int] = dict.fromkeys(task_counts([]), 0)
        self._items: set[int] = set()
        self._detailed: list[dict[str, Any]] | None = None

    def add(self, matches: list[TaskMatch], units: Sequence[KernelUnit]) -> None:
        """One shard's matches (`unit` indexes `units`, the shard's units), in shard order."""
        if self.judge is not None:
            self.judge.judge(matches, units, self.items)  # drops the candidates it does not place
        # A unit belongs to one shard: counts of distinct units add up across shards.
        for name, value in task_counts(matches).items():
            self._counts[name] += value
        self._items.update(m.item for m in matches if m.judge != "no" and m.layer != "candidate")
        rows = []
        for match in matches:
            unit = units[match.unit]
            key = (*report_order(match, unit), self._seq)
            record = json.dumps(
                short_record(match, unit, self.items), ensure_ascii=False, separators=(",", ":")
            )
            rows.append((int(key[0]), match.score, _encoded(unit.path), self._seq, _encoded(record)))
            self._top.append((key, match, unit))
            self._seq += 1
        self._db.executemany("INSERT INTO matches VALUES (?, ?, ?, ?, ?)", rows)
        if len(self._top) > 2 * DETAILED_RECORDS:
            self._keep_strongest()

    def _keep_strongest(self) -> None:
        self._top.sort(key=lambda top: top[0])
        del self._top[DETAILED_RECORDS:]

    def units_held(self) -> int:
        """Units whose code the store holds: at most 2 x DETAILED_RECORDS plus one shard's
        matches, however many matches it was given; none once the detailed records are made."""
        return len(self._top)

    def counts(self) -> dict[str, int]:
        """`dedup.decide.task_counts` of every match added, then the judge's counters."""
        judged = self.judge.counts() if self.judge is not None else {}
        return {**self._counts, "task_matched_items": len(self._items), **judged}

    def detailed(self) -> list[dict[str, Any]]:
        """The strongest DETAILED_RECORDS matches as full records (both sides' facts), in report
        order: all the Markdown shows."""
        if self._detailed is None:
            self._keep_strongest()
            position = {sig.item: t for t, sig in enumerate(self.index.signatures)}
            self._detailed = [
                task_record(match, unit, self.items, self.index, position[match.item])
                for _, match, unit in self._top
            ]
            self._db.executemany("DELETE FROM matches WHERE seq = ?", [(key[-1],) for key, _, _ in self._top])
            self._top = []  # their units are no longer needed
        return self._detailed

    def records(self) -> Iterator[dict[str, Any] | RawJson]:
        """Every match in report order (`task_leaks.task_records`' order and records): the
        detailed ones, then the short records read back from disk."""
        yield from self.detailed()
        for (record,) in self._db.execute(f"SELECT record FROM matches {_SORT}"):
            yield RawJson(record.decode("utf-8", "surrogatepass"))

    def close(self) -> None:
        self._db.close()
        if self.judge is not None:
            self.judge.close()
