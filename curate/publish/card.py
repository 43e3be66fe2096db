"""The dataset card (README.md) and LICENSES.md: YAML metadata the Hub and `datasets` read
(licence, task, tags, size, configs with their data files) and a body that says how the data was
made, under which licences, and what it cannot promise."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from huggingface_hub import DatasetCard, DatasetCardData

from curate import __version__
from curate.leakcheck import LeakCheck, last_leak_check
from curate.publish import licenses
from curate.publish.formats import ANSWER, SYSTEM_PROMPT, THINK
from curate.publish.split import SPLITS
from curate.wording import plural
from schemas import DatasetRow
from schemas.runs import AnnotateRun, IngestRun, StageRun, run_from_json

# Where `curate ingest examples/corpus` puts the project's own example kernels (paths are relative to
# the repository root, which for the examples is the curate repository itself).
EXAMPLES_PREFIX = "examples/corpus/"
TAGS = ["code", "ascendc", "huawei-ascend", "npu", "kernel-generation", "chain-of-thought", "reasoning"]
DESCRIPTIONS = {
    "raw": "every column: instruction, reasoning, answer, provenance, generation and verification",
    "alpaca": "instruction / input / output (reasoning and kernel in tagged sections)",
    "messages": "system / user / assistant conversation",
    "preference": "prompt / chosen / rejected from the verification rounds (DPO)",
    "rejected": "raw rows whose reasoning the verifier rejected, with its `diagnostics` (not for supervised training)",
    "knowledge": "questions on the AscendC documentation: instruction / input / output and messages",
}
COLUMNS = {
    "id": "stable unit id (hash of source, path and kernel name)",
    "instruction": "the task a kernel developer would be given (never the code)",
    "reasoning": "the teacher's chain of thought from the task to the kernel",
    "answer": "the real kernel: entry file plus the repository-local headers it includes",
    "op_name, kernel_name": "operator and entry function names",
    "category, level, core_type": "operator family, NPUKernelBench level 1-3, vector/cube/mixed",
    "apis": "AscendC APIs the kernel calls",
    "source, origin_url, commit, path, license": "provenance of the kernel file",
    "teacher_model, prompt_version": "who wrote the reasoning, with which prompt",
    "verifier, verdict, rounds": "checks that ran, their verdict, teacher rounds needed",
    "prompt_tokens, completion_tokens": "token usage of the teacher",
}


@dataclass(slots=True)
class CardInputs:
    pretty_name: str
    repo_id: str  # "" for a local export
    configs: Mapping[str, Mapping[str, int]]  # config -> split -> rows
    data_paths: Mapping[str, Mapping[str, str]]  # config -> split -> glob in the repository
    rows: Sequence[DatasetRow]  # every published dataset row (accepted, and rejected if included)
    summary: Mapping[str, Any]  # the build summary
    meta: Mapping[str, Any]  # the workspace meta.json
    report_files: Sequence[str]
    knowledge: Sequence[Any] = ()  # KnowledgeItem rows of the knowledge component (all verdicts)


def size_category(n: int) -> str:
    for bound, label in (
        (1_000, "n<1K"),
        (10_000, "1K<n<10K"),
        (100_000, "10K<n<100K"),
        (1_000_000, "100K<n<1M"),
    ):
        if n < bound:
            return label
    return "1M<n<10M"


def card_data(inputs: CardInputs) -> DatasetCardData:
    configs = []
    default = "raw" if "raw" in inputs.configs else next(iter(inputs.configs))
    for name, splits in inputs.configs.items():
        entry: dict[str, Any] = {
            "config_name": name,
            "data_files": [{"split": s, "path": inputs.data_paths[name][s]} for s in SPLITS if s in splits],
        }
        if name == default:  # what `load_dataset(repo)` reads when no config is named
            entry["default"] = True
        configs.append(entry)
    published = sum(inputs.configs.get("raw", {}).values())
    return DatasetCardData(
        pretty_name=inputs.pretty_name,
        language=["en"],
        task_categories=["text-generation"],
        tags=TAGS,
        size_categories=[size_category(published)],
        configs=configs,
        **licenses.card_metadata(r.license for r in inputs.rows),
    )


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += [
        "| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ") for c in row) + " |" for row in rows
    ]
    return out


def _runs(meta: Mapping[str, Any]) -> list[StageRun]:
    """The workspace's run records, typed (older meta.json shapes included)."""
    return [run for entry in meta.get("runs", []) if (run := run_from_json(entry)) is not None]


def _last_run(meta: Mapping[str, Any], stage: str) -> dict[str, Any]:
    """The configuration the last run of `stage` ran with."""
    runs = [r for r in _runs(meta) if r.stage == stage]
    return dict(runs[-1].config) if runs else {}


def _ingest_runs(meta: Mapping[str, Any]) -> str:
    """The last ingest run of each corpus source (benchmarks are reported with dedup)."""
    latest: dict[str, IngestRun] = {}
    for run in _runs(meta):
        if isinstance(run, IngestRun) and not run.benchmark:
            latest[run.source or "?"] = run
    return "; ".join(f"{src}: {_params(run.config)}" for src, run in sorted(latest.items())) or "not recorded"


def _params(details: Mapping[str, Any]) -> str:
    if not details:
        return "not recorded"
    return ", ".join(f"`{k}={json.dumps(v, sort_keys=True)}`" for k, v in sorted(details.items()))


def from_examples(rows: Sequence[DatasetRow]) -> bool:
    """Every row comes from curate's own example corpus (a local ingest of examples/corpus)."""
    return bool(rows) and all(r.path.startswith(EXAMPLES_PREFIX) and not r.origin_url for r in rows)


def _intro(inputs: CardInputs) -> list[str]:
    raw = inputs.configs.get("raw", {})
    origin = (
        "The kernels are curate's own example corpus (`examples/corpus` in the curate repository: small "
        "AscendC samples kept to exercise the pipeline), not kernels collected from public operator "
        "repositories: this dataset shows what the pipeline produces and is not meant as training data"
        if from_examples(inputs.rows)
        else "The kernels come from the operator repositories listed under Sources"
    )
    return [
        f"# {inputs.pretty_name}",
        "",
        f"{inputs.pretty_name} pairs AscendC kernels for Huawei Ascend NPUs with a chain of thought that "
        f"leads from a task description to the kernel. {origin}. They were parsed with libclang; "
        f"{_removed_clause(last_leak_check(_runs(inputs.meta)))}; a teacher model wrote the reasoning and "
        "the toolchain checked it.",
        "",
        (
            f"{plural(sum(raw.values()), 'verified example')} ({', '.join(f'{s}: {n}' for s, n in raw.items())})"
            if raw
            else "No verified example yet: this version holds only the configs listed below"
        )
        + f"; built with curate {__version__}.",
        "",
    ]


def _removed_clause(check: LeakCheck | None) -> str:
    """What dedup removed, as the intro says it: only the checks that ran."""
    if check is None:
        return "no deduplication ran"
    if not check.ran:
        return "near-duplicates were removed; no benchmark was checked for leaks (no decontamination)"
    solved = " and units that solve one of its tasks with other code" if check.task_policy == "drop" else ""
    return (
        f"near-duplicates, and units copying a test answer of {', '.join(check.benchmarks) or 'the benchmark'}"
        f"{solved}, were removed"
    )


def _configs_section(inputs: CardInputs) -> list[str]:
    rows = [
        [f"`{n}`", DESCRIPTIONS.get(n, ""), *(s.get(split, 0) for split in SPLITS)]
        for n, s in inputs.configs.items()
    ]
    where = inputs.repo_id or "path/to/this/folder"
    example = "alpaca" if "alpaca" in inputs.configs else next(iter(inputs.configs))
    out = ["## Configs", "", *_table(["config", "format", *SPLITS], rows), ""]
    out += [
        "```python",
        "from datasets import load_dataset",
        "",
        f'ds = load_dataset("{where}", name="{example}")',
        "```",
        "",
    ]
    out += [
        "Every config is split by a hash of the operator: all kernels of one operator are on the same side.",
        "",
    ]
    row_configs = [f"`{n}`" for n in ("raw", "rejected") if n in inputs.configs]
    if row_configs:
        columns = [[f"`{k}`", v] for k, v in COLUMNS.items()]
        if "rejected" in inputs.configs:
            columns.append(
                ["`diagnostics` (`rejected` only)", "the verifier's findings: check, severity, message"]
            )
        out += [
            f"### Columns of {' and '.join(row_configs)}",
            "",
            *_table(["column", "meaning"], columns),
            "",
        ]
    targets = {
        "alpaca": "`alpaca` outputs",
        "messages": "`messages` assistant turns",
        "preference": "`preference` answers",
    }
    present = [text for name, text in targets.items() if name in inputs.configs]
    if present:
        out += [
            "### Target format",
            "",
            f"{', '.join(present)} are `{THINK[0]}` reasoning `{THINK[1]}` followed by `{ANSWER[0]}` a fenced "
            f"C++ block with the kernel `{ANSWER[1]}`."
            + (
                f" The system message of `messages` is: *{SYSTEM_PROMPT}*"
                if "messages" in inputs.configs
                else ""
            ),
            "",
        ]
    return out


def _provenance_section(inputs: CardInputs) -> list[str]:
    summary, meta = inputs.summary, inputs.meta
    published = Counter(r.source for r in inputs.rows)
    sources = [
        [
            name,
            info.get("origin_url") or "local",
            f"`{info.get('commit') or '-'}`",
            info.get("units", 0),
            published[name],
        ]
        for name, info in summary.get("sources", {}).items()
    ]
    decisions = summary.get("decisions", {})
    leaks = summary.get("leaks_by_benchmark", {})
    out = ["## How the data was made", "", "### Sources", ""]
    out += _table(["source", "origin", "commit", "units ingested", "rows published"], sources)
    if summary.get("selection"):
        out += ["", f"Built from part of the workspace only: the units selected by `{summary['selection']}`."]
    out += [
        "",
        "### Parsing",
        "",
        f"curate {meta.get('tool_version', __version__)} (schema {meta.get('schema_version', '?')}); ",
    ]
    out[-1] += f"ingest parameters: {_ingest_runs(meta)}."
    check = last_leak_check(_runs(meta))
    out += ["", "### Deduplication and decontamination" if check and check.ran else "### Deduplication", ""]
    out += [f"Parameters: {_params(_last_run(meta, 'dedup'))}.", ""]
    removed = [f"{decisions.get('duplicate', 0)} removed as near-duplicates"]
    if check and check.ran:
        removed.append(f"{decisions.get('leak', 0)} removed as benchmark leaks")
    if decisions.get("undecided"):
        removed.append(f"{decisions['undecided']} left out for want of a dedup decision")
    out += [f"Of {summary.get('units', 0)} units: {decisions.get('keep', 0)} kept, {', '.join(removed)}.", ""]
    out += _decontamination_lines(check, leaks)
    return out


def _decontamination_lines(check: LeakCheck | None, leaks: Mapping[str, int]) -> list[str]:
    """Which benchmarks the units were compared with and what that removed; when none was, say
    that no decontamination ran (and promise nothing)."""
    if check is None or not check.ran:
        return [
            "No benchmark was ingested when dedup ran: no leakage check ran, and this dataset makes no claim "
            "that it is free of any benchmark's test answers.",
            "",
        ]
    out = [
        f"Checked against {check.named()}: units whose code copies a test answer (Jaccard or containment over "
        "the thresholds above) were removed.",
        "",
    ]
    if task := check.task_sentence():
        out += [task, ""]
    if leaks:
        out += [*_table(["benchmark", "units removed as leaks"], sorted(leaks.items())), ""]
    out += ["Every leak, with both sides and the overlapping lines, is in `reports/leakage.json`.", ""]
    return out


def _generation_section(inputs: CardInputs) -> list[str]:
    summary = inputs.summary
    verdicts = summary.get("verdicts_of_kept_units", {})
    judged = sum(verdicts.get(v, 0) for v in ("accepted", "rejected", "failed"))
    rate = f"{verdicts.get('accepted', 0) / judged:.1%}" if judged else "n/a"
    checks = sorted({c for r in inputs.rows for c in r.verifier})
    rounds = Counter(r.rounds for r in inputs.rows if r.verdict == "accepted")
    out = ["### Teacher", ""]
    out += [*_table(["teacher model", "units"], sorted(summary.get("teachers", {}).items())), ""]
    out += [
        f"Prompt versions: {', '.join(f'`{k}` ({v})' for k, v in summary.get('prompt_versions', {}).items()) or 'n/a'}."
    ]
    params = summary.get("generation_params", [])
    out += [f"Generation parameters: {', '.join(f'`{p}`' for p in params) or 'not recorded'}."]
    out += _endpoint_lines(inputs.meta)
    out += [f"Annotation run configuration: {_params(_last_run(inputs.meta, 'annotate'))}."]
    tokens = summary.get("tokens", {})
    out += [
        f"Tokens of the published rows: {tokens.get('prompt', 0)} prompt, {tokens.get('completion', 0)} completion.",
        "",
    ]
    semantics = summary.get("semantics_of_rows", {})
    if semantics:
        total = sum(semantics.values())
        out += [
            f"Instructions with real semantics (what the operator computes, from its own documentation, checked "
            f"against its OpDef): {semantics.get('documented', 0)} of {total}; without documentation: "
            f"{semantics.get('undocumented', 0)}; documentation rejected for disagreeing with the OpDef: "
            f"{semantics.get('rejected', 0)}.",
            "",
        ]
    out += ["### Verification", ""]
    out += [f"Checks that ran: {', '.join(f'`{c}`' for c in checks) or 'not recorded'}."]
    out += [
        f"Verdicts of the kept units: {', '.join(f'{k} {v}' for k, v in verdicts.items())}; "
        f"acceptance rate {rate}. Rounds until acceptance: "
        + (", ".join(f"{k}: {v}" for k, v in sorted(rounds.items())) or "n/a")
        + f". Preference pairs: {summary.get('preference_pairs', 0)}.",
        "",
    ]
    return out


def _endpoint_lines(meta: Mapping[str, Any]) -> list[str]:
    """Where the last annotation run sent its requests: endpoint, model, server, answer format."""
    runs = [r for r in _runs(meta) if isinstance(r, AnnotateRun)]
    if not runs:
        return []
    config, summary = runs[-1].config, runs[-1].summary or {}
    where = f"`{config.get('base_url', '?')}`, model `{config.get('model', '?')}`"
    if config.get("teacher") == "local":
        server = config.get("teacher_server") or "llama-cpp-python's server"
        model_file = config.get("model_file") or "?"
        where = f"{server} on loopback (`{config.get('base_url', '?')}` during the run), model `{model_file}`"
        if config.get("model_package"):
            where += f" from the PyPI package `{config['model_package']}`"
    fmt = summary.get("response_format")
    answer = f"; answers as `{fmt}` ({summary.get('response_format_source', '?')})" if fmt else ""
    return [f"Teacher endpoint: {where}{answer}."]


def _licence_section(inputs: CardInputs) -> list[str]:
    counts = Counter(r.license for r in inputs.rows)
    rows = [
        [
            licenses.display_name(lic),
            f"`{lic}`",
            n,
            licenses.hub_id(lic) or "other",
            licenses.obligations(lic),
        ]
        for lic, n in sorted(counts.items())
    ]
    out = [
        "## Licences",
        "",
        "Each row keeps the licence of its kernel file; the dataset has no single licence.",
        "",
    ]
    out += _table(
        ["licence", "id", "rows", "Hub id", "what it asks (our reading; the licence text decides)"], rows
    )
    if any(lic.startswith("CANN") for lic in counts):
        out += [
            "",
            "**The CANN Open Software License Agreement is not an OSI-approved open-source licence** and limits "
            "use to Huawei Ascend AI processors. Read it before training on or redistributing those rows.",
        ]
    out += [
        "",
        f"Per-licence sources and obligations: [{licenses.LICENSES_FILE}]({licenses.LICENSES_FILE}).",
        "",
    ]
    return out


def _category_section(inputs: CardInputs) -> list[str]:
    """Published rows by operator category and level (every row, with how many were accepted)."""
    rows_in = list(inputs.rows)
    levels = sorted({r.level for r in rows_in})
    by = Counter((r.category, r.level) for r in rows_in)
    accepted = Counter(r.category for r in rows_in if r.verdict == "accepted")
    rows = [
        [c, *(by[(c, lv)] for lv in levels), sum(by[(c, lv)] for lv in levels), accepted[c]]
        for c in sorted({r.category for r in rows_in})
    ]
    return [
        "## Categories and levels",
        "",
        *_table(["category", *(f"level {lv}" for lv in levels), "rows", "accepted"], rows),
        "",
    ]


LIMITATIONS = [
    "The reasoning was written by a teacher model that saw the real kernel (reverse chain of thought): it "
    "explains the code, it is not a record of how the code was written.",
    "Verification checks API names, types against curate's own AscendC API surface and the grounding of the "
    "reasoning in the kernel's parsed facts; unless the vendor compiler ran, nothing was compiled, and nothing "
    "was executed on an NPU. An accepted reasoning can still be wrong about performance or numerics.",
    "The split is by operator name; differently named operators can still be close relatives.",
    "Licences are detected from file headers and LICENSE files; rows whose licence was not recognised say "
    "`unknown`.",
    "Secrets and e-mail addresses were scanned for and none was found, but the scan is heuristic.",
]


def _limitations(meta: Mapping[str, Any]) -> list[str]:
    check = last_leak_check(_runs(meta))
    decontamination = (
        "Decontamination covers only the benchmarks named above; operator-name matches whose code differs are "
        "reported, and removed only when that was asked for."
        if check and check.ran
        else "No benchmark was checked: rows may contain a benchmark's test answers. Run `curate audit` against "
        "the benchmarks you evaluate on before training."
    )
    return [*LIMITATIONS[:2], decontamination, *LIMITATIONS[2:]]


def _knowledge_section(inputs: CardInputs) -> list[str]:
    items = inputs.knowledge
    if not items:
        return []
    verdicts = Counter(i.verdict for i in items)
    licences = Counter(i.license for i in items if i.verdict == "accepted")
    sources = sorted({(i.source, i.origin_url or "local", i.commit or "-") for i in items})
    out = ["## Knowledge component", ""]
    published = "knowledge" in inputs.configs
    out += [
        (
            "The `knowledge` config holds"
            if published
            else "No `knowledge` config is published: no question passed. It would hold"
        )
        + " questions a kernel developer could ask, each with the teacher's reasoning "
        "and answer grounded in one section of the AscendC documentation (`curate ingest-docs`, "
        "`curate annotate --task knowledge`). An item is kept only when its question, reasoning and answer "
        "have substance and name one of the section's APIs or title words, every API it names is in its section "
        "or the API catalog, every prototype and parameter it states matches the section, its quoted code passes "
        "the surface check and it does not paste the section. Near-duplicate questions (MinHash, confirmed by "
        "exact Jaccard) and questions matching a benchmark task description were removed.",
        "",
        f"Questions: {', '.join(f'{k} {v}' for k, v in sorted(verdicts.items()))}.",
        "",
        *_table(["documentation source", "origin", "commit"], [[s, o, f"`{c}`"] for s, o, c in sources]),
        "",
    ]
    if licences:
        out += [*_table(["licence", "questions published"], sorted(licences.items())), ""]
    return out


FIGURE_ORDER = ("funnel", "composition", "sizes", "acceptance", "rejections", "rounds")


def _figures_section(inputs: CardInputs) -> list[str]:
    """The figures of `curate report` (reports/figures/*.png), when it was run before the push."""
    pngs = [p for p in inputs.report_files if p.startswith("reports/figures/") and p.endswith(".png")]
    if not pngs:
        return []
    rank = {name: i for i, name in enumerate(FIGURE_ORDER)}
    pngs.sort(key=lambda p: (rank.get(p.rsplit("/", 1)[-1][:-4], len(rank)), p))
    out = ["## Figures", "", "Drawn by `curate report` from the workspace this dataset was built from.", ""]
    return out + [f"![{p.rsplit('/', 1)[-1][:-4]}]({p})" for p in pngs] + [""]


def render_card(inputs: CardInputs) -> str:
    body = (
        _intro(inputs) + _configs_section(inputs) + _provenance_section(inputs) + _generation_section(inputs)
    )
    body += _licence_section(inputs) + _category_section(inputs) + _knowledge_section(inputs)
    body += _figures_section(inputs)
    body += ["## Known limitations", "", *(f"- {item}" for item in _limitations(inputs.meta)), ""]
    body += ["## Files beside the data", "", *(f"- `{path}`" for path in inputs.report_files), ""]
    content = f"---\n{card_data(inputs).to_yaml()}\n---\n\n" + "\n".join(body)
    return str(DatasetCard(content))


def render_licenses(rows: Sequence[DatasetRow]) -> str:
    """LICENSES.md: per licence, the rows, where the full text is, and what it asks."""
    out = ["# Licences of the rows in this dataset", ""]
    out += [
        "The rows keep the licences of the kernel files they were built from. Summaries are our reading;",
        "",
    ]
    out[-2] += " the licence texts decide."
    for lic, n in sorted(Counter(r.license for r in rows).items()):
        origins = sorted({(r.source, r.origin_url, r.commit) for r in rows if r.license == lic})
        out += [f"## {licenses.display_name(lic)} (`{lic}`): {n} rows", ""]
        if licenses.url(lic):
            out += [f"Licence: {licenses.url(lic)}", ""]
        out += [
            licenses.obligations(lic),
            "",
            "Sources of these rows (a licence text, where there is one, ships with them):",
            "",
        ]
        out += [
            f"- {src}: {url or 'local source'}" + (f" at `{commit}`" if commit else "")
            for src, url, commit in origins
        ]
        out += [""]
    return "\n".join(out)
