"""Each layout that real AscendC repositories use yields the right kernel units (real libclang parses)."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsers.config import IngestConfig
from parsers.ingest import IngestResult, ingest_directory
from parsers.units import SourceInfo
from schemas import KernelUnit

HEADER = """\
/*
 * Copyright (c) 2026 Test authors.
 * CANN Open Software License Agreement Version 2.0 (the "License").
 */
"""


def ingest(root: Path) -> IngestResult:
    return ingest_directory(root, SourceInfo("t", "", "", ""), IngestConfig(jobs=1))


def only(result: IngestResult, kernel_name: str) -> KernelUnit:
    matches = [u for u in result.units if u.kernel_name == kernel_name]
    assert len(matches) == 1, [u.kernel_name for u in result.units]
    return matches[0]


MSOPGEN = {
    "math/scale_add/op_host/scale_add_tiling.h": """
        #include "register/tilingdata_base.h"
        namespace optiling {
        BEGIN_TILING_DATA_DEF(ScaleAddTilingData)
          TILING_DATA_FIELD_DEF(uint32_t, totalLength);
          TILING_DATA_FIELD_DEF(uint32_t, tileNum);
          TILING_DATA_FIELD_DEF_ARR(uint32_t, 4, shape);
        END_TILING_DATA_DEF;
        REGISTER_TILING_DATA_CLASS(ScaleAdd, ScaleAddTilingData)
        }
    """,
    "math/scale_add/op_host/scale_add.cpp": """
        #include "scale_add_tiling.h"
        #include "register/op_def_registry.h"
        namespace optiling {
        static ge::graphStatus ScaleAddTiling(gert::TilingContext* context) {
            ScaleAddTilingData tiling;
            tiling.set_totalLength(1024);
            context->SetBlockDim(8);
            context->SetTilingKey(1);
            return ge::GRAPH_SUCCESS;
        }
        }
        namespace ops {
        class ScaleAdd : public OpDef {
        public:
            explicit ScaleAdd(const char* name) : OpDef(name) {
                this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
                    .Format({ge::FORMAT_ND, ge::FORMAT_ND});
                this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
                    .Format({ge::FORMAT_ND, ge::FORMAT_ND});
                this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
                    .Format({ge::FORMAT_ND, ge::FORMAT_ND});
                this->Attr("scale").AttrType(OPTIONAL).Float(1.0);
                this->AICore().SetTiling(optiling::ScaleAddTiling);
                this->AICore().AddConfig("ascend910b");
            }
        };
        OP_ADD(ScaleAdd);
        }
    """,
    "math/scale_add/op_kernel/scale_add.cpp": HEADER
    + """
        #include "kernel_operator.h"
        #include "scale_add_impl.h"
        using namespace AscendC;
        constexpr int32_t BUFFER_NUM = 2;
        #define KEY_FP16 1
        extern "C" __global__ __aicore__ void scale_add(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
        {
            GET_TILING_DATA(tilingData, tiling);
            KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
            if (TILING_KEY_IS(KEY_FP16)) {
                KernelScaleAdd<half> op;
                op.Init(x, bias, y, tilingData.totalLength, tilingData.tileNum);
                op.Process();
            } else if (TILING_KEY_IS(2)) {
                KernelScaleAdd<float> op;
                op.Init(x, bias, y, tilingData.totalLength, tilingData.tileNum);
                op.Process();
            }
        }
    """,
    "math/scale_add/op_kernel/scale_add_impl.h": """
        #pragma once
        #include "kernel_operator.h"
        #include "common/scale_add_common.h"
        template <typename T>
        class KernelScaleAdd {
        public:
            __aicore__ inline KernelScaleAdd() {}
            __aicore__ inline void Init(GM_ADDR x, GM_ADDR b, GM_ADDR y, uint32_t total, uint32_t tiles) {
                xGm.SetGlobalBuffer((__gm__ T*)x, total);
                pipe.InitBuffer(inQueueX, BUFFER_NUM, 256);
                pipe.InitBuffer(outQueueY, BUFFER_NUM, 256);
            }
            __aicore__ inline void Process() { CopyIn(0); Compute(0); CopyOut(0); }
        private:
            __aicore__ inline void CopyIn(int32_t i) {
                LocalTensor<T> x = inQueueX.AllocTensor<T>();
                DataCopy(x, xGm[i * 128], 128);
                inQueueX.EnQue(x);
            }
            __aicore__ inline void Compute(int32_t i) {
                LocalTensor<T> x = inQueueX.DeQue<T>();
                LocalTensor<T> y = outQueueY.AllocTensor<T>();
                Muls(y, x, (T)2.0, 128);
                Adds(y, y, (T)1.0, 128);
                outQueueY.EnQue<T>(y);
                inQueueX.FreeTensor(x);
            }
            __aicore__ inline void CopyOut(int32_t i) {
                LocalTensor<T> y = outQueueY.DeQue<T>();
                DataCopy(yGm[i * 128], y, 128);
                outQueueY.FreeTensor(y);
            }
            TPipe pipe;
            TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
            TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueY;
            GlobalTensor<T> xGm, yGm;
        };
    """,
    "math/scale_add/op_kernel/common/scale_add_common.h": """
        #pragma once
        constexpr uint32_t SCALE_ADD_ALIGN = 32;
    """,
}


def test_msopgen_operator_yields_entry_classes_tiling_host_and_apis(tree):
    result = ingest(tree(MSOPGEN))
    unit = only(result, "scale_add")
    assert unit.layout == "msopgen"
    assert unit.op_name == "scale_add"
    assert unit.path == "math/scale_add/op_kernel/scale_add.cpp"
    assert [p.name for p in unit.params] == ["x", "bias", "y", "workspace", "tiling"]
    assert unit.params[0].type == "GM_ADDR"
    assert [c.name for c in unit.kernel_classes] == ["KernelScaleAdd"]
    assert {"Init", "Process", "CopyIn", "Compute", "CopyOut"} <= set(unit.kernel_classes[0].methods)
    # Included headers are assembled in include order, each once; external includes are not.
    assert unit.includes == [
        "math/scale_add/op_kernel/scale_add_impl.h",
        "math/scale_add/op_kernel/common/scale_add_common.h",
    ]
    assert (
        unit.code.index('extern "C"')
        < unit.code.index("class KernelScaleAdd")
        < unit.code.index("SCALE_ADD_ALIGN")
    )
    assert unit.tiling_struct == "ScaleAddTilingData"
    assert [(f.name, f.type, f.array_size) for f in unit.tiling_fields] == [
        ("totalLength", "uint32_t", 0),
        ("tileNum", "uint32_t", 0),
        ("shape", "uint32_t", 4),
    ]
    assert unit.tiling_keys == [1, 2]
    assert unit.host_tiling == "ScaleAddTiling"
    assert unit.op_def is not None
    assert unit.op_def.op_type == "ScaleAdd"
    assert [(t.name, t.param_type) for t in unit.op_def.inputs] == [("x", "REQUIRED"), ("bias", "OPTIONAL")]
    assert unit.op_def.inputs[0].dtypes == ["DT_FLOAT16", "DT_FLOAT"]
    assert unit.op_def.inputs[0].formats == ["FORMAT_ND"]
    assert [a.name for a in unit.op_def.attrs] == ["scale"]
    assert unit.op_def.socs == ["ascend910b"]
    assert "OpDef" in unit.host_code
    # Methods the unit defines itself (Init, Process) are not AscendC APIs.
    assert unit.apis == [
        "Adds",
        "AllocTensor",
        "DataCopy",
        "DeQue",
        "EnQue",
        "FreeTensor",
        "InitBuffer",
        "Muls",
        "SetGlobalBuffer",
    ]
    assert unit.queue_positions == ["VECIN", "VECOUT"]
    assert unit.buffer_num == 2
    assert unit.core_type == "vector"
    assert unit.category == "elementwise" and unit.level == 1
    assert unit.license == "CANN-2.0"
    # No CANN headers here: the parse is tolerant, partial, and says why.
    assert unit.parse_status == "partial"
    assert unit.diagnostics and all(d.check == "clang" for d in unit.diagnostics)


def test_an_operator_s_pytorch_binding_is_read_with_its_host_code(tree):
    # MultiKernelBench's and EvoKernel's op trees carry the binding the op is called through in
    # `CppExtension/csrc/`: what the op computes around its kernel (`at::conv2d` before it). Left
    # out, EvoKernel's 162 trees audited as units were placed 89 right with neutral names, 120
    # read whole. A binding of another operator's folder is not this unit's.
    binding = """
        #include <torch/extension.h>
        at::Tensor scale_add_npu(const at::Tensor& x, const at::Tensor& w) {
            at::Tensor y = at::conv2d(x, w);
            EXEC_NPU_CMD(aclnnScaleAdd, y, y);
            return y;
        }
        PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("scale_add", &scale_add_npu); }
    """
    files = {
        **MSOPGEN,
        "math/scale_add/CppExtension/csrc/op.cpp": binding,
        "math/other/CppExtension/csrc/op.cpp": binding.replace("conv2d", "max_pool2d"),
    }
    unit = only(ingest(tree(files)), "scale_add")
    assert "at::conv2d" in unit.host_code and "max_pool2d" not in unit.host_code
    assert "OpDef" in unit.host_code and unit.op_def is not None and unit.op_def.op_type == "ScaleAdd"


def test_template_entry_with_if_constexpr_and_a_called_helper_entry(tree):
    root = tree(
        {
            "ops/softmax_v2/op_kernel/softmax_v2.cpp": """
                #include "kernel_operator.h"
                template <typename T, int MODE>
                __global__ __aicore__ void softmax_v2_impl(GM_ADDR x, GM_ADDR y) {
                    if constexpr (MODE == 0) {
                        AscendC::Exp(x, x, 8);
                    } else {
                        AscendC::ReduceMax(y, x, x, 8);
                    }
                }
                template <uint32_t schMode>
                __global__ __aicore__ void softmax_v2(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
                    softmax_v2_impl<float, schMode>(x, y);
                }
            """
        }
    )
    result = ingest(root)
    # The helper entry called by the public entry is part of the unit, not a unit of its own.
    unit = only(result, "softmax_v2")
    assert [(p.name, p.type) for p in unit.template_params] == [("schMode", "uint32_t")]
    assert unit.apis == ["Exp", "ReduceMax"]
    assert unit.category == "activation"


@pytest.mark.parametrize("main", ["main.cpp", "main.cc"])  # audit reads both as the host (dedup.tasks)
def test_direct_invoke_sample_takes_host_main(tree, main):
    root = tree(
        {
            "samples/leaky_relu_custom/leaky_relu_custom.cpp": """
                #include "kernel_operator.h"
                extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y) {
                    AscendC::LeakyRelu(y, x, 0.1f, 64);
                }
            """,
            f"samples/leaky_relu_custom/{main}": """
                #include "acl/acl.h"
                int main() { aclInit(nullptr); ACLRT_LAUNCH_KERNEL(leaky_relu_custom)(8, nullptr, nullptr, nullptr); }
            """,
        }
    )
    unit = only(ingest(root), "leaky_relu_custom")
    assert unit.layout == "direct-invoke"
    assert unit.op_name == "leaky_relu"
    assert "aclInit" in unit.host_code
    assert unit.apis == ["LeakyRelu"]


def test_single_source_asc_with_triple_chevron_launch(tree):
    root = tree(
        {
            "hello/vec_exp.asc": """
                #include "kernel_operator.h"
                __global__ __aicore__ void vec_exp(GM_ADDR x, GM_ADDR y, uint32_t n) {
                    AscendC::Exp(y, x, n);
                }
                int main() {
                    void* stream = nullptr;
                    vec_exp<<<8, nullptr, stream>>>(nullptr, nullptr, 1024);
                    return 0;
                }
            """
        }
    )
    result = ingest(root)
    unit = only(result, "vec_exp")
    assert unit.layout == "single-source"
    assert [p.name for p in unit.params] == ["x", "y", "n"]
    # The launch was hidden from clang without moving any line: no error points at it.
    assert not any("expected expression" in d.message for d in unit.diagnostics)
    assert "<<<8, nullptr, stream>>>" in unit.code  # the stored code is the original text


def test_catlass_kernel(tree):
    root = tree(
        {
            "catlass/basic_matmul/basic_matmul.cpp": """
                #include "catlass/catlass.hpp"
                template <class ArchTag>
                CATLASS_DEVICE void TileMma(GM_ADDR a) {}
                [[bisheng::core_ratio(1, 2)]]
                CATLASS_GLOBAL void basic_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
                    AscendC::Mmad(c, a, b, {});
                }
            """
        }
    )
    unit = only(ingest(root), "basic_matmul")
    assert unit.layout == "catlass"
    assert unit.category == "matmul"
    assert unit.core_type == "cube"


def test_plain_struct_tiling_and_cube_positions(tree):
    root = tree(
        {
            "mm/mat_mul_lite/op_kernel/mat_mul_lite_tiling_data.h": """
                #pragma once
                struct MatMulLiteTilingData { uint32_t m; uint32_t n; uint32_t k; uint32_t tile[2]; };
            """,
            "mm/mat_mul_lite/op_kernel/mat_mul_lite.cpp": """
                #define ASCENDC_CUBE_ONLY
                #include "kernel_operator.h"
                #include "mat_mul_lite_tiling_data.h"
                extern "C" __global__ __aicore__ void mat_mul_lite(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling) {
                    REGISTER_TILING_DEFAULT(MatMulLiteTilingData);
                    GET_TILING_DATA_WITH_STRUCT(MatMulLiteTilingData, t, tiling);
                    AscendC::TQue<AscendC::TPosition::A1, 1> qa;
                    AscendC::TQue<AscendC::TPosition::CO1, 1> qc;
                    AscendC::Mmad(c, a, b, {});
                }
            """,
        }
    )
    unit = only(ingest(root), "mat_mul_lite")
    assert unit.tiling_struct == "MatMulLiteTilingData"
    assert [(f.name, f.array_size) for f in unit.tiling_fields] == [("m", 0), ("n", 0), ("k", 0), ("tile", 2)]
    assert unit.queue_positions == ["A1", "CO1"]
    assert unit.core_type == "cube"
    assert unit.buffer_num == 1


def test_header_entry_included_by_entry_file_belongs_to_the_including_file(tree):
    root = tree(
        {
            "x/cplx/op_kernel/cplx_apt.cpp": '#include "kernel_operator.h"\n#include "arch35/cplx.h"\n',
            "x/cplx/op_kernel/arch35/cplx.h": """
                #pragma once
                __global__ __aicore__ void cplx(GM_ADDR re, GM_ADDR im, GM_ADDR out) { AscendC::Add(out, re, im, 8); }
            """,
            "y/lonely/lonely.h": "__global__ __aicore__ void lonely(GM_ADDR x) { AscendC::Abs(x, x, 8); }\n",
        }
    )
    result = ingest(root)
    assert only(result, "cplx").path == "x/cplx/op_kernel/cplx_apt.cpp"
    assert only(result, "lonely").path == "y/lonely/lonely.h"


def test_sibling_operator_include_with_dotdot_resolves_inside_the_repository(tree):
    root = tree(
        {
            "conv/tril/op_kernel/tril.cpp": """
                #include "../triu/arch35/tri_base.h"
                extern "C" __global__ __aicore__ void tril(GM_ADDR x, GM_ADDR y) { TriEntry(x, y); }
            """,
            "conv/triu/op_kernel/arch35/tri_base.h": """
                #pragma once
                __aicore__ inline void TriEntry(GM_ADDR x, GM_ADDR y) { AscendC::Select(y, x, x, 8); }
            """,
        }
    )
    unit = only(ingest(root), "tril")
    assert unit.includes == ["conv/triu/op_kernel/arch35/tri_base.h"]
    assert unit.apis == ["Select"]


def test_preprocessor_branch_parsed_is_recorded(tree):
    root = tree(
        {
            "k/k.cpp": """
                #if defined(__CCE_AICORE__) && __CCE_AICORE__ == 220
                extern "C" __global__ __aicore__ void seen(GM_ADDR x) { AscendC::Abs(x, x, 8); }
                #else
                extern "C" __global__ __aicore__ void hidden(GM_ADDR x) { AscendC::Abs(x, x, 8); }
                #endif
            """
        }
    )
    result = ingest(root)
    assert [u.kernel_name for u in result.units] == ["seen"]
    assert result.units[0].preprocessor == ["__CCE_AICORE__=220"]


def test_benchmark_task_layout_answer_is_a_unit_with_task_name(tree):
    root = tree(
        {
            "tasks/level1/Elementwise/AddCustom/answer/0/op_kernel/add_custom.cpp": """
                extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) { AscendC::Add(z, x, y, 8); }
            """
        }
    )
    unit = only(ingest(root), "add_custom")
    assert unit.layout == "benchmark-task"
    assert unit.op_name == "add"  # the msopgen "_custom" suffix is not part of the operator name


def test_unit_ids_are_stable_and_units_sorted(tree):
    root = tree(MSOPGEN)
    first, second = ingest(root), ingest(root)
    assert [u.unit_id for u in first.units] == [u.unit_id for u in second.units]
    assert [u.code for u in first.units] == [u.code for u in second.units]


def test_same_kernel_name_twice_in_one_file_gives_distinct_unit_ids(tree):
    root = tree(
        {
            "ops/roll/op_kernel/roll.cpp": """
                template <uint32_t schMode>
                __global__ __aicore__ void roll(GM_ADDR x, GM_ADDR y) { AscendC::Copy(y, x, 8); }
                extern "C" __global__ __aicore__ void roll(GM_ADDR x, GM_ADDR y) { AscendC::Copy(y, x, 8); }
            """
        }
    )
    units = ingest(root).units
    assert [u.kernel_name for u in units] == ["roll", "roll"]
    assert len({u.unit_id for u in units}) == 2
