"""What one run of the teacher loop did: counts, tokens, the answer format, what was left out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field


@dataclass
class RunSummary:
    units: int = 0
    requested: int = 0  # replies received from the teacher in this run (new journal rows)
    http_requests: int = 0  # every HTTP request sent: retries, failed attempts and format probes too
    cached: int = 0  # replies served from the journal
    accepted: int = 0
    rejected: int = 0
    failed: int = 0
    pending: int = 0  # units started but not finished (the run was stopped)
    response_format: str = ""  # the answer format used (json_schema, json_object or tagged)
    response_format_source: str = ""  # option, local, journal (decided by an earlier run) or probe
    context_tokens: int = 0  # the teacher's context window (0: unknown, or not needed: nothing sent)
    context_source: str = ""  # option, local, server /v1/models, server /props, unknown
    units_shortened: int = 0  # compact prompts that left part of their unit out
    code_lines_left_out: int = 0  # kernel and host lines those prompts did not show
    failures: list[dict[str, object]] = field(
        default_factory=list
    )  # [{reason, count, example_unit, example}]
    stopped: str = ""  # why the run stopped before every unit was tried (what to fix), "" if it did not
    prompt_tokens: int = 0  # spent in this run (cached replies cost nothing)
    completion_tokens: int = 0
    retries: int = 0
    rate_limited: int = 0
    elapsed_s: float = 0.0
    cost: float | None = None  # with --price-in/--price-out

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


ProgressCallback = Callable[[RunSummary, int, int], None]  # (summary, items done, items total)
