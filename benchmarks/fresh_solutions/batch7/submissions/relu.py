project_json_src='''
[
    {
        "op": "ReluCustom",
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
BEGIN_TILING_DATA_DEF(ReluCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, elemCount);
  TILING_DATA_FIELD_DEF(uint64_t, coreSpan);
  TILING_DATA_FIELD_DEF(uint32_t, ubChunk);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReluCustom, ReluCustomTilingData)
}
"""

host_operator_src="""
#include "relu_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
const uint32_t CORE_NUM = 48;
const uint32_t CHUNK = 16384;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ReluCustomTilingData tiling;
    uint64_t n = context->GetInputShape(0)->GetOriginShape().GetShapeSize();

    // split by 32B-aligned spans so every core starts on an aligned address
    uint64_t span = (n + CORE_NUM - 1) / CORE_NUM;
    span = (span + 7) / 8 * 8;
    if (span == 0) span = 8;
    uint32_t blocks = static_cast<uint32_t>((n + span - 1) / span);
    if (blocks == 0) blocks = 1;

    tiling.set_elemCount(n);
    tiling.set_coreSpan(span);
    tiling.set_ubChunk(CHUNK);
    context->SetBlockDim(blocks);

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
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    *out = *in;
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ReluCustom : public OpDef {
public:
    explicit ReluCustom(const char* name) : OpDef(name)
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

OP_ADD(ReluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t QUEUE_DEPTH = 2;

class ReluKernel {
public:
    __aicore__ inline ReluKernel() {}
    __aicore__ inline void Init(GM_ADDR src, GM_ADDR dst, uint64_t n, uint64_t span, uint32_t chunk)
    {
        uint64_t start = span * GetBlockIdx();
        count = 0;
        if (start < n) {
            count = (n - start < span) ? (n - start) : span;
        }
        chunkLen = chunk;
        srcGm.SetGlobalBuffer((__gm__ float*)src + start, count);
        dstGm.SetGlobalBuffer((__gm__ float*)dst + start, count);
        pipe.InitBuffer(qx, QUEUE_DEPTH, chunkLen * sizeof(float));
        pipe.InitBuffer(qy, QUEUE_DEPTH, chunkLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t pos = 0;
        while (pos < count) {
            uint32_t len = (count - pos > chunkLen) ? chunkLen : static_cast<uint32_t>(count - pos);
            Fetch(pos, len);
            Apply(len);
            Flush(pos, len);
            pos += len;
        }
    }

private:
    __aicore__ inline void Fetch(uint64_t pos, uint32_t len)
    {
        LocalTensor<float> buf = qx.AllocTensor<float>();
        DataCopyExtParams prm{1, len * 4u, 0, 0, 0};
        DataCopyPadExtParams<float> padPrm{false, 0, 0, 0.0f};
        DataCopyPad(buf, srcGm[pos], prm, padPrm);
        qx.EnQue(buf);
    }

    __aicore__ inline void Apply(uint32_t len)
    {
        LocalTensor<float> in = qx.DeQue<float>();
        LocalTensor<float> out = qy.AllocTensor<float>();
        for (uint32_t i = 0; i < len; ++i) {
            float v = in.GetValue(i);
            out.SetValue(i, v > 0.0f ? v : 0.0f);
        }
        qy.EnQue(out);
        qx.FreeTensor(in);
    }

    __aicore__ inline void Flush(uint64_t pos, uint32_t len)
    {
        LocalTensor<float> out = qy.DeQue<float>();
        DataCopyExtParams prm{1, len * 4u, 0, 0, 0};
        DataCopyPad(dstGm[pos], out, prm);
        qy.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, QUEUE_DEPTH> qx;
    TQue<QuePosition::VECOUT, QUEUE_DEPTH> qy;
    GlobalTensor<float> srcGm, dstGm;
    uint64_t count = 0;
    uint32_t chunkLen = 0;
};

extern "C" __global__ __aicore__ void relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    ReluKernel k;
    k.Init(x, y, t.elemCount, t.coreSpan, t.ubChunk);
    k.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor relu_custom_impl_npu(const at::Tensor& self)
{
    at::Tensor src = self.contiguous();
    at::Tensor result = at::empty_like(src);
    EXEC_NPU_CMD(aclnnReluCustom, src, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("relu_custom", &relu_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("relu_custom", &relu_custom_impl_npu, "relu(x)");
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
        return custom_ops_lib.relu_custom(x)
'''
