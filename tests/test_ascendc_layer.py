"""The shared AscendC layer (schemas/ascendc/): one driver, one resolver, one SoC set, one API list,
as the ingest and the checker both use them (real libclang parses)."""

from __future__ import annotations

from pathlib import Path

from parsers import facts
from parsers.config import IngestConfig
from parsers.ingest import ingest_directory
from parsers.units import SourceInfo
from schemas.ascendc import KEYWORDS_HEADER, SURFACE_PRELUDE
from schemas.ascendc.catalog import api_names, load_catalog
from schemas.ascendc.frontend import CHECK, INGEST, STUB_DIR, ParseRequest, arguments
from schemas.ascendc.includes import RepoIndex, include_closure
from schemas.ascendc.soc import DEFAULT_SOC, soc_profile
from schemas.cpp import mask_comments_and_literals


def test_both_uses_share_the_prelude_the_soc_and_the_stubs_and_differ_in_the_surface() -> None:
    ingest = arguments(ParseRequest("k.cpp", INGEST, include_dirs=["/r"]))
    check = arguments(ParseRequest("k.cpp", CHECK, include_dirs=["/r"]))
    for args in (ingest, check):
        assert args[args.index("-include") + 1] == str(KEYWORDS_HEADER)
        assert f"-D__CCE_AICORE__={soc_profile(DEFAULT_SOC).cce_aicore}" in args
        # stubs are searched before the repository: what the resolver found nowhere stays a stub
        assert args.index(f"-I{STUB_DIR}") < args.index("-I/r")
    assert str(SURFACE_PRELUDE) in check and str(SURFACE_PRELUDE) not in ingest
    assert "-nobuiltininc" in ingest and "-nobuiltininc" not in check


def test_the_parser_counts_api_calls_by_the_catalog_derived_from_the_surface() -> None:
    names = api_names()
    catalog = load_catalog()
    assert names <= catalog.known_names()
    # a function the surface declares (and the parser's old list lacked) counts; a macro does not
    assert "CeilDivision" in names and "GET_TILING_DATA" not in names
    assert "GET_TILING_DATA" in api_names(catalog, types_and_macros=True)
    code = mask_comments_and_literals("GET_TILING_DATA(t, tiling);\nuint32_t n = CeilDivision(a, 32);\n")
    assert facts.api_calls(code, defined_locally=set()) == ["CeilDivision"]


def test_the_ingest_never_assembles_a_unit_test_mock_of_a_vendor_header() -> None:
    files = {
        "ops/add/op_kernel/add.cpp": '#include "kernel_operator.h"\n',
        "tests/ut/stubs/kernel_operator.h": "// mock\n",
        "tests/ut/test_add.cpp": '#include "kernel_operator.h"\n',
    }
    index = RepoIndex.build(list(files))
    kernel = include_closure("ops/add/op_kernel/add.cpp", index, files.get)
    assert kernel.files == ["ops/add/op_kernel/add.cpp"]
    assert kernel.external == ["kernel_operator.h"]
    # the tests themselves may include their mocks
    test = include_closure("tests/ut/test_add.cpp", index, files.get)
    assert test.files == ["tests/ut/test_add.cpp", "tests/ut/stubs/kernel_operator.h"]


def test_a_header_reached_through_a_parent_directory_contributes_its_classes(tree) -> None:  # type: ignore[no-untyped-def]
    root: Path = tree(
        {
            "sample/include/kernel_impl.h": """
                #include "kernel_operator.h"
                class KernelScale {
                public:
                    __aicore__ inline void Init(GM_ADDR x) {}
                    __aicore__ inline void Process() { Compute(); }
                    __aicore__ inline void Compute() {}
                };
                __aicore__ inline uint32_t CeilDivision(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
            """,
            "sample/kernel/scale.cpp": """
                #include "../include/kernel_impl.h"
                extern "C" __global__ __aicore__ void scale(GM_ADDR x) {
                    KernelScale op;
                    op.Init(x);
                    op.Process();
                    uint32_t n = CeilDivision(8, 2);
                }
            """,
        }
    )
    result = ingest_directory(root, SourceInfo("t", "", "", ""), IngestConfig(jobs=1))
    [unit] = result.units
    assert [c.name for c in unit.kernel_classes] == ["KernelScale"]
    # the unit defines CeilDivision itself: not an AscendC API call here
    assert "CeilDivision" not in unit.apis


def test_a_unit_test_including_the_kernel_source_is_not_a_second_unit(tree) -> None:  # type: ignore[no-untyped-def]
    root: Path = tree(
        {
            "math/scale/op_kernel/scale.cpp": """
                #include "kernel_operator.h"
                extern "C" __global__ __aicore__ void scale(GM_ADDR x) {}
            """,
            "math/scale/tests/ut/op_kernel/test_scale.cpp": """
                #include "../../../op_kernel/scale.cpp"
                extern "C" __global__ __aicore__ void scale(GM_ADDR x);
                int run() { return 0; }
            """,
        }
    )
    result = ingest_directory(root, SourceInfo("t", "", "", ""), IngestConfig(jobs=1))
    assert [(u.path, u.kernel_name) for u in result.units] == [("math/scale/op_kernel/scale.cpp", "scale")]
