project_json_src='''
[
    {
        "op": "ScalarOffsetAddCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "bias", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScalarOffsetAddTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLen);
  TILING_DATA_FIELD_DEF(uint64_t, perCore);     // elements per core, 32B aligned
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);     // elements per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScalarOffsetAddCustom, ScalarOffsetAddTilingData)
}
"""

host_operator_src="""
#include "scalar_offset_add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_CAP_BYTES = 16 * 1024;   // per buffer; in + out queues, double buffered
constexpr uint32_t MIN_PER_CORE_BYTES = 2048;    // avoid launching cores for tiny slices

class OffsetTilingPlanner {
public:
    OffsetTilingPlanner(uint64_t total, uint32_t typeSize, uint32_t coreNum)
        : total_(total), typeSize_(typeSize), coreNum_(coreNum) {}

    void Plan(ScalarOffsetAddTilingData& td) const
    {
        uint64_t align = 32 / typeSize_;
        uint64_t minPer = MIN_PER_CORE_BYTES / typeSize_;
        uint64_t cores = (total_ + minPer - 1) / minPer;
        if (cores > coreNum_) cores = coreNum_;
        if (cores == 0) cores = 1;
        uint64_t per = (total_ + cores - 1) / cores;
        per = (per + align - 1) / align * align;
        cores = (total_ + per - 1) / per;
        uint32_t tile = TILE_CAP_BYTES / typeSize_;
        if (tile > per) tile = static_cast<uint32_t>(per);
        td.set_totalLen(total_);
        td.set_perCore(per);
        td.set_tileLen(tile);
        td.set_usedCores(static_cast<uint32_t>(cores));
    }

private:
    uint64_t total_;
    uint32_t typeSize_;
    uint32_t coreNum_;
};

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScalarOffsetAddTilingData td;
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (context->GetInputShape(1)->GetStorageShape().GetShapeSize() != 1) {
        return ge::GRAPH_FAILED;   // only 0-d / single-element bias is supported
    }
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = dt == ge::DT_FLOAT16 ? 2 : 4;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    OffsetTilingPlanner planner(total, typeSize, plat.GetCoreNumAiv());
    planner.Plan(td);

    context->SetBlockDim(td.get_usedCores());
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ScalarOffsetAddCustom : public OpDef {
public:
    explicit ScalarOffsetAddCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScalarOffsetAddCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class ScalarOffsetAdd {
public:
    __aicore__ inline ScalarOffsetAdd() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, const ScalarOffsetAddTilingData& td)
    {
        uint64_t start = td.perCore * AscendC::GetBlockIdx();
        uint64_t remain = td.totalLen > start ? td.totalLen - start : 0;
        myLen = remain < td.perCore ? remain : td.perCore;
        tileLen = td.tileLen;

        xGm.SetGlobalBuffer((__gm__ T*)x + start, myLen);
        yGm.SetGlobalBuffer((__gm__ T*)y + start, myLen);
        AscendC::GlobalTensor<T> bGm;
        bGm.SetGlobalBuffer((__gm__ T*)bias, 1);
        shift = bGm.GetValue(0);   // single scalar, read once through the scalar unit

        pipe.InitBuffer(qIn, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(qOut, BUFFER_NUM, tileLen * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint64_t pos = 0; pos < myLen; pos += tileLen) {
            uint32_t n = (myLen - pos) < tileLen ? static_cast<uint32_t>(myLen - pos) : tileLen;
            Stage(pos, n);
            Shift(n);
            Flush(pos, n);
        }
    }

private:
    __aicore__ inline void Stage(uint64_t pos, uint32_t n)
    {
        AscendC::LocalTensor<T> in = qIn.AllocTensor<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(in, xGm[pos], cp, pad);
        qIn.EnQue(in);
    }

    __aicore__ inline void Shift(uint32_t n)
    {
        AscendC::LocalTensor<T> in = qIn.DeQue<T>();
        AscendC::LocalTensor<T> out = qOut.AllocTensor<T>();
        AscendC::Adds(out, in, shift, n);
        qOut.EnQue(out);
        qIn.FreeTensor(in);
    }

    __aicore__ inline void Flush(uint64_t pos, uint32_t n)
    {
        AscendC::LocalTensor<T> out = qOut.DeQue<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[pos], out, cp);
        qOut.FreeTensor(out);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> qIn;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> qOut;
    AscendC::GlobalTensor<T> xGm, yGm;
    T shift;
    uint64_t myLen;
    uint32_t tileLen;
};

template <typename T>
__aicore__ inline void RunScalarOffsetAdd(GM_ADDR x, GM_ADDR b, GM_ADDR y, const ScalarOffsetAddTilingData& td)
{
    ScalarOffsetAdd<T> op;
    op.Init(x, b, y, td);
    op.Process();
}

extern "C" __global__ __aicore__ void scalar_offset_add_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        RunScalarOffsetAdd<float>(x, bias, y, td);
    } else if (TILING_KEY_IS(1)) {
        RunScalarOffsetAdd<half>(x, bias, y, td);
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor scalar_offset_add_impl_npu(const at::Tensor& x, const at::Tensor& bias)
{
    TORCH_CHECK(bias.numel() == 1, "scalar_offset_add: bias must hold a single element");
    at::Tensor xc = x.contiguous();
    at::Tensor bc = bias.reshape({1}).to(x.scalar_type()).contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnScalarOffsetAddCustom, xc, bc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("scalar_offset_add_custom", &scalar_offset_add_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("scalar_offset_add_custom", &scalar_offset_add_impl_npu, "x + scalar bias");
}
"""
