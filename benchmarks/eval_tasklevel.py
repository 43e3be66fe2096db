"""Recall and precision of task-level matching (dedup.tasks) on real solutions, and the share of
a control corpus (kernels of no benchmark task) that is flagged.

    python benchmarks/eval_tasklevel.py --reference MKB/reference \
        --submissions GOLDEN_DIR --trees EVOKERNEL_OPS_DIR [--control DIR ...] [--split dev|held-out|all]

- Test side: every PyTorch reference under --reference (one task per file).
- Solutions: every submission-format `.py` of --submissions (truth: its file stem) and every op
  directory of --trees (truth: the directory name, `ArgmaxOverADimensionCustom`); a solution
  whose truth normalises to no task name is counted apart (no right answer to find). --fixes
  reads repair rows too (`ascendc-skill`'s `reference/issues`: an error and the diff that fixed
  a solution, a fragment of it; truth: the file stem), --answers saved answers (`<task>.txt`: a
  model's reply, prose and a fenced submission, as MultiKernelBench's own runs save them).
- Each solution is matched as written and with every identifier spelt after its task replaced
  (benchmarks/neutralise_names.py); with --bare, also renamed and without its comments and
  docstrings. Recall: share of solutions placed on their task; precision:
  share of placements that are right.
- Dev / held-out: md5 of the truth task's key, first byte mod 10 < 7 -> dev. Tune on dev only.
  Held-out is halved by the second byte (`split_of`): held-out-a, opened for tuning once the
  whole of held-out had been read as totals for sessions, and held-out-b.
- Control: each --control folder read per unit (a file with a kernel entry plus its folder's
  files, as `dedup` reads a unit) and per file (every code file alone, shared headers included);
  printed: documents, flagged (either level) and its share, flagged as fused, as op level.
  --control-units reads a control as `curate` does: the units.parquet of a workspace that
  `curate ingest` wrote (each unit's entry, host code, names and documentation); --units reads
  op trees that way (truth: the operator folder's name), where --trees reads each tree whole.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from neutralise_names import neutralise, strip_comments  # noqa: E402

from curate.judge import TaskJudge  # noqa: E402
from curate.sources import saved_answer  # noqa: E402
from curate.tasklevel import first_confirmed  # noqa: E402
from dedup.names import op_name_key  # noqa: E402
from dedup.tasks import (  # noqa: E402
    JUDGE_CANDIDATES,
    SEMANTIC_THRESHOLD,
    UNIT_SCAN_CHARS,
    match_document,
    operator_dir_of,
    operator_documents,
    task_index,
)
from parsers.docs import DocFinder  # noqa: E402
from parsers.submission import read_submission  # noqa: E402
from parsers.torchref import read_reference  # noqa: E402
from schemas.records import KernelUnit  # noqa: E402
from schemas.tables import read_records  # noqa: E402
from schemas.tasks import TaskMatch  # noqa: E402

_CODE = (".cpp", ".h", ".hpp", ".cc", ".asc", ".json")


def split_of(key: str) -> str:
    """dev (7 in 10 tasks) or held-out; held-out is halved by a second byte into held-out-a
    (opened for tuning in session 9, once session 8 had read all of held-out as figures only)
    and held-out-b (kept to the end of session 9, then read; no longer unseen: README)."""
    digest = hashlib.md5(key.encode()).digest()
    if digest[0] % 10 < 7:
        return "dev"
    return "held-out-a" if digest[1] % 2 == 0 else "held-out-b"


def load_tasks(reference: Path, exclude: list[str]) -> list:
    sigs = []
    for path in sorted(reference.rglob("*.py")):
        if any(part.startswith(tuple(exclude)) for part in path.relative_to(reference).parts[:-1]):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if "torch" in text:
            sigs.append(read_reference(path.stem, text))
            REFERENCES[path.stem] = text
    return sigs


REFERENCES: dict[str, str] = {}  # task name -> its reference's text (what a judge is shown)


@dataclass
class EvalJudge:
    """The judge layer as the evaluation runs it: "none" (offline placements only), "oracle" (a
    judge that says yes only to the right task: the bound a judge could reach with the
    candidates semantics gives it) or "endpoint" (a real model). `asked`: pairs put to it."""

    mode: str
    sigs: list
    endpoint: TaskJudge | None = None
    asked: int = 0

    def place(self, match: TaskMatch | None, text: str, truth: str) -> TaskMatch | None:
        """Where the document is placed: offline, the placement (a candidate kept for a judge
        is none); with a judge, the first of the match and its alternatives it says yes to."""
        if match is None or self.mode == "none":
            return None if match is None or match.layer == "candidate" else match
        confirmed = first_confirmed(match, lambda option: self._verdict(option, text, truth))
        if confirmed is not None:
            confirmed.tied = []  # the judge chose among tied tasks (as curate.tasklevel does)
        return confirmed

    def _verdict(self, option: TaskMatch, text: str, truth: str) -> bool | None:
        self.asked += 1
        task = self.sigs[option.item].task
        return (
            self.endpoint.verdict(text, REFERENCES[task])
            if self.endpoint
            else op_name_key(task, True) == truth
        )


def solutions(args: argparse.Namespace) -> list[tuple[str, str, list[str], str]]:
    """(truth name, code, names to neutralise, the prose beside the code) per solution."""
    rows = []
    for directory in args.submissions:
        for path in sorted(Path(directory).glob("*.py")):
            sub = read_submission(path.read_text(encoding="utf-8", errors="replace"))
            if sub is not None:
                rows.append((path.stem, sub.as_code(), [path.stem, sub.op_name], ""))
    for directory in args.answers:
        for path in sorted(Path(directory).glob("*.txt")):
            answer = saved_answer(path.read_text(encoding="utf-8", errors="replace"))
            if answer is not None:
                rows.append((path.stem, answer.code, [path.stem, answer.op_name], answer.prose))
    for directory in args.trees:
        docs = DocFinder.inside(Path(directory))  # each tree's README, as `curate audit DIR` reads it
        for op_dir in sorted(p for p in Path(directory).iterdir() if p.is_dir()):
            files = [
                f
                for f in sorted(op_dir.rglob("*"))
                if f.is_file() and f.suffix in _CODE and f.name != "result.json"
            ]
            code = "\n".join(f.read_text(encoding="utf-8", errors="replace") for f in files)
            doc = docs.for_entry(files[0].relative_to(directory).as_posix(), op_dir.name) if files else None
            rows.append((op_dir.name, code, [op_dir.name], doc.raw if doc is not None else ""))
    for workspace in args.units:
        # Op trees as `curate` reads them: the units `curate ingest TREES` wrote (truth: the tree).
        units = read_records(workspace / "units.parquet", KernelUnit)
        for u, document, _, prose in operator_documents(units):
            tree = (operator_dir_of(units[u].path) or units[u].path.split("/", 1)[0]).rpartition("/")[2]
            rows.append((tree, document, [tree], prose))
    for directory in args.fixes:
        for path in sorted(Path(directory).glob("*.json")):
            for entry in json.loads(path.read_text(encoding="utf-8")):
                text = f"{entry.get('error', '')}\n{entry.get('code_diff', '')}"
                rows.append((path.stem, text, [path.stem, entry.get("op", "")], ""))
    return rows


_SOURCES = (".cpp", ".h", ".hpp", ".cc", ".asc")


def control_docs(folder: Path, per: str) -> list[str]:
    """Per "file": every code file is a document (harsher than dedup: a shared header counts).
    Per "unit": as `dedup` reads a unit (`dedup.tasks.unit_document`): every file that defines a
    kernel entry (`__global__`), followed by the other code files of its folder, cut at
    UNIT_SCAN_CHARS; library headers of other folders are not read."""
    files = [
        f for f in sorted(folder.rglob("*")) if f.is_file() and f.suffix in _SOURCES and ".git" not in f.parts
    ]
    texts = {f: f.read_text(encoding="utf-8", errors="replace") for f in files}
    if per == "file":
        return list(texts.values())
    docs = []
    for f, text in texts.items():
        if "__global__" not in text:
            continue
        siblings = [texts[g] for g in files if g.parent == f.parent and g != f]
        docs.append("\n".join([text, *siblings])[:UNIT_SCAN_CHARS])
    return docs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reference", type=Path, required=True)
    parser.add_argument("--submissions", nargs="*", default=[])
    parser.add_argument("--trees", nargs="*", default=[])
    parser.add_argument(
        "--units",
        nargs="*",
        type=Path,
        default=[],
        help="workspaces `curate ingest` wrote a folder of op trees into",
    )
    parser.add_argument(
        "--answers",
        nargs="*",
        default=[],
        help="folders of saved answers (`<task>.txt`: prose and a fenced submission, as MultiKernelBench's runs save them)",
    )
    parser.add_argument(
        "--fixes",
        nargs="*",
        default=[],
        help="folders of JSON lists of {op, error, code_diff}: repair rows, a compiler error and the diff "
        "that fixed it (truth: the file stem)",
    )
    parser.add_argument("--control", nargs="*", default=[])
    parser.add_argument(
        "--control-units",
        nargs="*",
        type=Path,
        default=[],
        help="workspaces `curate ingest` wrote a control into",
    )
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--exclude", nargs="*", default=[], help="reference sub-folders to leave out")
    parser.add_argument("--threshold", type=float, default=SEMANTIC_THRESHOLD)
    parser.add_argument(
        "--split",
        choices=("dev", "held-out", "held-out-a", "held-out-b", "all"),
        default="all",
        help="solutions of this split only",
    )
    parser.add_argument(
        "--judge",
        choices=("none", "oracle", "endpoint"),
        default="none",
        help="also place rows through a judge: one that answers right (the bound), or --judge-url",
    )
    parser.add_argument("--judge-url", default="")
    parser.add_argument("--judge-model", default="judge")
    parser.add_argument("--judge-cache", type=Path, default=Path("eval-judge.sqlite"))
    parser.add_argument(
        "--bare",
        action="store_true",
        help="also match each solution renamed and with its comments and docstrings removed",
    )
    parser.add_argument(
        "--sample", type=int, default=1, help="every Nth solution of the split only (a slow judge)"
    )
    args = parser.parse_args()
    sigs = load_tasks(args.reference, args.exclude)
    index = task_index(sigs)
    if args.judge != "none":
        index.judge_candidates = JUDGE_CANDIDATES
    endpoint = (
        TaskJudge(args.judge_url, args.judge_model, args.judge_cache) if args.judge == "endpoint" else None
    )
    judge = EvalJudge(args.judge, sigs, endpoint)
    keys = {op_name_key(s.task) for s in sigs}
    # A solution's task by its name with versions kept first (`MobilenetV1Custom` is mobilenet_v1,
    # not mobilenet_v2, which shares its key "mobilenet"); rows are compared by that key.
    versioned = {op_name_key(s.task, keep_version=True) for s in sigs}
    print(f"tasks: {len(sigs)}")
    table: dict[tuple[str, str], list[int]] = {}
    seen = 0
    for truth, code, names, prose in solutions(args):
        key = op_name_key(truth, keep_version=True)
        split = split_of(op_name_key(truth)) if key in versioned or op_name_key(truth) in keys else "no-task"
        if args.split != "all" and not split.startswith(args.split):
            continue
        seen += 1
        if (seen - 1) % args.sample:
            continue
        for variant in ("as-written", "neutral", "bare")[: 3 if args.bare else 2]:
            text = code if variant == "as-written" else neutralise(code, names)
            text = strip_comments(text) if variant == "bare" else text
            said = {"as-written": prose, "neutral": neutralise(prose, names)}.get(variant, "")  # bare: none
            match, _ = match_document(text, index, threshold=args.threshold, prose=said)
            placed = judge.place(match, text, key)
            named = [op_name_key(sigs[t].task, True) for t in ([placed.item, *placed.tied] if placed else [])]
            # solutions, placed on one task, right, placed on one of tied tasks, the truth among them
            counts = table.setdefault((split, variant), [0, 0, 0, 0, 0])
            counts[0] += 1
            single = placed is not None and not placed.tied
            counts[1] += single
            counts[2] += single and named[0] == key
            counts[3] += placed is not None and not single
            counts[4] += not single and key in named
            if args.show_misses and split != "no-task" and not (single and named[0] == key):
                print(f"  miss [{split} {variant}] {truth} -> {' | '.join(named) or '-'}")
    for (split, variant), (n, n_placed, right, n_tied, tied_right) in sorted(table.items()):
        recall = right / n if n else 0.0
        precision = right / n_placed if n_placed else 0.0
        print(
            f"{split:9} {variant:10} solutions {n:4} placed {n_placed:4} right {right:4} "
            f"recall {recall:.3f} precision {precision:.3f}"
        )
        flagged, caught = n_placed + n_tied, right + tied_right
        print(
            f"{'':20} tied {n_tied:4} (truth among them {tied_right}); flagged as a leak, one task"
            f" or tied: {flagged}, truth among the named: {caught} (recall {caught / n if n else 0.0:.3f},"
            f" precision {caught / flagged if flagged else 0.0:.3f})"
        )
    if args.judge != "none":
        print(f"judge ({args.judge}): {judge.asked} pairs asked")
    for folder in args.control:
        for per in ("unit", "file"):
            docs = control_docs(Path(folder), per)
            fused = op = 0
            asked_before = judge.asked
            for doc in docs:
                match, _ = match_document(doc, index, threshold=args.threshold)
                placed = judge.place(match, doc, "")  # no right task: an oracle says no
                fused += bool(placed and placed.level == "fused")
                op += bool(placed and placed.level == "op")
            share = (fused + op) / len(docs) if docs else 0.0
            print(
                f"control {folder} per {per}: documents {len(docs)} flagged {fused + op} ({share:.2%}):"
                f" fused {fused}, op-level {op}"
                + (f" judge pairs {judge.asked - asked_before}" if args.judge != "none" else "")
            )

    for workspace in args.control_units:
        units = read_records(workspace / "units.parquet", KernelUnit)
        documents = operator_documents(units)  # as `curate` matches them (`match_units`)
        levels = []
        for u, document, names, prose in documents:
            match, _ = match_document(document, index, names, threshold=args.threshold, prose=prose)
            placed = judge.place(match, document, "")
            if placed is not None:
                levels.append(placed.level)
                if args.show_misses:
                    print(f"  flagged {units[u].path} -> {sigs[placed.item].task}")
        print(
            f"control units {workspace}: units {len(documents)} flagged {len(levels)}"
            f" ({len(levels) / max(len(documents), 1):.2%}): fused {levels.count('fused')}, op-level {levels.count('op')}"
        )


if __name__ == "__main__":
    main()
