"""The CANN compiler backend: toolkit detection, the command line, and diagnostics parsed from
compiler output (hand-written fixtures, run through a fake compiler). One test needs a real
toolkit and is skipped without one."""

from __future__ import annotations

import json
import os
import platform
import stat
from pathlib import Path

import pytest

from annotate.checker.cann import CompileRequest, build_command, compile_check, detect, parse_output
from annotate.reasoning import VerifyConfig, default_verifiers
from annotate.reasoning.verifiers import CannVerifier
from schemas.ascendc.soc import resolve_soc
from tests.conftest import EXAMPLES
from tests.test_check_kernel_cli import invoke

FIXTURES = Path(__file__).parent / "fixtures" / "cann"
ADD_KERNEL = EXAMPLES / "corpus/vendor-ops/math/add_custom/op_kernel/add_custom.cpp"


def fake_toolkit(root: Path, fixture: str | None = None, status: int = 1) -> Path:
    """A toolkit tree whose `bisheng` prints a fixture (paths substituted) on stderr."""
    devkit = root / f"{platform.machine().lower()}-linux"
    for rel in ("asc/include/basic_api", "asc/impl/basic_api", "tikcpp/tikcfw"):
        (devkit / rel).mkdir(parents=True, exist_ok=True)
    compiler = devkit / "ccec_compiler/bin/bisheng"
    compiler.parent.mkdir(parents=True)
    body = "#!/bin/sh\n"
    body += 'for last; do :; done\necho "$@" > "$(dirname "$0")/last_args"\n'
    if fixture:
        body += f'sed -e "s|@SOURCE@|$last|g" -e "s|@DEVKIT@|{devkit}|g" "{FIXTURES / fixture}" >&2\n'
    body += f"exit {status if fixture else 0}\n"
    compiler.write_text(body)
    compiler.chmod(compiler.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return root


def test_detect_reports_why_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ASCEND_HOME_PATH", raising=False)
    assert "set ASCEND_HOME_PATH" in detect().reason
    assert "is not a directory" in detect(tmp_path / "nope").reason
    assert "has no ccec_compiler/bin/bisheng" in detect(tmp_path).reason
    monkeypatch.setenv("ASCEND_HOME_PATH", str(fake_toolkit(tmp_path)))
    found = detect()
    assert found.toolkit is not None and found.toolkit.compiler.name == "bisheng"
    assert "ASCEND_HOME_PATH" in found.reason


def test_command_line_shape(tmp_path: Path) -> None:
    toolkit = detect(fake_toolkit(tmp_path)).toolkit
    assert toolkit is not None
    vector = build_command(toolkit, CompileRequest(ADD_KERNEL, soc="Ascend910B"), ADD_KERNEL.read_text())
    assert vector[0] == str(toolkit.compiler) and vector[-1] == str(ADD_KERNEL)
    assert vector[1:5] == ["-fsyntax-only", "-x", "cce", "-std=c++17"]
    assert "--cce-aicore-arch=dav-c220-vec" in vector and "--cce-aicore-only" in vector
    assert f"-I{ADD_KERNEL.parent}" in vector  # the kernel's own directory
    assert f"-I{toolkit.devkit / 'asc/include/basic_api'}" in vector
    assert f"-I{toolkit.devkit / 'tikcpp/tikcfw'}" in vector
    assert not any("asc/impl/adv_api" in arg for arg in vector)  # only directories that exist

    cube = build_command(toolkit, CompileRequest(ADD_KERNEL), "Mmad(c, a, b, params);")
    assert "--cce-aicore-arch=dav-c220-cube" in cube
    with pytest.raises(ValueError):
        build_command(toolkit, CompileRequest(ADD_KERNEL, soc="Ascend123"))


def test_parse_recorded_errors() -> None:
    text = (FIXTURES / "bisheng_errors.txt").read_text()
    text = text.replace("@SOURCE@", "/src/add_custom.cpp").replace("@DEVKIT@", "/tk/x86_64-linux")
    found = parse_output(text, {"/src/add_custom.cpp": "ops/add_custom.cpp"})
    summary = [(d.severity, d.path, d.line) for d in found]
    assert summary == [
        ("error", "ops/add_custom.cpp", 73),
        ("note", "/tk/x86_64-linux/asc/include/basic_api/kernel_operator_vec_binary_intf.h", 58),
        ("error", "ops/add_custom.cpp", 81),
        ("note", "/tk/x86_64-linux/asc/include/basic_api/kernel_operator_data_copy_intf.h", 40),
        ("warning", "ops/add_custom.cpp", 35),
    ]
    assert (
        found[0].check == "cann" and "'Addd'" in found[0].message and "did you mean 'Add'" in found[0].message
    )
    assert "requires 3 arguments, but 2 were provided" in found[3].message


def test_a_missing_include_is_inconclusive_not_an_error() -> None:
    text = (FIXTURES / "bisheng_missing_include.txt").read_text().replace("@SOURCE@", "/src/k.cpp")
    [diag] = parse_output(text)
    assert (diag.check, diag.severity, diag.line) == ("cann.include", "warning", 12)


def test_compile_check_runs_the_compiler(tmp_path: Path) -> None:
    toolkit = detect(fake_toolkit(tmp_path / "tk", "bisheng_errors.txt")).toolkit
    assert toolkit is not None
    found = compile_check(toolkit, CompileRequest(ADD_KERNEL))
    assert [(d.severity, d.line) for d in found if d.path == str(ADD_KERNEL)] == [
        ("error", 73),
        ("error", 81),
        ("warning", 35),
    ]
    args = (toolkit.compiler.parent / "last_args").read_text()
    assert "--cce-aicore-arch=dav-c220-vec" in args and args.strip().endswith(str(ADD_KERNEL))

    clean = detect(fake_toolkit(tmp_path / "clean")).toolkit
    assert clean is not None and compile_check(clean, CompileRequest(ADD_KERNEL)) == []


def test_a_compiler_that_fails_silently_is_an_error(tmp_path: Path) -> None:
    toolkit = detect(fake_toolkit(tmp_path, "bisheng_errors.txt")).toolkit
    assert toolkit is not None
    toolkit.compiler.write_text("#!/bin/sh\necho 'segmentation fault' >&2\nexit 139\n")
    [diag] = compile_check(toolkit, CompileRequest(ADD_KERNEL))
    assert diag.severity == "error" and "segmentation fault" in diag.message


def test_check_kernel_adds_the_compiler_diagnostics(tmp_path: Path) -> None:
    home = fake_toolkit(tmp_path, "bisheng_errors.txt")
    result = invoke("check-kernel", str(ADD_KERNEL), "--json", "--cann-home", str(home))
    assert result.returncode == 1, result.stderr
    [record] = [json.loads(line) for line in result.stdout.splitlines()]
    assert not record["ok"]
    assert [(d["line"], d["check"]) for d in record["diagnostics"] if d["severity"] == "error"] == [
        (73, "cann"),
        (81, "cann"),
    ]
    off = invoke("check-kernel", str(ADD_KERNEL), "--cann-home", str(home), "--no-cann")
    assert off.returncode == 0, off.stdout


def test_the_cann_verifier_joins_when_a_toolkit_is_found(tmp_path: Path) -> None:
    home = fake_toolkit(tmp_path, "bisheng_errors.txt")
    names = [v.name for v in default_verifiers(VerifyConfig(cann_home=str(home)))]
    assert names == ["surface", "grounding", "cann"]
    assert [v.name for v in default_verifiers(VerifyConfig(cann_home=str(home), cann=False))] == [
        "surface",
        "grounding",
    ]
    verifier = CannVerifier(detect(home).toolkit)  # type: ignore[arg-type]
    reasoning = "## Operator analysis\n```cpp\n" + ADD_KERNEL.read_text() + "```\n"
    found = verifier.verify(None, "", reasoning)  # type: ignore[arg-type]
    assert [d.check for d in found] == ["cann.snippet", "cann.snippet"]
    assert found[0].line == 2 + 73  # the kernel starts on line 3 of the reasoning
    assert verifier.verify(None, "", "no code here") == []  # type: ignore[arg-type]


@pytest.mark.cann
@pytest.mark.skipif(not os.environ.get("ASCEND_HOME_PATH"), reason="needs a CANN toolkit (ASCEND_HOME_PATH)")
def test_real_toolkit_compiles_the_example_and_rejects_a_misspelling(tmp_path: Path) -> None:
    toolkit = detect().toolkit
    assert toolkit is not None, detect().reason
    assert [d for d in compile_check(toolkit, CompileRequest(ADD_KERNEL)) if d.severity == "error"] == []
    bad = tmp_path / ADD_KERNEL.name
    bad.write_text(ADD_KERNEL.read_text().replace("Add(zLocal", "Addd(zLocal"))
    errors = [d for d in compile_check(toolkit, CompileRequest(bad)) if d.severity == "error"]
    assert errors and errors[0].line == 73


def test_auto_soc_picks_ascend950_for_arch35_kernels(tmp_path: Path) -> None:
    assert resolve_soc("auto", ["ops/add/op_kernel/add.cpp"]) == "Ascend910B"
    assert resolve_soc("auto", ["ops/add/op_kernel/add_apt.cpp"]) == "Ascend950"
    assert resolve_soc("auto", ['#include "arch35/add_dag.h"\n']) == "Ascend950"
    assert resolve_soc("Ascend910B", ["ops/add/op_kernel/add_apt.cpp"]) == "Ascend910B"
    toolkit = detect(fake_toolkit(tmp_path)).toolkit
    assert toolkit is not None
    command = build_command(toolkit, CompileRequest(tmp_path / "add_apt.cpp"), "")
    assert "--cce-aicore-arch=dav-c310-vec" in command
