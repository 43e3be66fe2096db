"""The licence gate and the secret / personal-data gate: they stop the push before anything is
written or uploaded, list what they found, and never echo a secret in full."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from curate.publish import BuildConfig, PushConfig
from curate.publish.secret_scan import scan
from curate.stages.build import run_build
from curate.stages.push import GateBlocked, run_push
from tests.test_publish_workspace import Spec, make_workspace

AWS_KEY = "AKIAZ7QW3ERTY5UIOP4A"
PRIVATE_KEY = "-----BEGIN RSA PRIVATE KEY-----"
PERSONAL_EMAIL = "li.wei.kernels@huawei-partner.cn"
GH_TOKEN = "ghp_9fK2mQ7xLp3RtV8bN1cZ5wY4hJ6sD0aE2gU7"
HF_LIKE = "hf_QpLmNoKiJuHyGtFrDeSwAqZxCvBnMlKjHgFdSa"

BOTH = ["CANN-2.0", "Apache-2.0"]


def _ws(tmp_path: Path, specs: list[Spec] | None = None):  # type: ignore[no-untyped-def]
    ws = make_workspace(tmp_path / "ws", specs)
    run_build(ws, BuildConfig())
    return ws


def _push(ws, tmp_path: Path, **overrides) -> object:  # type: ignore[no-untyped-def]
    config = PushConfig(to_dir=str(tmp_path / "out"), allow_license=BOTH, shard_rows=50)
    for key, value in overrides.items():
        setattr(config, key, value)
    return run_push(ws, config, rerun="curate push ...")


def test_licence_gate_lists_what_would_be_published_under_which_licence(tmp_path: Path) -> None:
    ws = _ws(tmp_path)
    with pytest.raises(GateBlocked) as blocked:
        _push(ws, tmp_path, allow_license=[])
    details = blocked.value.details
    assert "8 rows  CANN-2.0" in details and "2 rows  Apache-2.0" in details
    assert "--allow-license Apache-2.0 --allow-license CANN-2.0" in details
    assert not (tmp_path / "out").exists(), "a blocked push must not write anything"

    with pytest.raises(GateBlocked) as partly:
        _push(ws, tmp_path, allow_license=["Apache-2.0"])
    assert "CANN-2.0" in partly.value.details and "[NOT allowed]" in partly.value.details
    assert "allowed]" in partly.value.details.split("Apache-2.0", 1)[1].splitlines()[0]


def test_licences_allowed_by_name_let_the_push_through(tmp_path: Path) -> None:
    ws = _ws(tmp_path)
    outcome = _push(
        ws, tmp_path, allow_license=["CANN Open Software License Agreement Version 2.0", "apache-2.0"]
    )
    assert {c.license: c.rows for c in outcome.licenses} == {"CANN-2.0": 8, "Apache-2.0": 2}  # type: ignore[attr-defined]
    assert (tmp_path / "out" / "README.md").is_file()


def test_unknown_licence_must_be_allowed_explicitly(tmp_path: Path) -> None:
    ws = _ws(tmp_path, [Spec("Abs", "abs", "ops/abs.cpp", license="unknown")])
    with pytest.raises(GateBlocked, match="licence gate"):
        _push(ws, tmp_path, allow_license=BOTH)
    _push(ws, tmp_path, allow_license=["unknown"])


def _planted(tmp_path: Path) -> object:
    specs = [
        Spec(
            "AddCustom",
            "add_custom",
            "ops/add/add.cpp",
            extra={"reasoning": f'\nThe sample config sets aws_key = "{AWS_KEY}".'},
        ),
        Spec(
            "SubCustom",
            "sub_custom",
            "ops/sub/sub.cpp",
            api="Sub",
            extra={"code": f"// Maintainer: {PERSONAL_EMAIL}\n"},
        ),
        Spec(
            "MulCustom",
            "mul_custom",
            "ops/mul/mul.cpp",
            api="Mul",
            extra={"code": f"// {PRIVATE_KEY}\n// MIIEowIBAAKCAQEA\n"},
        ),
        Spec(
            "DivCustom",
            "div_custom",
            "ops/div/div.cpp",
            api="Div",
            extra={"reasoning": f"\nCI pushes with {GH_TOKEN} and {HF_LIKE}."},
        ),
        Spec(
            "Gelu",
            "gelu",
            "ops/gelu/gelu.cpp",
            api="Gelu",
            extra={"code": "// Questions: kernels@example.com\n"},
        ),
    ]
    return _ws(tmp_path, specs)


def test_secret_gate_blocks_and_lists_findings_without_echoing_them(tmp_path: Path) -> None:
    ws = _planted(tmp_path)
    with pytest.raises(GateBlocked) as blocked:
        _push(ws, tmp_path)
    details = blocked.value.details
    for secret in (AWS_KEY, PERSONAL_EMAIL, GH_TOKEN, HF_LIKE):
        assert secret not in details and secret not in str(blocked.value)
    assert "AWS Access Key" in details and "E-mail address" in details and "Private Key" in details
    assert "GitHub Token ghp… (40 chars)" in details and "Hugging Face token" in details
    assert "data/raw/train-00000-of-00001.parquet row" in details or "data/raw/validation" in details
    assert "column reasoning line" in details and "column answer line" in details
    assert "column messages[2].content" in details and "column output" in details  # every format is scanned
    assert "example.com" not in details  # reserved example domains are not personal data
    assert not (tmp_path / "out").exists()


def test_ignoring_every_finding_by_id_lets_a_false_positive_through(tmp_path: Path) -> None:
    specs = [
        Spec(
            "AddCustom",
            "add_custom",
            "ops/add/add.cpp",
            extra={"reasoning": '\nThe test vector is key = "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWo="'},
        )
    ]
    ws = _ws(tmp_path, specs)
    with pytest.raises(GateBlocked) as blocked:
        _push(ws, tmp_path)
    ids = sorted(
        {
            line.rsplit("[id ", 1)[1].rstrip("]")
            for line in blocked.value.details.splitlines()
            if "[id " in line
        }
    )
    assert ids
    _push(ws, tmp_path, ignore_finding=ids)
    assert (tmp_path / "out" / "README.md").is_file()


def test_the_push_token_is_a_finding_wherever_it_appears() -> None:
    import pyarrow as pa

    token = "tok-not-in-any-detector-list-1234"
    table = pa.table({"id": ["a"], "reasoning": [f"line one\nuses {token} here"]})
    findings = scan({"data/raw/train.parquet": table}, {"README.md": "clean"}, forbidden=[token])
    assert [(f.row, f.column, f.line, f.kind) for f in findings] == [
        (0, "reasoning", 2, "The token used for this push")
    ]
    assert token not in findings[0].describe()


def test_commit_hashes_and_ids_published_as_provenance_are_not_findings(tmp_path: Path) -> None:
    outcome = _push(_ws(tmp_path), tmp_path)
    assert b"4f5c2a91d0b7e3c86a1f9e2d4b6c8a0e1f3d5b7c" in outcome.content.files["reports/build.json"]  # type: ignore[attr-defined]


def test_cli_prints_the_findings_then_one_error_line(tmp_path: Path) -> None:
    ws = _planted(tmp_path)
    cmd = [
        sys.executable,
        "-m",
        "curate.cli",
        "push",
        "--workspace",
        str(ws.root),
        "--to-dir",
        str(tmp_path / "out"),
    ]
    cmd += ["--allow-license", "CANN-2.0,Apache-2.0"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env={**os.environ, "HF_TOKEN": ""})
    assert done.returncode == 2 and "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("error: the secret gate stopped the push")
    assert "AWS Access Key" in done.stderr and AWS_KEY not in done.stderr + done.stdout


SAMPLE_LINES = [
    "    AscendC::Add(zLocal, xLocal, yLocal, this->tileLength);",
    'aws_key = "AKIAZ7QW3ERTY5UIOP4A"',
    'const char* k = "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWo=";',
    'db = "postgres://admin:s3cr3tP4ss@db.internal:5432/x"',
    "-----BEGIN RSA PRIVATE KEY-----",
    "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    "tileNum = 8",
]
UNQUOTED_LINES = [
    "xGm.SetGlobalBuffer((__gm__ half *)x);",
    "password = hunter2hunter2",
    "api_key: Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWo",
    "token: 0123456789abcdef0123456789abcdef",
]


def test_the_prefilter_finds_what_a_full_detect_secrets_scan_finds(tmp_path: Path) -> None:
    from detect_secrets.core.scan import scan_file
    from detect_secrets.settings import default_settings

    from curate.publish.secret_scan import _scan_chunk

    path = tmp_path / "published.txt"
    path.write_text("\n".join(SAMPLE_LINES) + "\n")
    with default_settings():
        full = sorted((s.type, SAMPLE_LINES[s.line_number - 1]) for s in scan_file(str(path)))
    assert len(full) >= 5
    assert (
        sorted((kind, line) for line, hits in _scan_chunk(SAMPLE_LINES).items() for kind, _ in hits) == full
    )


def test_unquoted_config_style_secrets_are_found_in_any_company() -> None:
    from curate.publish.secret_scan import _scan_chunk

    flagged = _scan_chunk(UNQUOTED_LINES)
    assert set(flagged) == set(UNQUOTED_LINES[1:])
    assert ("Secret Keyword", "hunter2hunter2") in flagged["password = hunter2hunter2"]
    assert any(kind == "Hex High Entropy String" for kind, _ in flagged[UNQUOTED_LINES[3]])


def test_scanning_over_several_processes_finds_the_same(tmp_path: Path) -> None:
    import pyarrow as pa

    table = pa.table({"id": [str(i) for i in range(len(SAMPLE_LINES))], "text": SAMPLE_LINES})
    one = scan({"t.parquet": table}, {}, lines_per_worker=10**6)
    several = scan({"t.parquet": table}, {}, lines_per_worker=2)
    assert several == one and len(one) >= 5


def test_the_name_of_a_key_variable_is_not_a_key() -> None:
    import pyarrow as pa

    table = pa.table({"id": ["a"], "text": ['"api_key_env": "OPENAI_API_KEY",\npassword = "Zq8#mK2!vL9pR4"']})
    findings = scan({"t.parquet": table}, {})
    assert [(f.line, f.kind) for f in findings] == [(2, "Secret Keyword")]
