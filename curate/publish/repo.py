"""The dataset repository as bytes: parquet shards per config and split, the card, LICENSES.md
and the reports. The same content goes to the Hub (`push --repo-id`) or to a folder
(`push --to-dir`), so what a folder export shows is exactly what would be uploaded."""

from __future__ import annotations

import io
import json
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from curate.errors import UserError
from curate.publish import card, licenses
from curate.publish.formats import config_tables, knowledge_tables
from schemas import DatasetRow, KnowledgeItem, PreferencePair

MANAGED_PREFIXES = ("data/", "reports/")  # stale files under these are deleted by the next push
MANAGED_FILES = ("README.md", licenses.LICENSES_FILE)
MARKER = "reports/build.json"  # a folder holding this is a previous export: it may be replaced


@dataclass(slots=True)
class RepoContent:
    files: dict[str, bytes] = field(default_factory=dict)  # path in the repository -> content
    tables: dict[str, pa.Table] = field(default_factory=dict)  # parquet path -> table (for the scan)
    texts: dict[str, str] = field(default_factory=dict)  # text path -> text (for the scan)
    configs: dict[str, dict[str, int]] = field(default_factory=dict)  # config -> split -> rows

    def add_text(self, path: str, text: str) -> None:
        self.texts[path] = text
        self.files[path] = text.encode("utf-8")


def _parquet_bytes(table: pa.Table) -> bytes:
    buffer = io.BytesIO()
    pq.write_table(table, buffer, row_group_size=500)
    return buffer.getvalue()


def shard_paths(config: str, split: str, shards: int) -> list[str]:
    return [f"data/{config}/{split}-{i:05d}-of-{shards:05d}.parquet" for i in range(shards)]


def assemble(
    rows: Sequence[DatasetRow],
    pairs: Sequence[PreferencePair],
    summary: Mapping[str, Any],
    meta: Mapping[str, Any],
    reports_dir: Path,
    *,
    formats: Sequence[str],
    pretty_name: str,
    repo_id: str,
    shard_rows: int,
    knowledge: Sequence[KnowledgeItem] = (),
) -> RepoContent:
    content = RepoContent()
    paths: dict[str, dict[str, str]] = {}
    configs = config_tables(rows, pairs, formats)
    if knowledge_tables(knowledge):
        configs["knowledge"] = knowledge_tables(knowledge)
    for config, splits in configs.items():
        for split, table in splits.items():
            shards = max(1, -(-table.num_rows // max(1, shard_rows)))
            for index, path in enumerate(shard_paths(config, split, shards)):
                part = table.slice(index * shard_rows, shard_rows)
                content.tables[path] = part
                content.files[path] = _parquet_bytes(part)
            content.configs.setdefault(config, {})[split] = table.num_rows
            paths.setdefault(config, {})[split] = f"data/{config}/{split}-*.parquet"
    if not content.configs:
        raise UserError(
            "nothing to publish: no unit kept by dedup has an accepted annotation; annotate or verify more, "
            "or run `curate build --include-rejected` to publish the rejected ones as their own config"
        )

    reports = _reports(summary, meta, reports_dir, formats, pretty_name)
    for path, text in reports.items():
        content.add_text(path, text)
    figures = _figures(reports_dir)
    content.files.update(figures)
    inputs = card.CardInputs(
        pretty_name, repo_id, content.configs, paths, rows, summary, meta, sorted([*reports, *figures]),
        list(knowledge),
    )  # fmt: skip
    content.add_text("README.md", card.render_card(inputs))
    content.add_text(licenses.LICENSES_FILE, card.render_licenses(rows))
    return content


def _reports(
    summary: Mapping[str, Any],
    meta: Mapping[str, Any],
    reports_dir: Path,
    formats: Sequence[str],
    pretty_name: str,
) -> dict[str, str]:
    """The decontamination report and the run configuration, uploaded beside the data."""
    out: dict[str, str] = {}
    for name in ("leakage.json", "leakage.md"):
        source = reports_dir / name
        if source.is_file():
            out[f"reports/{name}"] = source.read_text(encoding="utf-8")
    run_config = {
        "tool_version": meta.get("tool_version"),
        "schema_version": meta.get("schema_version"),
        "runs": [r for r in meta.get("runs", []) if r.get("stage") != "push"],
        "publish": {"formats": list(formats), "pretty_name": pretty_name},
    }
    out["reports/run_config.json"] = json.dumps(run_config, indent=2, sort_keys=True) + "\n"
    out[MARKER] = json.dumps(summary, indent=2, sort_keys=True) + "\n"
    return out


def _figures(reports_dir: Path) -> dict[str, bytes]:
    """The PNG figures `curate report` drew (WS/reports/figures/), which the card shows."""
    folder = reports_dir / "figures"
    return {f"reports/figures/{p.name}": p.read_bytes() for p in sorted(folder.glob("*.png")) if p.is_file()}


def write_to_dir(content: RepoContent, target: Path) -> None:
    """Write the repository into `target`, replacing a previous export whole (never mixing old
    and new shards), and refusing to touch a folder that is not one."""
    if target.exists() and not target.is_dir():
        raise UserError(f"--to-dir {target} is a file; pass a folder")
    if target.is_dir() and any(target.iterdir()) and not (target / MARKER).is_file():
        raise UserError(
            f"--to-dir {target} is not empty and not a previous curate export; pass a new or empty folder"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        staging.chmod(0o755)  # mkdtemp makes it private; an export is meant to be shared
        for path, data in content.files.items():
            out = staging / path
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(data)
        old = None
        if target.exists():
            old = target.parent / f".{target.name}.old-{os.getpid()}"
            os.replace(target, old)
        os.replace(staging, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
