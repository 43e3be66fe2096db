project_json_src='''
[
    {
        "op": "AddBiasBroadcastCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "bias",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddBiasBroadcastCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
  TILING_DATA_FIELD_DEF(uint32_t, blockLength);   // elements per core (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddBiasBroadcastCustom, AddBiasBroadcastCustomTilingData)
}
"""

host_operator_src="""
#include "add_bias_broadcast_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MIN_PER_CORE = 1024;  // do not spread tiny inputs over every core
constexpr uint32_t TILE = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AddBiasBroadcastCustomTilingData tiling;
    uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t maxCores = plat.GetCoreNumAiv();

    uint32_t cores = (total + MIN_PER_CORE - 1) / MIN_PER_CORE;
    if (cores > maxCores) cores = maxCores;
    if (cores == 0) cores = 1;

    uint32_t blockLen = (total + cores - 1) / cores;
    blockLen = (blockLen + 7) / 8 * 8;
    cores = (total + blockLen - 1) / blockLen;
    if (cores == 0) cores = 1;

    tiling.set_totalLength(total);
    tiling.set_blockLength(blockLen);
    tiling.set_tileLength(blockLen < TILE ? blockLen : TILE);

    context->SetBlockDim(cores);
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
class AddBiasBroadcastCustom : public OpDef {
public:
    explicit AddBiasBroadcastCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
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

OP_ADD(AddBiasBroadcastCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y = x + bias where bias is a 0-d tensor: read it once as a scalar, then Adds per tile.
class KernelAddBiasBroadcast {
public:
    __aicore__ inline KernelAddBiasBroadcast() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                uint32_t totalLength, uint32_t blockLength, uint32_t tileLength)
    {
        uint32_t start = blockLength * AscendC::GetBlockIdx();
        this->len = (start + blockLength <= totalLength) ? blockLength : (totalLength - start);
        this->tileLength = tileLength;

        xGm.SetGlobalBuffer((__gm__ float*)x + start, this->len);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, this->len);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, 1);
        this->biasVal = biasGm.GetValue(0);

        pipe.InitBuffer(inQ, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t off = 0; off < len; off += tileLength) {
            uint32_t cnt = (len - off) < tileLength ? (len - off) : tileLength;
            CopyIn(off, cnt);
            Compute(cnt);
            CopyOut(off, cnt);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t cnt)
    {
        AscendC::LocalTensor<float> xl = inQ.AllocTensor<float>();
        if (cnt % 8 == 0) {
            AscendC::DataCopy(xl, xGm[off], cnt);
        } else {
            AscendC::DataCopyExtParams p{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(xl, xGm[off], p, pad);
        }
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t cnt)
    {
        AscendC::LocalTensor<float> xl = inQ.DeQue<float>();
        AscendC::LocalTensor<float> yl = outQ.AllocTensor<float>();
        AscendC::Adds(yl, xl, biasVal, cnt);
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint32_t off, uint32_t cnt)
    {
        AscendC::LocalTensor<float> yl = outQ.DeQue<float>();
        if (cnt % 8 == 0) {
            AscendC::DataCopy(yGm[off], yl, cnt);
        } else {
            AscendC::DataCopyExtParams p{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[off], yl, p);
        }
        outQ.FreeTensor(yl);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::GlobalTensor<float> xGm, yGm, biasGm;
    uint32_t len;
    uint32_t tileLength;
    float biasVal;
};

extern "C" __global__ __aicore__ void add_bias_broadcast_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelAddBiasBroadcast op;
    op.Init(x, bias, y, td.totalLength, td.blockLength, td.tileLength);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor add_bias_broadcast_custom_impl_npu(const at::Tensor& x, const at::Tensor& bias)
{
    TORCH_CHECK(bias.numel() == 1, "add_bias_broadcast_custom expects a scalar bias");
    at::Tensor xc = x.contiguous();
    at::Tensor b = bias.reshape({1}).to(xc.scalar_type()).contiguous();
    at::Tensor result = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnAddBiasBroadcastCustom, xc, b, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("add_bias_broadcast_custom", &add_bias_broadcast_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("add_bias_broadcast_custom", &add_bias_broadcast_custom_impl_npu, "x + scalar bias");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, bias):
        return custom_ops_lib.add_bias_broadcast_custom(x, bias)
'''
