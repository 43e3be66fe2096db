project_json_src='''
[
    {
        "op": "MinGptNewGeluCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MinGptNewGeluCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);
  TILING_DATA_FIELD_DEF(uint64_t, coreLength);    // elements per core (multiple of tileLength except last core)
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MinGptNewGeluCustom, MinGptNewGeluCustomTilingData)
}
"""

host_operator_src="""
#include "min_gpt_new_gelu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LEN = 8192;   // 32KB fp32 per tile

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MinGptNewGeluCustomTilingData tiling;
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;

    // give each core a whole number of tiles; the last core takes the leftovers
    uint64_t tiles = (total + TILE_LEN - 1) / TILE_LEN;
    if (cores > tiles) cores = tiles;
    uint64_t tilesPerCore = (tiles + cores - 1) / cores;
    uint64_t coreLen = tilesPerCore * TILE_LEN;
    cores = (total + coreLen - 1) / coreLen;

    tiling.set_totalLength(total);
    tiling.set_coreLength(coreLen);
    tiling.set_tileLength(TILE_LEN);
    context->SetBlockDim(static_cast<uint32_t>(cores));

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
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
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MinGptNewGeluCustom : public OpDef {
public:
    explicit MinGptNewGeluCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MinGptNewGeluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float GELU_C = 0.044715f;
constexpr float SQRT_2_OVER_PI = 0.7978845608028654f;

// 0.5 * x * (1 + tanh(u)) == x * sigmoid(2u) == x / (1 + exp(-2u)),
// u = sqrt(2/pi) * (x + 0.044715 x^3)
class KernelNewGelu {
public:
    __aicore__ inline KernelNewGelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t total, uint64_t coreLen, uint32_t tileLen)
    {
        uint64_t start = coreLen * GetBlockIdx();
        myLen = (start + coreLen <= total) ? coreLen : (total - start);
        this->tileLen = tileLen;

        xGm.SetGlobalBuffer((__gm__ float*)x + start, myLen);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, myLen);
        pipe.InitBuffer(inQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t fullTiles = static_cast<uint32_t>(myLen / tileLen);
        uint32_t rest = static_cast<uint32_t>(myLen % tileLen);
        for (uint32_t t = 0; t < fullTiles; ++t) {
            CopyIn(t, tileLen);
            Compute(tileLen);
            CopyOut(t, tileLen);
        }
        if (rest > 0) {
            CopyIn(fullTiles, rest);
            Compute(rest);
            CopyOut(fullTiles, rest);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t t, uint32_t len)
    {
        LocalTensor<float> xl = inQ.AllocTensor<float>();
        DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xl, xGm[(uint64_t)t * tileLen], cp, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<float> xl = inQ.DeQue<float>();
        LocalTensor<float> yl = outQ.AllocTensor<float>();
        LocalTensor<float> t = tmpBuf.Get<float>();

        Mul(t, xl, xl, len);                          // x^2
        Muls(t, t, GELU_C, len);                      // c x^2
        Adds(t, t, 1.0f, len);                        // 1 + c x^2
        Mul(t, t, xl, len);                           // x + c x^3
        Muls(t, t, -2.0f * SQRT_2_OVER_PI, len);      // -2u
        Exp(t, t, len);
        Adds(t, t, 1.0f, len);                        // 1 + exp(-2u)
        Div(yl, xl, t, len);

        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint32_t t, uint32_t len)
    {
        LocalTensor<float> yl = outQ.DeQue<float>();
        DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[(uint64_t)t * tileLen], yl, cp);
        outQ.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<QuePosition::VECCALC> tmpBuf;
    GlobalTensor<float> xGm, yGm;
    uint64_t myLen;
    uint32_t tileLen;
};

extern "C" __global__ __aicore__ void min_gpt_new_gelu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelNewGelu op;
    op.Init(x, y, td.totalLength, td.coreLength, td.tileLength);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor min_gpt_new_gelu_custom_impl_npu(const at::Tensor& x)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnMinGptNewGeluCustom, xc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("min_gpt_new_gelu_custom", &min_gpt_new_gelu_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("min_gpt_new_gelu_custom", &min_gpt_new_gelu_custom_impl_npu, "minGPT NewGELU (tanh approximation)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x):
        return custom_ops_lib.min_gpt_new_gelu_custom(x)
'''
