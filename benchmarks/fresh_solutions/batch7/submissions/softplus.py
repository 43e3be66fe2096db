project_json_src='''
[
    {
        "op": "SoftplusCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
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
BEGIN_TILING_DATA_DEF(SoftplusCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, total);
  TILING_DATA_FIELD_DEF(uint64_t, bigCoreLen);
  TILING_DATA_FIELD_DEF(uint64_t, smallCoreLen);
  TILING_DATA_FIELD_DEF(uint32_t, bigCoreCnt);
  TILING_DATA_FIELD_DEF(uint32_t, tileSize);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SoftplusCustom, SoftplusCustomTilingData)
}
"""

host_operator_src="""
#include "softplus_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const uint64_t blk = 8;   // floats per 32B block
    const uint32_t tile = 8192;

    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    uint64_t blocks = (total + blk - 1) / blk;
    if (coreNum == 0) coreNum = 1;
    if (blocks < coreNum) coreNum = static_cast<uint32_t>(blocks == 0 ? 1 : blocks);

    // big cores take one extra 32B block
    uint64_t small = blocks / coreNum;
    uint32_t bigCnt = static_cast<uint32_t>(blocks % coreNum);

    SoftplusCustomTilingData td;
    td.set_total(total);
    td.set_bigCoreLen((small + 1) * blk);
    td.set_smallCoreLen(small * blk);
    td.set_bigCoreCnt(bigCnt);
    td.set_tileSize(tile);

    context->SetBlockDim(coreNum);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
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
class SoftplusCustom : public OpDef {
public:
    explicit SoftplusCustom(const char* name) : OpDef(name)
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

OP_ADD(SoftplusCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

class KernelSoftplus {
public:
    __aicore__ inline KernelSoftplus() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t total, uint64_t bigLen, uint64_t smallLen,
                                uint32_t bigCnt, uint32_t tileSize)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint64_t offset;
        if (idx < bigCnt) {
            offset = bigLen * idx;
            len = bigLen;
        } else {
            offset = bigLen * bigCnt + smallLen * (idx - bigCnt);
            len = smallLen;
        }
        // last core may cover padding past the tensor end
        if (offset >= total) {
            len = 0;
        } else if (offset + len > total) {
            len = total - offset;
        }
        tileLen = tileSize;

        xGm.SetGlobalBuffer((__gm__ float*)x + offset, len);
        yGm.SetGlobalBuffer((__gm__ float*)y + offset, len);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t loops = (len + tileLen - 1) / tileLen;
        for (uint64_t i = 0; i < loops; i++) {
            uint64_t off = i * tileLen;
            uint32_t cur = (len - off >= tileLen) ? tileLen : static_cast<uint32_t>(len - off);
            CopyIn(off, cur);
            Compute(cur);
            CopyOut(off, cur);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t cur)
    {
        AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(cur * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xLocal, xGm[off], cp, pp);
        inQueue.EnQue(xLocal);
    }

    // softplus(x) = max(x, 0) + log(1 + exp(-|x|)), stable for large |x|
    __aicore__ inline void Compute(uint32_t cur)
    {
        AscendC::LocalTensor<float> xLocal = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        for (uint32_t i = 0; i < cur; i++) {
            float v = xLocal.GetValue(i);
            float av = v < 0.0f ? -v : v;
            float pos = v > 0.0f ? v : 0.0f;
            float r;
            if (v > 20.0f) {
                r = v;
            } else {
                r = pos + logf(1.0f + expf(-av));
            }
            yLocal.SetValue(i, r);
        }
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t cur)
    {
        AscendC::LocalTensor<float> yLocal = outQueue.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(cur * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[off], yLocal, cp);
        outQueue.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint64_t len = 0;
    uint32_t tileLen = 0;
};

extern "C" __global__ __aicore__ void softplus_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelSoftplus op;
    op.Init(x, y, tiling_data.total, tiling_data.bigCoreLen, tiling_data.smallCoreLen,
            tiling_data.bigCoreCnt, tiling_data.tileSize);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor softplus_custom_impl_npu(const at::Tensor& x)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnSoftplusCustom, xc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("softplus_custom", &softplus_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("softplus_custom", &softplus_custom_impl_npu, "softplus(x), beta=1, threshold=20");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.softplus_custom(x)
'''
