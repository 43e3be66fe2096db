"""Task-level matches in leakage.json/.md: a class of their own, apart from copies, with what the
benchmark states and what the training document states side by side, so a reader can check the
verdict without re-running anything."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from curate.judge import GIVE_UP_AFTER
from dedup.structure import structural_fit
from dedup.tasks import BASES, TaskIndex, candidate_facts, repeated_model_lines, unit_document
from schemas import BenchmarkItem, KernelUnit
from schemas.tasks import TaskMatch

TOP_TASK_MATCHES = 20  # shown side by side in the Markdown
DETAILED_RECORDS = 200  # records with both sides' facts in leakage.json; the rest name the pair
_LIST = 12  # items of each fact list kept per record


def task_record(
    match: TaskMatch, unit: KernelUnit, items: Sequence[BenchmarkItem], index: TaskIndex, t: int
) -> dict[str, Any]:
    """One match of `unit` as leakage.json holds it (`t`: the task's position in the index)."""
    item, sig = items[match.item], index.signatures[t]
    document = unit_document(unit)
    facts, _ = candidate_facts(document, (unit.op_name, unit.kernel_name))
    lines = repeated_model_lines(sig, document)
    return {
        "unit_id": unit.unit_id,
        "unit_source": unit.source,
        "unit_path": unit.path,
        "unit_kernel": unit.kernel_name,
        "item_id": item.item_id,
        "benchmark": item.benchmark,
        "task_name": item.task_name,
        "task_path": item.path,
        "tied_tasks": [items[i].task_name for i in match.tied],
        "layer": match.layer,
        "basis": match.basis,
        "level": match.level,
        "score": match.score,
        "confidence": match.confidence,
        "judge": match.judge,
        "matched_name": match.name,
        "matched_ops": match.matched_ops,
        "shared_numbers": match.shared_numbers[:_LIST],
        "structure": structural_fit(index, t, facts),
        # the reference's lines outside `forward` (its model's layers, its settings) the document repeats
        "model_lines": {"repeated": len(lines), "of": len(sig.model_lines), "first": lines[:3]},
        "task": {
            "required_ops": sorted(index.required[t]),
            "ops_in_order": sig.ops[:24],
            "calls": sig.calls[:_LIST],
            "reductions": sig.reductions[:_LIST],
            "init_params": sig.init_params[:_LIST],
            "input_shapes": sig.input_shapes[:_LIST],
            "input_dims": sig.input_dims[:_LIST],
            "constructor": sig.constructor,
            "dims": sig.dims,
        },
        "candidate": {
            "names": facts.names[:_LIST],
            "ops": [f"{op} ({word})" for op, word in sorted(facts.ops.items())][:24],
            "inputs": facts.inputs[:_LIST],
            "outputs": facts.outputs[:_LIST],
            "attrs": facts.attrs[:_LIST],
            "tiling_fields": facts.tiling_fields[:_LIST],
            "apis": facts.apis[:_LIST],
            "dims": facts.dims,
            "constructors": facts.constructors[:_LIST],
            "pinned_shapes": facts.pinned_shapes[:_LIST],
        },
    }


def report_order(match: TaskMatch, unit: KernelUnit) -> tuple[bool, float, str]:
    """Strongest first: fused before op level, then score, then unit path (a stable sort keeps
    the order they were found in among equals)."""
    return (match.level != "fused", -match.score, unit.path)


def task_records(
    matches: Sequence[TaskMatch],
    units: Sequence[KernelUnit],
    items: Sequence[BenchmarkItem],
    index: TaskIndex | None,
) -> list[dict[str, Any]]:
    """Every match in report order (`report_order`): the first DETAILED_RECORDS with both
    sides' facts, the rest short. A streamed audit gives the same from disk
    (`curate.report.task_store`)."""
    if index is None:
        return []
    ordered = sorted(matches, key=lambda m: report_order(m, units[m.unit]))
    position = {sig.item: t for t, sig in enumerate(index.signatures)}
    records = [
        task_record(m, units[m.unit], items, index, position[m.item]) for m in ordered[:DETAILED_RECORDS]
    ]
    return records + [short_record(m, units[m.unit], items) for m in ordered[DETAILED_RECORDS:]]


def short_record(match: TaskMatch, unit: KernelUnit, items: Sequence[BenchmarkItem]) -> dict[str, Any]:
    """A match past the first DETAILED_RECORDS: the pair and the verdict, without the facts (a
    corpus of generic single ops can have thousands; their facts would dominate the report)."""
    item = items[match.item]
    return {
        "unit_id": unit.unit_id,
        "unit_path": unit.path,
        "unit_kernel": unit.kernel_name,
        "item_id": item.item_id,
        "task_name": item.task_name,
        "tied_tasks": [items[i].task_name for i in match.tied],
        "layer": match.layer,
        "basis": match.basis,
        "level": match.level,
        "score": match.score,
        "judge": match.judge,
        "matched_ops": match.matched_ops,
    }


def _document(record: dict[str, Any]) -> str:
    """The unit's file, and its kernel: a file with several kernels is several documents."""
    kernel = record.get("unit_kernel")
    return f"`{record['unit_path']}`" + (f" kernel `{kernel}`" if kernel else "")


def _layer(record: dict[str, Any]) -> str:
    """The layer, and for semantics what placed the match where the score alone did not."""
    basis = record.get("basis") or "score"
    return record["layer"] if basis == "score" else f"{record['layer']} ({basis})"


def _task(record: dict[str, Any]) -> str:
    """The task, or "one of" the tasks a document ties on (`TaskMatch.tied`)."""
    tied = record.get("tied_tasks") or []
    return (
        f"one of `{record['task_name']}`, " + ", ".join(f"`{t}`" for t in tied)
        if tied
        else f"`{record['task_name']}`"
    )


def _join(values: Sequence[Any]) -> str:
    return ", ".join(f"`{v}`" for v in values) if values else "-"


def _judge_sentence(counts: dict[str, int]) -> str:
    if "judge_requests" not in counts:
        return "; no judge was asked."
    return (
        f", judge (a model asked whether the document implements the task: "
        f"{counts.get('task_matches_by_judge', 0)} placed by its yes; {counts['judge_requests']} "
        f"requests, {counts.get('judge_cached', 0)} verdicts from its journal, "
        f"{counts.get('judge_failed', 0)} failed"
        + (
            f", {counts['judge_unclear']} answered neither yes nor no: those matches stand unjudged"
            if counts.get("judge_unclear")
            else ""
        )
        + (
            f", {counts['judge_not_asked']} not asked after it failed "
            f"{GIVE_UP_AFTER} times in a row: those matches stand unjudged"
            if counts.get("judge_not_asked")
            else ""
        )
        + ")."
    )


def task_markdown(records: Sequence[dict[str, Any]], counts: dict[str, int]) -> list[str]:
    """The Markdown section; [] when the test side states no task."""
    out = ["", "## Task-level matches (a benchmark task solved, not copied)", ""]
    out.append(
        f"{counts.get('task_matches', 0)} training documents solve {counts.get('task_matched_items', 0)} "
        f"benchmark tasks: {counts.get('task_matches_fused', 0)} a fused task (every step), "
        f"{counts.get('task_matches_op', 0)} a single-op task (level op, lower confidence)"
        + (
            f"; {counts['task_matches_tied']} of them solve one of several tasks that their words tie"
            " and their structure does not separate (confidence low, the tasks listed)"
            if counts.get("task_matches_tied")
            else ""
        )
        + (
            f"; {counts['task_matches_judged_no']} more the judge rejected"
            if counts.get("task_matches_judged_no")
            else ""
        )
        + ". Layers: identity (a name the document gives itself is the task's), semantics (what it "
        "states and does against the task's PyTorch reference; in brackets, what placed it where the"
        " score alone did not: the structure it repeats, a constructor only that task has, a tie"
        " settled by what it states, the numbers of one network, the lines of one network's"
        " reference it repeats, the forward one network's torch calls repeat, the network it names,"
        " the one task its hand-written op is, the one task the form of its kernel names)"
        + _judge_sentence(counts)
    )
    if not records:
        out += ["", "None."]
        return out
    out += ["", "| document | task | layer | level | score | judge |", "|---|---|---|---|---:|---|"]
    for r in records[:50]:
        out.append(
            f"| {_document(r)} | {_task(r)} | {_layer(r)} | {r['level']} | "
            f"{r['score']:.3f} | {r['judge'] or '-'} |"
        )
    for n, r in enumerate([r for r in records if "task" in r][:TOP_TASK_MATCHES], start=1):
        task, cand = r["task"], r["candidate"]
        out += ["", f"### {n}. {_document(r)} solves {_task(r)} ({r['layer']}, {r['level']})", ""]
        if r.get("basis") in BASES:
            out += [f"Placed by {BASES[r['basis']]}.", ""]
        out += ["| the task states | the document states |", "|---|---|"]
        out.append(f"| required ops: {_join(task['required_ops'])} | ops shown: {_join(cand['ops'])} |")
        out.append(f"| calls: {_join(task['calls'])} | AscendC calls: {_join(cand['apis'])} |")
        out.append(f"| `__init__`: {_join(task['init_params'])} | names: {_join(cand['names'])} |")
        out.append(
            f"| inputs: {_join([' x '.join(s) for s in task['input_shapes']])} | op inputs: "
            f"{_join(cand['inputs'])}; outputs {_join(cand['outputs'])}; attrs {_join(cand['attrs'])} |"
        )
        out.append(
            f"| rank: {_join(task['dims'])} | rank: {_join(cand['dims'])}; tiling: {_join(cand['tiling_fields'])} |"
        )
        out.append(
            f"| `Model(...)`: {_join(task['constructor'])} | same structure: {_join(r['structure'])}"
            + _model_lines(r.get("model_lines"))
            + " |"
        )
        out.append(
            f"| matched: {_join(r['matched_ops'])} | same name: {_join([r['matched_name']] if r['matched_name'] else [])} |"
        )
    return out


def _model_lines(lines: dict[str, Any] | None) -> str:
    """The lines of the task's reference outside `forward` the document repeats, when it repeats any."""
    if not lines or not lines["repeated"]:
        return ""
    return f"; repeats {lines['repeated']} of the {lines['of']} lines of its reference outside `forward` ({_join(lines['first'])})"
