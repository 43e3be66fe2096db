"""The push stage: the built rows -> formats, card, licence and secret gates, then a folder and/or
one Hub commit, and the run recorded."""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curate.errors import UserError
from curate.publish import secret_scan
from curate.publish.hub import HubTarget, hub_token, upload
from curate.publish.licenses import LicenseCount, LicenseGateError, check_licenses, gate_report
from curate.publish.publish_config import PushConfig
from curate.publish.repo import RepoContent, assemble, write_to_dir
from curate.stage import Stage
from curate.workspace import Workspace
from schemas import DatasetRow, KernelUnit, KnowledgeItem, PreferencePair, read_records
from schemas.runs import PushRun


class GateBlocked(UserError):
    """A gate stopped the push; `details` lists what it found (printed before the error line)."""

    def __init__(self, message: str, details: str) -> None:
        super().__init__(message)
        self.details = details


@dataclass(slots=True)
class PushOutcome:
    content: RepoContent
    licenses: list[LicenseCount]
    to_dir: Path | None = None
    commit_url: str = ""
    dry_run: bool = False
    findings_ignored: list[str] = field(default_factory=list)


def _load_build(ws: Workspace) -> tuple[list[DatasetRow], list[PreferencePair], dict[str, Any]]:
    dataset = ws.require("dataset")
    built = dataset.stat().st_mtime
    for table in (ws.units, ws.decisions, ws.annotations, ws.attempts):
        if table.exists() and table.stat().st_mtime > built:
            raise UserError(
                f"{table.name} changed after the last `curate build`: re-run `curate build --workspace {ws.root}`"
            )
    rows = read_records(dataset, DatasetRow)
    pairs = read_records(ws.preference, PreferencePair) if ws.preference.exists() else []
    report = ws.build_report
    summary = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
    return rows, pairs, summary


def _unit_ids(ws: Workspace) -> set[str]:
    """The workspace's unit ids: the run records uploaded beside the data name failed units by id,
    which look like random hex to the secret gate but are published on purpose."""
    if not ws.units.exists():
        return set()
    from schemas.tables import read_table

    return {
        str(v) for v in read_table(ws.units, KernelUnit, columns=["unit_id"]).column("unit_id").to_pylist()
    }


def _check(config: PushConfig, rerun: str, dry_run: bool = False) -> None:
    if not (config.repo_id or config.to_dir or dry_run):
        raise UserError("say where to publish: --repo-id ORG/NAME, --to-dir DIR, or both (or --dry-run)")


def _push(ws: Workspace, config: PushConfig, rerun: str, dry_run: bool = False) -> PushOutcome:
    rows, pairs, summary = _load_build(ws)
    knowledge = read_records(ws.knowledge, KnowledgeItem) if ws.knowledge.exists() else []
    published = [i.license for i in knowledge if i.verdict == "accepted"]
    try:
        counts = check_licenses([*(r.license for r in rows), *published], config.allow_license)
    except LicenseGateError as exc:
        raise GateBlocked(
            "the licence gate stopped the push: not every licence of the rows is allowed (listed above)",
            gate_report(exc.counts),
        ) from None
    content = assemble(
        rows,
        pairs,
        summary,
        ws.meta(),
        ws.reports,
        formats=config.formats,
        pretty_name=config.pretty_name,
        repo_id=config.repo_id,
        shard_rows=config.shard_rows,
        knowledge=knowledge,
    )
    token = hub_token() if config.repo_id else os.environ.get("HF_TOKEN")
    provenance = {r.commit for r in rows} | {r.id for r in rows} | {p.id for p in pairs}
    provenance |= {i.item_id for i in knowledge} | {i.commit for i in knowledge}
    provenance |= {str(s.get("commit", "")) for s in summary.get("sources", {}).values()}
    provenance |= _unit_ids(ws)
    findings = secret_scan.scan(
        content.tables, content.texts, [token or ""], config.ignore_finding, provenance
    )
    if findings:
        raise GateBlocked(
            f"the secret gate stopped the push: {len(findings)} possible secret(s) or personal data (listed "
            "above); remove them from the sources and re-run `curate build`, or pass --ignore-finding ID "
            "for a false positive",
            secret_scan.report(findings),
        )
    outcome = PushOutcome(content, counts, dry_run=dry_run, findings_ignored=list(config.ignore_finding))
    if dry_run:
        return outcome
    if config.to_dir:
        outcome.to_dir = Path(config.to_dir)
        write_to_dir(content, outcome.to_dir)
    if config.repo_id:
        target = HubTarget(config.repo_id, config.private, config.revision, config.commit_message)
        outcome.commit_url = upload(content, target, rerun)
    return outcome


def _record(config: PushConfig, outcome: PushOutcome) -> PushRun | None:
    if outcome.dry_run:
        return None
    counts = outcome.licenses
    return PushRun(
        config=dataclasses.asdict(config),
        repo_id=config.repo_id,
        revision=config.revision if config.repo_id else "",
        private=config.private,
        to_dir=str(config.to_dir),
        commit_url=outcome.commit_url,
        configs=outcome.content.configs,
        licenses={c.license: c.rows for c in counts},
        files=len(outcome.content.files),
    )


PUSH: Stage[PushOutcome] = Stage(
    "push",
    _push,
    config=PushConfig,
    reads=("dataset",),
    record=_record,
    check=_check,
    existing_workspace=True,
)


def run_push(ws: Workspace, config: PushConfig, rerun: str, dry_run: bool = False) -> PushOutcome:
    return PUSH.execute(ws, config, rerun, dry_run)
