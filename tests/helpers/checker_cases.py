"""Helpers of the checker's family tests: a kernel passes, and one edit of it fails on the edited
line with the expected message."""

from __future__ import annotations

from annotate.checker.clangcheck import CheckResult, KernelChecker

HEAD = '#include "kernel_operator.h"\nusing namespace AscendC;\n'


def errors_text(result: CheckResult) -> str:
    return "\n".join(f"  line {d.line}: {d.message} [{d.check}]" for d in result.errors)


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def fails_with(checker: KernelChecker, good: str, before: str, after: str, *expected: str) -> None:
    """`good` passes; with `before` replaced by `after` it fails on that line, saying `expected`."""
    ok = checker.check_source(good, "kernel.cpp")
    assert ok.ok, errors_text(ok)
    bad_text = good.replace(before, after)
    assert bad_text != good
    bad = checker.check_source(bad_text, "kernel.cpp")
    on_line = [d for d in bad.errors if d.line == line_of(bad_text, after)]
    assert on_line, errors_text(bad) or "no error"
    assert any(all(e in d.message for e in expected) for d in on_line), errors_text(bad)
