"""Careful expert answers on real kernels: accepted, and rejected once one fact is wrong.

    python benchmarks/bench_verify_expert.py --workspaces DIR [--split dev|heldout|all] [--show]

DIR holds one `curate ingest` workspace per repository (`DIR/ops-blas/units.parquet`, ...);
each answer in benchmarks/verify_expert/*.json names its repository, entry path and kernel, so
the kernel code itself is never part of this project. The answers are the benchmark author's
own prose (sections as the teacher writes them).

For each answer: the verdict of the default verifiers (surface + grounding; no vendor compiler),
then three variants with ONE fact made wrong everywhere it is stated:
- api:    an AscendC API the kernel calls, named by the answer, replaced by one it never calls
- queue:  a queue position the answer names replaced by one the kernel never uses
- buffer: a stated buffer count flipped (`NAME = 2` -> 1, double <-> single buffering)
A variant is "n/a" when the answer states no such fact. Prints one row per answer and totals.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from annotate.reasoning import VerifyConfig, default_verifiers
from annotate.reasoning.grounding import POSITIONS, declared_depths, kernel_positions
from annotate.tasks.kernel_reasoning import render_reasoning
from schemas import KernelUnit, read_records
from schemas.verdicts import is_accepted, run_verifiers

HERE = Path(__file__).resolve().parent / "verify_expert"
WRONG_APIS = ("Sort", "Gather", "WholeReduceMax", "Ln", "Sigmoid", "Transpose", "BlockReduceMax", "Axpy")
COMMON = {"DataCopy", "DataCopyPad", "AllocTensor", "FreeTensor", "EnQue", "DeQue", "InitBuffer"}
COMMON |= {"GetBlockIdx", "GetBlockNum", "SetGlobalBuffer", "Get", "GetValue", "SetValue"}
_COUNT_RE = re.compile(r"\b(BUFFER_NUM|BUF_NUM|PIPELINE_DEPTH|kBufNum|bufNum)( = )([12])\b")


@dataclass
class Row:
    name: str
    split: str
    kind: str
    accepted: bool
    checks: list[str]
    mutations: dict[str, str] = field(default_factory=dict)  # kind -> "rejected" | "ACCEPTED" | "n/a"


def load_units(root: Path, repos: set[str]) -> dict[tuple[str, str, str], KernelUnit]:
    units: dict[tuple[str, str, str], KernelUnit] = {}
    for repo in sorted(repos):
        for unit in read_records(root / repo / "units.parquet", KernelUnit):
            units[(repo, unit.path, unit.kernel_name)] = unit
    return units


def mutate_api(text: str, unit: KernelUnit) -> str | None:
    named = [a for a in unit.apis if re.search(rf"\b{re.escape(a)}\b", text)]
    named.sort(key=lambda a: (a in COMMON, -len(re.findall(rf"\b{re.escape(a)}\b", text))))
    wrong = next(
        (w for w in WRONG_APIS if w not in unit.apis and not re.search(rf"\b{w}\b", unit.code)), None
    )
    if not named or wrong is None:
        return None
    return re.sub(rf"\b{re.escape(named[0])}\b", wrong, text)


def mutate_queue(text: str, unit: KernelUnit) -> str | None:
    actual = kernel_positions(unit)
    named = [p for p in POSITIONS if p in actual and re.search(rf"\b{p}\b", text)]
    preferred = ("A1", "VECIN", "B2", "C2", "TSCM")
    wrong = next((p for p in preferred if p not in actual), None)
    if not named or wrong is None:
        return None
    named.sort(key=lambda p: -len(re.findall(rf"\b{p}\b", text)))
    return re.sub(rf"\b{named[0]}\b", wrong, text)


def mutate_buffer(text: str) -> str | None:
    if _COUNT_RE.search(text):
        return _COUNT_RE.sub(lambda m: m.group(1) + m.group(2) + ("1" if m.group(3) == "2" else "2"), text)
    if re.search(r"\bdouble[- ]buffer", text, re.IGNORECASE):
        return re.sub(
            r"\b([Dd])ouble([- ]buffer)",
            lambda m: ("S" if m.group(1) == "D" else "s") + "ingle" + m.group(2),
            text,
        )
    if re.search(r"\bsingle[- ]buffer", text, re.IGNORECASE):
        return re.sub(
            r"\b([Ss])ingle([- ]buffer)",
            lambda m: ("D" if m.group(1) == "S" else "d") + "ouble" + m.group(2),
            text,
        )
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workspaces", type=Path, required=True)
    parser.add_argument("--split", choices=("dev", "heldout", "all"), default="dev")
    parser.add_argument("--show", action="store_true", help="print the error diagnostics")
    args = parser.parse_args()
    answers = [
        json.loads(p.read_text(encoding="utf-8")) | {"name": p.stem} for p in sorted(HERE.glob("*.json"))
    ]
    answers = [a for a in answers if args.split == "all" or a["split"] == args.split]
    units = load_units(args.workspaces, {a["repo"] for a in answers})
    verifiers = default_verifiers(VerifyConfig(cann=False))
    rows: list[Row] = []
    for answer in answers:
        unit = units.get((answer["repo"], answer["path"], answer["kernel"]))
        if unit is None:
            print(f"{answer['name']}: unit not found in {args.workspaces / answer['repo']}", file=sys.stderr)
            continue
        text = render_reasoning(answer["sections"])
        found = run_verifiers(verifiers, unit, "", text)
        errors = [d for d in found if d.severity == "error"]
        row = Row(
            answer["name"],
            answer["split"],
            answer["kind"],
            is_accepted(found),
            sorted({d.check for d in errors}),
        )
        if args.show:
            for d in errors:
                print(f"  {answer['name']}: {d.check} line {d.line}: {d.message}")
        # a buffer count is checkable only where the kernel declares queue depths
        has_depths = bool(declared_depths(unit))
        variants = {
            "api": mutate_api(text, unit),
            "queue": mutate_queue(text, unit),
            "buffer": mutate_buffer(text) if has_depths else None,
        }
        for kind, variant in variants.items():
            if variant is None or variant == text:
                row.mutations[kind] = "n/a"
                continue
            judged = run_verifiers(verifiers, unit, "", variant)
            row.mutations[kind] = "ACCEPTED" if is_accepted(judged) else "rejected"
            if args.show:
                why = sorted({d.check for d in judged if d.severity == "error"})
                print(f"  {answer['name']} [{kind}]: {', '.join(why) or 'accepted'}")
        rows.append(row)
    for r in rows:
        muts = " ".join(f"{k}={v}" for k, v in r.mutations.items())
        state = "accepted" if r.accepted else f"REJECTED {','.join(r.checks)}"
        print(f"{r.name:18} {r.split:8} {r.kind:14} {state:40} {muts}")
    accepted = sum(r.accepted for r in rows)
    applied = [v for r in rows for v in r.mutations.values() if v != "n/a"]
    rejected = sum(v == "rejected" for v in applied)
    print(f"\naccepted {accepted}/{len(rows)}; one-wrong-fact variants rejected {rejected}/{len(applied)}")
    for kind in ("api", "queue", "buffer"):
        vals = [r.mutations[kind] for r in rows if r.mutations.get(kind, "n/a") != "n/a"]
        print(f"  {kind:6} rejected {sum(v == 'rejected' for v in vals)}/{len(vals)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
