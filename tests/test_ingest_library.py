"""Units are the kernel: a header-only template library's examples, entries declared through a
repository macro, unit-test mocks, and documentation beside per-architecture folders (real
libclang parses of small trees written here)."""

from __future__ import annotations

from pathlib import Path

from dedup.config import DedupConfig
from dedup.decide import run_dedup
from parsers.config import IngestConfig
from parsers.ingest import IngestResult, ingest_directory
from parsers.units import SourceInfo
from schemas import DEFAULT_MAX_UNIT_LINES

HEADER = """\
/*
 * Copyright (c) 2026 Test authors.
 * CANN Open Software License Agreement Version 2.0 (the "License").
 */
"""

# A filler header the whole library includes: far more lines than a unit may have, so inlining
# every header an example reaches cannot fit and the library's layout must be recognised.
_FILLER = "\n".join(f"constexpr int kLayoutTableEntry{i} = {i};" for i in range(DEFAULT_MAX_UNIT_LINES + 200))

LIBRARY = {
    "include/tlib/detail/macros.hpp": """
        #pragma once
        #define TLIB_DEVICE __aicore__ inline
        #define TLIB_GLOBAL __global__ __aicore__
    """,
    "include/tlib/layout/table.hpp": "#pragma once\nnamespace Tlib {\n" + _FILLER + "\n}\n",
    "include/tlib/tlib.hpp": """
        #pragma once
        #include "tlib/detail/macros.hpp"
        #include "tlib/layout/table.hpp"
        #include "kernel_operator.h"
    """,
    "include/tlib/policy.hpp": """
        #pragma once
        namespace Tlib {
        template <bool UNIT_FLAG_ = false> struct PingPong { static constexpr bool UNIT_FLAG = UNIT_FLAG_; };
        template <int STAGES_> struct Preload { static constexpr int STAGES = STAGES_; };
        }
    """,
    "include/tlib/block/block_mmad.hpp": """
        #pragma once
        #include "tlib/tlib.hpp"
        #include "tlib/policy.hpp"
        namespace Tlib {
        template <class Policy_, class Element_> struct BlockMmad { static_assert(sizeof(Policy_) == 0, "no policy"); };
        }
        #include "tlib/block/block_mmad_pingpong.hpp"
        #include "tlib/block/block_mmad_preload.hpp"
    """,
    "include/tlib/block/block_mmad_pingpong.hpp": """
        #pragma once
        namespace Tlib {
        template <bool UNIT_FLAG_, class Element_>
        struct BlockMmad<PingPong<UNIT_FLAG_>, Element_> {
            TLIB_DEVICE void operator()(GM_ADDR a, GM_ADDR b, GM_ADDR c) { AscendC::Mmad(c, a, b, {}); }
            int pingPongMarker;
        };
        }
    """,
    "include/tlib/block/block_mmad_preload.hpp": """
        #pragma once
        namespace Tlib {
        template <int STAGES_, class Element_>
        struct BlockMmad<Preload<STAGES_>, Element_> {
            TLIB_DEVICE void operator()(GM_ADDR a, GM_ADDR b, GM_ADDR c) { AscendC::LoadData(c, a, {}); }
            int preloadMarker;
        };
        }
    """,
    "include/tlib/kernel/basic_mm.hpp": """
        #pragma once
        #include "tlib/block/block_mmad.hpp"
        namespace Tlib {
        template <class BlockMmad_>
        class BasicMm {
        public:
            struct Params { GM_ADDR a; GM_ADDR b; GM_ADDR c; };
            template <int CORE> TLIB_DEVICE void operator()(Params const& params);
            template <> TLIB_DEVICE void operator()<AscendC::AIC>(Params const& params)
            {
                BlockMmad_ block;
                block(params.a, params.b, params.c);
            }
            template <> TLIB_DEVICE void operator()<AscendC::AIV>(Params const& params) {}
        };
        }
    """,
    "include/tlib/kernel/entry_fn.hpp": """
        #pragma once
        #include "tlib/tlib.hpp"
        TLIB_DEVICE void RunPreloadEpilogue(GM_ADDR c)
        {
            int entryFunctionMarker = 0;
        }
    """,
    "include/tlib/detail/kernel_adapter.hpp": """
        #pragma once
        #include "tlib/tlib.hpp"
        namespace Tlib {
        template <class Operator>
        TLIB_GLOBAL void KernelAdapter(typename Operator::Params params)
        {
            Operator op;
            op(params);
        }
        }
    """,
    "include/tlib/device/device_mm.hpp": """
        #pragma once
        #include "tlib/detail/kernel_adapter.hpp"
        namespace Tlib {
        template <class Kernel>
        struct DeviceMm {
            void Run(typename Kernel::Params params, void* stream) { KernelAdapter<Kernel><<<8, nullptr, stream>>>(params); }
        };
        }
    """,
}

EXAMPLES = {
    # no entry written out: the library's adapter runs the kernel class the example instantiates
    "examples/00_basic_mm/basic_mm.cpp": HEADER
    + """
        #include "tlib/kernel/basic_mm.hpp"
        #include "tlib/device/device_mm.hpp"
        using namespace Tlib;
        int RunBasic(GM_ADDR a, GM_ADDR b, GM_ADDR c, void* stream)
        {
            using Mmad = BlockMmad<PingPong<true>, half>;
            using Kernel = BasicMm<Mmad>;
            DeviceMm<Kernel> device;
            device.Run(Kernel::Params{a, b, c}, stream);
            return 0;
        }
    """,
    # an entry of its own, through the library's macro (never written `__global__` in this file)
    "examples/01_small_mm/small_mm.cpp": HEADER
    + """
        #include "tlib/kernel/basic_mm.hpp"
        #include "tlib/kernel/entry_fn.hpp"
        #include "tlib/device/device_mm.hpp"
        using namespace Tlib;
        TLIB_GLOBAL __attribute__((aic)) void SmallMm(GM_ADDR a, GM_ADDR b, GM_ADDR c)
        {
            using Kernel = BasicMm<BlockMmad<Preload<2>, half>>;
            Kernel kernel;
            kernel(Kernel::Params{a, b, c});
            RunPreloadEpilogue(c);
        }
        static int smallHostSideCounter = 0;
    """,
}


def ingest(root: Path) -> IngestResult:
    return ingest_directory(root, SourceInfo("t", "", "", ""), IngestConfig(jobs=1))


def by_path(result: IngestResult) -> dict[str, list]:
    out: dict[str, list] = {}
    for unit in result.units:
        out.setdefault(unit.path, []).append(unit)
    return out


def test_each_library_example_is_a_named_unit_of_its_own_code_plus_what_it_instantiates(tree) -> None:
    result = ingest(tree({**LIBRARY, **EXAMPLES}))
    units = by_path(result)
    assert sorted(units) == ["examples/00_basic_mm/basic_mm.cpp", "examples/01_small_mm/small_mm.cpp"]
    (basic,) = units["examples/00_basic_mm/basic_mm.cpp"]
    (small,) = units["examples/01_small_mm/small_mm.cpp"]
    # named after the kernel class the adapter runs, and after the example's own entry
    assert basic.kernel_name == "BasicMm" and small.kernel_name == "SmallMm"
    for unit in (basic, small):
        assert unit.layout == "catlass" and unit.category == "matmul"
        assert unit.core_type == "cube"  # the AIV body is empty; `aic` on the entry
        assert unit.lines <= DEFAULT_MAX_UNIT_LINES
        assert "kLayoutTableEntry" not in unit.code  # the library's bulk is named, not inlined
        assert "include/tlib/layout/table.hpp" in unit.includes
        assert "class BasicMm" in unit.code  # the kernel class it instantiates
    # the block specialisations are library text every example of a block shares: named only
    for unit in (basic, small):
        assert "pingPongMarker" not in unit.code and "preloadMarker" not in unit.code
        assert "include/tlib/block/block_mmad_pingpong.hpp" in unit.includes
    # and the library function it calls
    assert "entryFunctionMarker" in small.code and "entryFunctionMarker" not in basic.code
    # the adapter is not the small example's kernel: it has one of its own
    assert [u.kernel_name for u in result.units].count("KernelAdapter") == 0


def test_library_examples_are_not_duplicates_of_each_other_through_the_shared_headers(tree) -> None:
    units = ingest(tree({**LIBRARY, **EXAMPLES})).units
    decisions = run_dedup(units, None, DedupConfig()).decisions
    assert [d.decision for d in decisions] == ["keep", "keep"]


def test_an_entry_declared_through_a_repository_macro_is_a_unit(tree) -> None:
    root = tree(
        {
            "common/kernel_api.h": """
                #pragma once
                #define KERNEL_API extern "C" __global__ __aicore__
            """,
            # the kernel reaches the macro through a common header, never seeing `__global__`
            "common/ops_common.h": '#pragma once\n#include "kernel_api.h"\n',
            "ops/elu/elu.cpp": HEADER
            + """
                #include "kernel_operator.h"
                #include "../../common/ops_common.h"
                KERNEL_API void elu(GM_ADDR x, GM_ADDR y, float alpha)
                {
                    AscendC::LocalTensor<half> t;
                    AscendC::Exp(t, t, 8);
                }
            """,
        }
    )
    result = ingest(root)
    (unit,) = result.units
    assert (unit.kernel_name, unit.path) == ("elu", "ops/elu/elu.cpp")
    assert [p.name for p in unit.params] == ["x", "y", "alpha"]


def test_a_unit_test_mock_of_a_vendor_header_is_never_assembled_into_a_unit(tree) -> None:
    root = tree(
        {
            "tests/ut/stub/kernel_operator.h": "#pragma once\nint mockKernelOperatorMarker;\n",
            "tests/ut/test_relu.cpp": '#include "kernel_operator.h"\nint testOnly;\n',
            # a kernel of another test suite (operator tests run real kernels): not the mock either
            "tests/optest/kernels/relu_impl.cpp": """
                #include "kernel_operator.h"
                extern "C" __global__ __aicore__ void relu_impl(GM_ADDR x, GM_ADDR y) { AscendC::Relu(x, y, 8); }
            """,
            "ops/relu/op_kernel/relu.cpp": """
                #include "kernel_operator.h"
                extern "C" __global__ __aicore__ void relu(GM_ADDR x, GM_ADDR y) { AscendC::Relu(x, y, 8); }
            """,
        }
    )
    units = ingest(root).units
    assert sorted(u.kernel_name for u in units) == ["relu", "relu_impl"]
    for unit in units:
        assert "mockKernelOperatorMarker" not in unit.code
        assert not any(path.startswith("tests/ut/") for path in unit.includes)


def test_documentation_is_found_above_a_per_architecture_folder(tree) -> None:
    root = tree(
        {
            "blas/axpy/README.md": """
                # Axpy

                ## 算子功能

                Computes y = alpha * x + y for vectors x and y.

                ## 参数说明

                | 参数名 | 输入/输出 | 说明 |
                |---|---|---|
                | x | 输入 | the vector x |
                | y | 输入/输出 | the vector y |
            """,
            "blas/axpy/arch35/saxpy_kernel.cpp": """
                #include "kernel_operator.h"
                extern "C" __global__ __aicore__ void saxpy(GM_ADDR x, GM_ADDR y) { AscendC::Axpy(y, x, 2.0f, 8); }
            """,
        }
    )
    (unit,) = ingest(root).units
    assert unit.doc is not None and unit.doc.path == "blas/axpy/README.md"
