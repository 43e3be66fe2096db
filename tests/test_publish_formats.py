"""The published formats (raw, alpaca, messages, preference) and the dataset card: each format
holds what its trainers expect, and the card's YAML is what huggingface_hub parses back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from huggingface_hub import DatasetCard

from curate.publish import BuildConfig
from curate.publish import licenses as lic
from curate.publish.formats import RAW_SCHEMA, SYSTEM_PROMPT, completion, config_tables
from curate.publish.repo import assemble
from curate.stages.build import build_dataset
from schemas import DatasetRow
from tests.test_publish_workspace import DEFAULT_SPECS, Spec, make_workspace


def parse_completion(text: str) -> tuple[str, str]:
    """The inverse of `completion` (what a consumer of the dataset does): (reasoning, answer code)."""
    found = re.fullmatch(r"<think>\n(.*)\n</think>\n<answer>\n```cpp\n(.*)\n```\n</answer>", text, re.DOTALL)
    if found is None:
        raise ValueError("not a completion in the <think>/<answer> format")
    return found.group(1), found.group(2)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    ws = make_workspace(tmp_path_factory.mktemp("formats") / "ws")
    return ws, build_dataset(ws, BuildConfig(include_rejected=True))


def _all(tables: dict) -> list[dict]:  # type: ignore[type-arg]
    return [row for split in ("train", "validation") if split in tables for row in tables[split].to_pylist()]


def test_raw_has_exactly_the_dataset_columns_and_no_workspace_split_column(built) -> None:  # type: ignore[no-untyped-def]
    _, result = built
    raw = config_tables(result.rows, result.pairs, ["raw"])["raw"]
    expected = [f for f in DatasetRow.__dataclass_fields__ if f not in ("split", "diagnostics")]
    assert all(t.schema.names == expected for t in raw.values()) and RAW_SCHEMA.names == expected
    by_id = {r.id: r for r in result.rows}
    for row in _all(raw):
        assert row["reasoning"] == by_id[row["id"]].reasoning and row["apis"] == by_id[row["id"]].apis


def test_rejected_rows_carry_the_verifier_diagnostics_of_each_row(built) -> None:  # type: ignore[no-untyped-def]
    _, result = built
    rejected = _all(config_tables(result.rows, result.pairs, ["raw"])["rejected"])
    by_id = {r.id: r for r in result.rows}
    assert rejected and all(by_id[row["id"]].verdict == "rejected" for row in rejected)
    for row in rejected:
        expected = [
            {"check": d.check, "severity": d.severity, "message": d.message}
            for d in by_id[row["id"]].diagnostics
        ]
        assert (
            expected
            and [{k: d[k] for k in ("check", "severity", "message")} for d in row["diagnostics"]] == expected
        )
        assert any(d["severity"] == "error" for d in row["diagnostics"])


def test_alpaca_output_holds_reasoning_then_code_in_tagged_sections(built) -> None:  # type: ignore[no-untyped-def]
    _, result = built
    alpaca = _all(config_tables(result.rows, result.pairs, ["alpaca"])["alpaca"])
    by_id = {r.id: r for r in result.rows}
    assert len(alpaca) == sum(r.verdict == "accepted" for r in result.rows)
    for row in alpaca:
        source = by_id[row["id"]]
        assert set(row) == {"id", "instruction", "input", "output"} and row["input"] == ""
        assert row["instruction"] == source.instruction
        assert row["output"].startswith("<think>\n") and row["output"].endswith("```\n</answer>")
        assert parse_completion(row["output"]) == (source.reasoning.strip(), source.answer.strip())


def test_messages_are_system_user_assistant(built) -> None:  # type: ignore[no-untyped-def]
    _, result = built
    by_id = {r.id: r for r in result.rows}
    for row in _all(config_tables(result.rows, result.pairs, ["messages"])["messages"]):
        source = by_id[row["id"]]
        assert [m["role"] for m in row["messages"]] == ["system", "user", "assistant"]
        assert row["messages"][0]["content"] == SYSTEM_PROMPT
        assert row["messages"][1]["content"] == source.instruction
        assert row["messages"][2]["content"] == completion(source.reasoning, source.answer)


def test_preference_prompt_chosen_rejected_come_from_the_verification_rounds(built) -> None:  # type: ignore[no-untyped-def]
    _, result = built
    rows = _all(config_tables(result.rows, result.pairs, ["preference"])["preference"])
    assert len(rows) == 3
    by_id = {r.id: r for r in result.rows}
    for row in rows:
        source = by_id[row["unit_id"]]
        assert row["prompt"] == source.instruction
        chosen, chosen_code = parse_completion(row["chosen"])
        rejected, rejected_code = parse_completion(row["rejected"])
        assert chosen == source.reasoning.strip() and chosen_code == rejected_code == source.answer.strip()
        assert "AscendC::" in rejected and rejected != chosen and "round" in rejected


def test_a_format_without_rows_is_not_a_config(built) -> None:  # type: ignore[no-untyped-def]
    _, result = built
    configs = config_tables(result.rows, [], ["raw", "preference"])
    assert "preference" not in configs and "raw" in configs


def test_card_yaml_parses_back_with_huggingface_hub_and_states_the_licences(built, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    ws, result = built
    content = assemble(
        result.rows,
        result.pairs,
        result.summary,
        ws.meta(),
        ws.reports,
        formats=["raw", "alpaca", "messages", "preference"],
        pretty_name="Ascend-CoT",
        repo_id="org/ascend-cot",
        shard_rows=4,
    )
    (tmp_path / "README.md").write_bytes(content.files["README.md"])
    card = DatasetCard.load(tmp_path / "README.md")
    data = card.data.to_dict()
    assert data["license"] == ["apache-2.0", "other"]
    assert data["license_name"] == "cann-open-software-license-2.0" and data["license_link"] == "LICENSES.md"
    assert data["task_categories"] == ["text-generation"] and data["size_categories"] == ["n<1K"]
    assert data["pretty_name"] == "Ascend-CoT" and "ascendc" in data["tags"] and data["language"] == ["en"]
    configs = {c["config_name"]: c for c in data["configs"]}
    assert set(configs) == {"raw", "alpaca", "messages", "preference", "rejected"}
    assert configs["raw"]["default"] is True
    assert {"split": "train", "path": "data/alpaca/train-*.parquet"} in configs["alpaca"]["data_files"]
    for name, config in configs.items():  # every data_files glob matches files that exist
        for entry in config["data_files"]:
            prefix = entry["path"].removesuffix("*.parquet")
            assert any(p.startswith(prefix) for p in content.files), (name, entry)
    body = card.text
    cann_rows = sum(r.license == "CANN-2.0" for r in result.rows)
    assert f"| CANN Open Software License Agreement Version 2.0 | `CANN-2.0` | {cann_rows} |" in body
    assert "not an OSI-approved open-source licence" in body
    assert (
        "npukernelbench" in body and "reports/leakage.json" in body and "qwen2.5-coder-32b-instruct" in body
    )
    assert "## Known limitations" in body and "## Categories and levels" in body
    assert "4f5c2a91d0b7e3c86a1f9e2d4b6c8a0e1f3d5b7c" in body  # the source commit
    licenses_md = content.files["LICENSES.md"].decode()
    assert f"(`CANN-2.0`): {cann_rows} rows" in licenses_md and "gitcode.com/ascend-community" in licenses_md
    assert {"reports/leakage.json", "reports/run_config.json", "reports/build.json"} <= set(content.files)


def test_card_of_spdx_only_rows_has_no_license_name(tmp_path: Path) -> None:
    specs = [Spec("Gelu", "gelu", "ops/gelu.cpp", license="Apache-2.0", category="activation")]
    ws = make_workspace(tmp_path / "ws", specs)
    result = build_dataset(ws, BuildConfig())
    content = assemble(
        result.rows,
        result.pairs,
        result.summary,
        ws.meta(),
        ws.reports,
        formats=["raw"],
        pretty_name="Tiny",
        repo_id="",
        shard_rows=100,
    )
    (tmp_path / "README.md").write_bytes(content.files["README.md"])
    data = DatasetCard.load(tmp_path / "README.md").data.to_dict()
    assert data["license"] == "apache-2.0" and "license_name" not in data


@pytest.mark.parametrize(
    ("typed", "recorded"),
    [
        ("CANN Open Software License Agreement Version 2.0", "CANN-2.0"),
        ("cann open software license v1.0", "CANN-1.0"),
        ("cann-2.0", "CANN-2.0"),
        ("apache-2.0", "Apache-2.0"),
        ("Apache License 2.0", "Apache-2.0"),
        ("UNKNOWN", "unknown"),
    ],
)
def test_licence_names_people_type_are_recognised(typed: str, recorded: str) -> None:
    assert lic.canonical(typed) == recorded
    assert lic.is_allowed(recorded, [typed])


def test_cann_family_name_allows_every_version_but_a_version_only_itself() -> None:
    assert lic.is_allowed("CANN-1.0", ["CANN"]) and lic.is_allowed("CANN-2.0", ["CANN"])
    assert not lic.is_allowed("CANN-2.0", ["CANN-1.0"])
    assert not lic.is_allowed("unknown", ["Apache-2.0", "CANN"])
    assert lic.card_metadata(["CANN-1.0", "CANN-2.0"])["license_name"] == "cann-open-software-license"


def test_default_specs_cover_both_licence_cases() -> None:
    assert {s.license for s in DEFAULT_SPECS} == {"CANN-2.0", "Apache-2.0"}
