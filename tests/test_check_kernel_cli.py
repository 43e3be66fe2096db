"""`curate check-kernel`: output shape, exit status, include resolution and the lenient policy."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from annotate.checker.clangcheck import CheckOptions, KernelChecker
from curate.cli import app
from curate.errors import UserError
from schemas.ascendc.catalog import CATALOG_PATH, Catalog, build_catalog, load_catalog, surface_digest
from tests.conftest import run_curate


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


def invoke(*args: str, env: dict[str, str] | None = None) -> Ran:
    """The CLI in-process (as `curate.cli.main` maps errors: a UserError exits 2 with its message)."""
    result = CliRunner().invoke(app, list(args), env=env)
    if isinstance(result.exception, UserError):
        return Ran(result.exception.exit_code, result.stdout, f"error: {result.exception}")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Ran(result.exit_code, result.stdout, result.stderr)


GOOD = """\
#include "kernel_operator.h"
#include "add_tiling.h"

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, TILE_LENGTH);
    AscendC::LocalTensor<float> a, b, c;
    AscendC::Add(c, a, b, TILE_LENGTH);
}
"""
BAD = GOOD.replace("AscendC::Add(c, a, b, TILE_LENGTH);", "AscendC::Addd(c, a, b, TILE_LENGTH);")


def _repo(tree, kernel: str = GOOD):  # type: ignore[no-untyped-def]
    return tree(
        {
            "ops/add_custom/op_kernel/add_custom.cpp": kernel,
            "ops/add_custom/op_kernel/add_tiling.h": "#pragma once\nconstexpr uint32_t TILE_LENGTH = 256;\n",
        }
    )


def test_json_lines_and_exit_status(tree) -> None:  # type: ignore[no-untyped-def]
    root = _repo(tree)
    bad = root / "ops/add_custom/op_kernel/bad.cpp"
    bad.write_text(BAD)
    good = root / "ops/add_custom/op_kernel/add_custom.cpp"

    ok = run_curate("check-kernel", str(good), "--json")  # once through the real entry point
    assert ok.returncode == 0, ok.stderr
    [record] = [json.loads(line) for line in ok.stdout.splitlines()]
    assert record == {"path": str(good), "ok": True, "diagnostics": []}

    both = invoke("check-kernel", str(good), str(bad), "--json")
    assert both.returncode == 1
    records = [json.loads(line) for line in both.stdout.splitlines()]
    assert [r["ok"] for r in records] == [True, False]
    [error] = [d for d in records[1]["diagnostics"] if d["severity"] == "error"]
    assert error["line"] == 9 and "Addd" in error["message"] and "Add" in error["message"]
    assert set(error) >= {"line", "severity", "message"}


def test_human_output_and_directories(tree) -> None:  # type: ignore[no-untyped-def]
    root = _repo(tree, BAD)
    result = invoke("check-kernel", str(root))
    assert result.returncode == 1
    assert "add_custom.cpp: FAILED (1 errors" in result.stdout
    assert "line 9: error: 'Addd' is not an AscendC API" in result.stdout


def test_bad_input_is_a_user_error(tmp_path: Path) -> None:
    missing = run_curate("check-kernel", str(tmp_path / "nope.cpp"))
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    empty = invoke("check-kernel", str(tmp_path))
    assert empty.returncode == 2 and "no kernel files" in empty.stderr
    soc = invoke("check-kernel", str(tmp_path), "--soc", "Ascend123")
    assert soc.returncode == 2 and "--soc" in soc.stderr


def test_repository_includes_resolve_and_extra_include_dirs(tree) -> None:  # type: ignore[no-untyped-def]
    root = tree(
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            "common/shared_util.h": "#pragma once\nconstexpr uint32_t SHARED = 64;\n",
            "elsewhere/extra.h": "#pragma once\nconstexpr uint32_t EXTRA = 32;\n",
            "another/extra.h": "#pragma once\nconstexpr uint32_t EXTRA = 16;\n",
            "math/mul/op_kernel/mul.cpp": """\
                #include "kernel_operator.h"
                #include "common/shared_util.h"
                #include "extra.h"
                extern "C" __global__ __aicore__ void mul(GM_ADDR x)
                {
                    AscendC::LocalTensor<float> a;
                    AscendC::Muls(a, a, 2.0f, SHARED + EXTRA);
                }
                """,
        }
    )
    kernel = root / "math/mul/op_kernel/mul.cpp"
    checker = KernelChecker()
    without = checker.check_file(kernel)
    # two headers of that bare name: the build's -I decides, which the checker cannot know; the
    # missing extra.h is a warning, and so are the names it would declare
    assert without.ok
    assert any(d.check == "include.missing" and "extra.h" in d.message for d in without.diagnostics)
    with_dir = checker.check_file(kernel, CheckOptions(include_dirs=[root / "elsewhere"]))
    assert with_dir.ok and with_dir.diagnostics == []  # the repository root resolved common/...


def test_repository_headers_are_found_as_the_build_would(tree) -> None:  # type: ignore[no-untyped-def]
    """`#include "helper/consts.h"` from a folder no default include directory reaches: the build
    adds the directory that holds it as spelt; a bare name is found when the repository has one."""
    root = tree(
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            "blas/common/helper/consts.h": "#pragma once\nconstexpr int32_t BUFFER_NUM = 2;\n",
            "blas/common/only_once.h": "#pragma once\nconstexpr int32_t TILE = 64;\n",
            "blas/dot/arch35/dot.cpp": """\
                #include "kernel_operator.h"
                #include "common/helper/consts.h"
                #include "only_once.h"
                using namespace AscendC;
                template <typename T>
                class Dot {
                public:
                    __aicore__ inline void Done(LocalTensor<T>& y) { q.FreeTensor(y); }
                    TQue<QuePosition::VECIN, BUFFER_NUM> q;
                    int32_t tile = TILE;
                };
                """,
        }
    )
    kernel = root / "blas/dot/arch35/dot.cpp"
    result = KernelChecker().check_file(kernel)
    assert result.ok and result.diagnostics == [], result.diagnostics
    # with the queue's type known, a call with a dropped argument is caught inside the template
    text = kernel.read_text().replace("q.FreeTensor(y)", "q.FreeTensor()")
    mutated = KernelChecker().check_file(kernel, overrides={kernel: text})
    assert any("FreeTensor" in d.message for d in mutated.errors), mutated.diagnostics


def test_a_repository_copy_of_the_interface_is_not_read_in_its_place(tree) -> None:  # type: ignore[no-untyped-def]
    """The repository that ships the AscendC interface itself (asc-devkit) has `c_api/asc_simd.h`
    whose implementation calls compiler built-ins no header declares: its examples include the
    interface, which the surface answers or nobody does; a helper header is still read."""
    root = tree(
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            "include/c_api/asc_simd.h": "#pragma once\ninline void asc_dci() { dci(); }\n",
            "examples/common/helper/consts.h": "#pragma once\nconstexpr int32_t TILE = 64;\n",
            "examples/c_api/add/add.asc": """\
                #include "c_api/asc_simd.h"
                #include "common/helper/consts.h"
                __global__ __aicore__ void add(__gm__ float* x)
                {
                    asc_dci();
                    AscendC::PipeBarrier<PIPE_ALL>();
                    int32_t tile = TILE;
                }
                """,
        }
    )
    kernel = root / "examples/c_api/add/add.asc"
    result = KernelChecker().check_file(kernel)
    assert result.ok, result.errors
    assert any(d.line == 1 and d.severity == "warning" for d in result.diagnostics)
    text = kernel.read_text().replace("PipeBarrier", "PipeBarier")
    assert not KernelChecker().check_file(kernel, overrides={kernel: text}).ok


def test_unknown_vendor_headers_warn_but_ascendc_errors_still_fail(tree) -> None:  # type: ignore[no-untyped-def]
    root = tree(
        {
            "op_kernel/k.cpp": """\
                #include "kernel_operator.h"
                #include "atvoss/elewise/elewise_sch.h"
                using namespace AscendC;
                extern "C" __global__ __aicore__ void k(GM_ADDR x)
                {
                    auto sch = Ops::Base::ElewiseSch<float>(x);
                    LocalTensor<float> a;
                    Muls(a, a, 2.0f, sch.Count());
                    Mulss(a, a, 2.0f, 8);
                }
                """,
        }
    )
    result = KernelChecker().check_file(root / "op_kernel/k.cpp")
    assert not result.ok
    assert [(d.line, d.check) for d in result.errors] == [(9, "ascendc.unknown_api")]
    warned = {d.line for d in result.diagnostics if d.severity == "warning"}
    assert {2, 6} <= warned


def test_shipped_catalog_matches_the_surface() -> None:
    fresh = build_catalog()
    shipped = Catalog.from_json(CATALOG_PATH.read_text(encoding="utf-8"))
    assert shipped.digest == surface_digest() == fresh.digest, "run `python -m annotate.checker --write`"
    assert shipped.to_json() == fresh.to_json()
    add = [e for e in load_catalog().by_name("Add") if e.kind == "function"]
    assert add and add[0].header == "ascendc/vec.h" and any(o.max_args == 4 for o in add[0].overloads)


def _shipped_by_package_data(path: Path) -> bool:
    import fnmatch
    import tomllib

    from tests.conftest import REPO_ROOT

    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]
    package = ".".join(path.parent.relative_to(REPO_ROOT).parts)
    return any(
        fnmatch.fnmatch(path.name, pattern) for key in ("*", package) for pattern in patterns.get(key, [])
    )


def test_every_surface_file_is_package_data() -> None:
    from schemas.ascendc import SURFACE_DIR

    unshipped = [p for p in SURFACE_DIR.rglob("*") if p.is_file() and not _shipped_by_package_data(p)]
    assert unshipped == []


def test_misspelt_qualified_names_are_found_where_clang_cannot_look(tree) -> None:  # type: ignore[no-untyped-def]
    # The base class comes from a header nobody has: clang skips much of the class, the
    # qualified AscendC reference is still checked against the catalog.
    root = tree(
        {
            "op_kernel/arch35/dag.h": """\
                #include "kernel_operator.h"
                #include "atvoss/util/vec.h"
                template <class T>
                struct AddCustom : public Vec::ElemwiseBinaryOP<T, T, T> {
                    __aicore__ inline AddCustom(AscendC::LocalTensor<T>& dst, uint32_t count)
                    {
                        Reg::RegTensor<T> a, b, c;
                        Reg::MaskReg mask;
                        Reg::Add(c, a, b, mask);
                        Reg::Addd(c, a, b, mask);
                        AscendC::DataCopyPadd(dst, dst, count);
                        Reg::Add(c, a, b);
                        AscendC::Duplicate<T>(dst, (T)0);
                    }
                };
                """,
            "op_kernel/k_apt.cpp": """\
                #include "arch35/dag.h"
                extern "C" __global__ __aicore__ void k(GM_ADDR x) {}
                """,
        }
    )
    result = KernelChecker().check_file(root / "op_kernel/k_apt.cpp")
    assert [(Path(d.path).name, d.line, d.check) for d in result.errors] == [
        ("dag.h", 10, "ascendc.unknown_api"),
        ("dag.h", 11, "ascendc.unknown_api"),
        ("dag.h", 12, "ascendc.arity"),
        ("dag.h", 13, "ascendc.arity"),
    ]
    assert "Add" in result.errors[2].message and "3 arguments" in result.errors[2].message
    assert "did you mean 'Add'" in result.errors[0].message
    assert "did you mean 'DataCopyPad'" in result.errors[1].message


def test_textual_argument_counts_of_qualified_calls() -> None:
    from annotate.checker.qualified import count_arguments, wrong_qualified_arity

    def count(call: str) -> int | None:
        return count_arguments(call, call.index("("))

    assert count("f()") == 0 and count("f(a)") == 1
    assert count("f(a, g(b, c), x[1, 2], Tmpl<int, 2>{})") == 4
    assert count("f(a, b < c)") == 2
    assert count("f(a, b<c, d)") is None  # a comparison or a template argument list: not counted
    assert count("f(a, b;") is None
    assert (
        wrong_qualified_arity(
            {"k.h": 'AscendC::PRINTF("");\nAscendC::PRINTF("%d, %d", a, b);\n'}, load_catalog()
        )
        == []
    )
    sources = {
        "k.h": "// AscendC::Add(c, a)\nvoid k() {\n    AscendC::Add<half>(c, a, b);\n    AscendC::Add(c, a, b, n);\n}\n"
    }
    [found] = wrong_qualified_arity(sources, load_catalog())
    assert (found.line, found.verdict.check) == (
        3,
        "ascendc.arity",
    ) and "3 arguments" in found.verdict.message
