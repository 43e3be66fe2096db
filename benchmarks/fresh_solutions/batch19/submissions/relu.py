project_json_src='''
[
    {
        "op": "PositivePartCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
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
BEGIN_TILING_DATA_DEF(PositivePartTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalElems);
  TILING_DATA_FIELD_DEF(uint64_t, perCore);        // elements per core, 32B aligned except for the last core
  TILING_DATA_FIELD_DEF(uint32_t, tileElems);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PositivePartCustom, PositivePartTilingData)
}
"""

host_operator_src="""
#include "positive_part_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_BYTES = 32 * 1024;   // per buffer; in x2 + out x2 = 128KB of UB
constexpr uint32_t BLOCK_BYTES = 32;

struct FlatSplit {
    uint64_t perCore;
    uint32_t cores;
};

static FlatSplit SplitFlat(uint64_t total, uint32_t maxCores, uint32_t elemBytes)
{
    uint64_t alignElems = BLOCK_BYTES / elemBytes;
    uint64_t per = (total + maxCores - 1) / maxCores;
    per = (per + alignElems - 1) / alignElems * alignElems;
    if (per == 0) {
        per = alignElems;
    }
    uint32_t cores = static_cast<uint32_t>((total + per - 1) / per);
    return {per, cores == 0 ? 1u : cores};
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    uint64_t total = static_cast<uint64_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elemBytes = dt == ge::DT_FLOAT16 ? 2 : 4;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    FlatSplit sp = SplitFlat(total, coreNum == 0 ? 1 : coreNum, elemBytes);

    PositivePartTilingData td;
    td.set_totalElems(total);
    td.set_perCore(sp.perCore);
    td.set_tileElems(TILE_BYTES / elemBytes);

    context->SetBlockDim(sp.cores);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class PositivePartCustom : public OpDef {
public:
    explicit PositivePartCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PositivePartCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class PositivePart {
public:
    __aicore__ inline PositivePart() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t total, uint64_t perCore, uint32_t tileElems)
    {
        uint64_t start = perCore * AscendC::GetBlockIdx();
        myLen = (start >= total) ? 0 : ((total - start) < perCore ? (total - start) : perCore);
        tile = tileElems;
        xGm.SetGlobalBuffer((__gm__ T *)x + start, myLen);
        yGm.SetGlobalBuffer((__gm__ T *)y + start, myLen);
        pipe.InitBuffer(inQ, BUFFER_NUM, tile * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tile * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        uint64_t fullTiles = myLen / tile;
        uint32_t rest = static_cast<uint32_t>(myLen % tile);
        for (uint64_t i = 0; i < fullTiles; ++i) {
            Step(i * tile, tile);
        }
        if (rest > 0) {
            Step(fullTiles * tile, rest);
        }
    }

private:
    __aicore__ inline void Step(uint64_t off, uint32_t n)
    {
        // in
        AscendC::LocalTensor<T> xl = inQ.AllocTensor<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(xl, xGm[off], cp, pad);
        inQ.EnQue(xl);

        // compute
        xl = inQ.DeQue<T>();
        AscendC::LocalTensor<T> yl = outQ.AllocTensor<T>();
        AscendC::Relu(yl, xl, n);
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);

        // out
        yl = outQ.DeQue<T>();
        AscendC::DataCopyPad(yGm[off], yl, cp);
        outQ.FreeTensor(yl);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    uint64_t myLen = 0;
    uint32_t tile = 0;
};

template <typename T>
__aicore__ inline void LaunchPositivePart(GM_ADDR x, GM_ADDR y, uint64_t total, uint64_t perCore, uint32_t tile)
{
    PositivePart<T> op;
    op.Init(x, y, total, perCore, tile);
    op.Process();
}

extern "C" __global__ __aicore__ void positive_part_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        LaunchPositivePart<half>(x, y, td.totalElems, td.perCore, td.tileElems);
    } else if (TILING_KEY_IS(0)) {
        LaunchPositivePart<float>(x, y, td.totalElems, td.perCore, td.tileElems);
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor positive_part_npu(const at::Tensor &x)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnPositivePartCustom, xc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("positive_part_custom", &positive_part_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("positive_part_custom", &positive_part_npu, "max(x, 0)");
}
"""
