"""The secret gate against what an attacker or a careless commit plants, through `curate push`:
secrets detect-secrets' keyword plugin does not see, private keys that share their BEGIN line,
bare private-key bodies, and waivers that must cover exactly the finding they name."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from curate.publish import BuildConfig
from curate.stages.build import run_build
from schemas import KernelUnit, read_records
from tests.conftest import REPO_ROOT
from tests.test_publish_workspace import Spec, make_workspace

AWS_SECRET = "9aB8cD7eF6gH5iJ4kL3mN2oP1qR0sT9uV8wX7yZ6"
BODY_1 = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun"
BODY_2 = "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi7SwTKOoIDvA/8SQ3mT6b9Z1Ap"
BODY_3 = "VbTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTx"


def _pem(body: str) -> str:
    return f"// -----BEGIN RSA PRIVATE KEY-----\n// {body}\n// -----END RSA PRIVATE KEY-----\n"


def _workspace(tmp_path: Path, plants: dict[str, str]):  # type: ignore[no-untyped-def]
    """One unit per planted text (appended to its code), built and ready to push."""
    specs = [
        Spec(f"Op{i}", f"op{i}", f"ops/op{i}/op{i}.cpp", api="Add", extra={"code": text})
        for i, text in enumerate(plants.values())
    ]
    ws = make_workspace(tmp_path / "ws", specs)
    run_build(ws, BuildConfig())
    return ws


def _push(ws, tmp_path: Path, *ignore: str) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    cmd = [sys.executable, "-m", "curate.cli", "push", "--workspace", str(ws.root)]
    cmd += ["--to-dir", str(tmp_path / "out"), "--allow-license", "CANN-2.0"]
    for finding in ignore:
        cmd += ["--ignore-finding", finding]
    env = {**os.environ, "HF_TOKEN": "", "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.run(
        cmd, capture_output=True, text=True, timeout=300, env=env, cwd=REPO_ROOT, check=False
    )


def _findings(done: subprocess.CompletedProcess[str], ws) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """(kernel, line, finding id) of every finding the push listed."""
    kernels = {u.unit_id: u.kernel_name for u in read_records(ws.units, KernelUnit)}
    out = []
    for line in done.stderr.splitlines():
        if (fid := re.search(r"\[id (\w+)\]$", line)) and (row := re.search(r"\(id (\w+)\)", line)):
            out.append((f"{kernels[row.group(1)]}: {line}", fid.group(1)))
    return out


def test_secret_assignments_the_keyword_plugin_misses_are_found(tmp_path: Path) -> None:
    ws = _workspace(
        tmp_path,
        {
            "comment": f"// aws_secret_access_key = {AWS_SECRET}\n",
            "shell": f"// export AWS_SECRET_ACCESS_KEY={AWS_SECRET[::-1]}\n",
        },
    )
    done = _push(ws, tmp_path)
    assert done.returncode == 2, done.stderr
    found = _findings(done, ws)
    assert any("op0:" in line and "Secret assignment" in line for line, _ in found), done.stderr
    assert any("op1:" in line and "Secret assignment" in line for line, _ in found), done.stderr
    assert AWS_SECRET not in done.stderr + done.stdout and AWS_SECRET[::-1] not in done.stderr
    assert not (tmp_path / "out").exists()


def test_a_waiver_covers_only_the_private_key_it_names(tmp_path: Path) -> None:
    ws = _workspace(
        tmp_path,
        {
            "key1": _pem(BODY_1),
            "key2": _pem(BODY_2),
            "bare body": f"// {BODY_3}\n",
            "mail": "// by ann.li@corp.cn\n",
        },
    )
    first = _push(ws, tmp_path)
    assert first.returncode == 2, first.stderr
    found = _findings(first, ws)
    waived = {fid for line, fid in found if "op0:" in line}  # everything reported on the first key's row
    assert waived and any("Private Key" in line for line, _ in found if "op0:" in line)
    second = _push(ws, tmp_path, *waived)
    assert second.returncode == 2, "waiving one key's findings let other secrets through"
    left = _findings(second, ws)
    assert not any("op0:" in line for line, _ in left)
    assert any("op1:" in line and "Private Key" in line for line, _ in left), second.stderr
    assert any("op2:" in line and "Private key body" in line for line, _ in left), second.stderr
    assert any("op3:" in line and "E-mail address" in line for line, _ in left), second.stderr
    assert BODY_2 not in second.stderr and BODY_3 not in second.stderr
    assert not (tmp_path / "out").exists()

    third = _push(ws, tmp_path, *waived, *(fid for _, fid in left))
    assert third.returncode == 0, third.stderr  # every finding waived by its own id: published
