"""The task-level section of leakage.md names each document by file and kernel."""

from __future__ import annotations

import dataclasses

from curate.report.task_leaks import task_markdown, task_records
from curate.tasklevel import task_index_for
from dedup.tasks import match_units
from tests.test_tasklevel import CONV_MIN_TANH, GELU, NEUTRAL_FUSED, SOFTMAX, _items, _unit


def test_two_kernels_of_one_file_are_two_rows_told_apart_by_their_kernel() -> None:
    items = _items({"conv2d_min_tanh_tanh": CONV_MIN_TANH, "gelu": GELU, "softmax": SOFTMAX})
    index = task_index_for(items)
    assert index is not None
    first = dataclasses.replace(_unit("fused.cpp", NEUTRAL_FUSED), unit_id="u1", kernel_name="fused_a")
    second = dataclasses.replace(first, unit_id="u2", kernel_name="fused_b")
    matches = match_units([first, second], index)
    records = task_records(matches, [first, second], items, index)
    rows = [line for line in task_markdown(records, {}) if line.startswith("| `fused.cpp`")]
    assert sorted(rows) == sorted(set(rows)) and len(rows) == 2
    assert any("kernel `fused_a`" in r for r in rows) and any("kernel `fused_b`" in r for r in rows)


def test_the_report_says_what_placed_a_match_where_the_score_alone_did_not() -> None:
    from curate.report.task_leaks import _layer

    assert _layer({"layer": "semantics", "basis": "score"}) == "semantics"
    assert _layer({"layer": "identity", "basis": ""}) == "identity"
    assert _layer({"layer": "semantics", "basis": "one explanation"}) == "semantics (one explanation)"


def test_every_basis_a_placement_can_have_is_worded_for_the_report() -> None:
    # `match_document` names what placed a row (`basis`); the report words each one ("Placed by
    # ..."). A basis left out of BASES would be placed silently.
    import re
    from pathlib import Path

    import dedup.tasks
    from dedup.tasks import BASES

    source = Path(dedup.tasks.__file__).read_text()
    bases = set(re.findall(r'(?:basis|best, basis[^=]*)\s*=\s*[^\n]*?"([a-z ]+)"\s*$', source, re.M))
    bases |= set(re.findall(r'return \w+, "([a-z ]+)"', source))
    assert {"form", "call named", "sibling lead"} <= bases, bases
    assert bases <= set(BASES), bases - set(BASES)
