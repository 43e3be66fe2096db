"""Time and size of the leakage report against the matching it reports on.

    python benchmarks/bench_report.py TRAIN TEST [--full-evidence] [--abstract-identifiers]

TRAIN and TEST are any audit sources (workspaces, folders, tables). Prints the pairs found, the
seconds spent matching (`run_audit`), building the report and serialising it, and the size of
leakage.json and leakage.md. Not a test.
"""

from __future__ import annotations

import argparse
import dataclasses
import time

from curate.sources import load_benchmark, load_corpus
from dedup.config import DedupConfig
from dedup.decide import run_audit
from dedup.report import build_json, build_markdown, dump_json


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("train")
    parser.add_argument("test")
    parser.add_argument("--full-evidence", action="store_true")
    parser.add_argument("--abstract-identifiers", action="store_true")
    args = parser.parse_args()
    units, items = load_corpus(args.train), load_benchmark(args.test).items
    cfg = DedupConfig(abstract_identifiers=args.abstract_identifiers)
    if args.full_evidence:
        cfg = dataclasses.replace(cfg, full_evidence=True)
    t0 = time.perf_counter()
    findings, counts = run_audit(units, items, cfg)
    t1 = time.perf_counter()
    report = build_json(findings, units, items, cfg, counts)
    t2 = time.perf_counter()
    text = dump_json(report)
    markdown = build_markdown(report)
    t3 = time.perf_counter()
    print(
        f"{len(units)} train units vs {len(items)} test items: {counts['leak_pairs']} leaking pairs; "
        f"match {t1 - t0:.2f} s, report build {t2 - t1:.2f} s, serialise {t3 - t2:.2f} s; "
        f"leakage.json {len(text.encode()) / 1e6:.2f} MB, leakage.md {len(markdown.encode()) / 1e3:.0f} kB"
    )


if __name__ == "__main__":
    main()
