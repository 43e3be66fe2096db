"""Failed units of a run: grouped by reason for the summary, and the stop after failures in a row.

A unit fails when no usable answer came back (the endpoint failed or refused, or the answers never
parsed). Each failure has a short, stable reason ("connection error", "HTTP 503", "context window
exceeded", ...): the run summary counts units per reason with one example, so the end of a run says
what went wrong instead of a bare count. When the endpoint itself fails for several units in a
row (nothing listens, a refused model name, a server that errors on everything), the run stops
with one line saying what to fix, instead of spending every unit's retries on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from annotate.teacher import what_to_fix


@dataclass(slots=True)
class UnitFailure:
    reason: str  # short and stable: the group key of the summary
    message: str  # the full diagnostic of this unit
    endpoint: bool  # the endpoint failed (not the answer): counts toward stopping the run


@dataclass(slots=True)
class _Group:
    count: int
    example_unit: str
    example: str


class FailureLog:
    def __init__(self, stop_after: int, base_url: str) -> None:
        self.stop_after = stop_after  # endpoint failures in a row that stop the run (0: never)
        self.base_url = base_url
        self.in_a_row = 0
        self._groups: dict[str, _Group] = {}

    def judged(self) -> None:
        """A unit got a judged answer: the endpoint works."""
        self.in_a_row = 0

    def failed(self, unit_id: str, failure: UnitFailure) -> str | None:
        """Count a failed unit; the message to stop the run with, when it is time to stop."""
        group = self._groups.get(failure.reason)
        if group is None:
            self._groups[failure.reason] = _Group(1, unit_id, failure.message[:300])
        else:
            group.count += 1
        if not failure.endpoint:
            return None
        self.in_a_row += 1
        if not self.stop_after or self.in_a_row < self.stop_after:
            return None
        return (
            f"stopped after {self.in_a_row} units failed in a row ({failure.reason}: {failure.message[:200]}); "
            f"{what_to_fix(failure.reason, self.base_url)}"
        )

    def grouped(self) -> list[dict[str, object]]:
        """[{reason, count, example_unit, example}], the most frequent reason first."""
        ordered = sorted(self._groups.items(), key=lambda item: (-item[1].count, item[0]))
        return [
            {"reason": reason, "count": g.count, "example_unit": g.example_unit, "example": g.example}
            for reason, g in ordered
        ]


def report_lines(failures: list[dict[str, object]], failed: int, units: int) -> list[str]:
    """The failure summary printed at the end of a run: one line per reason, with an example."""
    lines = [f"{failed} of {units} units failed:"]
    for group in failures:
        lines.append(
            f"  {group['count']} x {group['reason']}, e.g. unit {group['example_unit']}: {group['example']}"
        )
    return lines
