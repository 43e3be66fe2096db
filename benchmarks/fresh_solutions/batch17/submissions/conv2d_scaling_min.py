project_json_src='''
[
    {
        "op": "Conv2dScalingMinCustom",
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
        ],
        "attr": [
            {
                "name": "scale_factor",
                "param_type": "optional",
                "type": "float",
                "default_value": "1.0"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dScalingMinCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, hw);
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);       // spatial elements per work item
  TILING_DATA_FIELD_DEF(uint32_t, chunksPerImage);
  TILING_DATA_FIELD_DEF(uint32_t, totalChunks);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dScalingMinCustom, Conv2dScalingMinCustomTilingData)
}
"""

host_operator_src="""
#include "conv2d_scaling_min_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t CHUNK = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv2dScalingMinCustomTilingData tiling;
    auto shape = context->GetInputShape(0)->GetStorageShape();      // conv output (N, C, H, W)
    uint32_t n = shape.GetDim(0);
    uint32_t c = shape.GetDim(1);
    uint32_t hw = shape.GetDim(2) * shape.GetDim(3);
    const float* sf = context->GetAttrs()->GetFloat(0);

    uint32_t chunksPerImage = (hw + CHUNK - 1) / CHUNK;
    uint32_t total = n * chunksPerImage;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    context->SetBlockDim(total < cores ? total : cores);

    tiling.set_batch(n);
    tiling.set_channels(c);
    tiling.set_hw(hw);
    tiling.set_chunkLen(CHUNK);
    tiling.set_chunksPerImage(chunksPerImage);
    tiling.set_totalChunks(total);
    tiling.set_scale(sf == nullptr ? 1.0f : *sf);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    *y = *x;
    y->SetDim(1, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv2dScalingMinCustom : public OpDef {
public:
    explicit Conv2dScalingMinCustom(const char* name) : OpDef(name)
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
        this->Attr("scale_factor").AttrType(OPTIONAL).Float(1.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Conv2dScalingMinCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y[n, 0, p] = min_c (scale * x[n, c, p])
// For scale >= 0 this is scale * min_c x, for a negative scale the order flips and it
// becomes scale * max_c x. A work item = (image n, spatial chunk); channels are streamed
// through a double-buffered queue and folded into a running min/max.
class KernelConv2dScalingMin {
public:
    __aicore__ inline KernelConv2dScalingMin() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t batch, uint32_t channels, uint32_t hw,
                                uint32_t chunkLen, uint32_t chunksPerImage, uint32_t totalChunks, float scale)
    {
        C = channels;
        HW = hw;
        chunk = chunkLen;
        perImage = chunksPerImage;
        total = totalChunks;
        sf = scale;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)batch * channels * hw);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)batch * hw);

        pipe.InitBuffer(inQueue, BUFFER_NUM, chunk * sizeof(float));
        pipe.InitBuffer(outQueue, 1, chunk * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t w = AscendC::GetBlockIdx(); w < total; w += AscendC::GetBlockNum()) {
            uint32_t n = w / perImage;
            uint32_t p0 = (w % perImage) * chunk;
            uint32_t len = (HW - p0 < chunk) ? (HW - p0) : chunk;
            DoChunk(n, p0, len);
        }
    }

private:
    __aicore__ inline void LoadChannel(uint64_t gmOff, uint32_t len)
    {
        AscendC::LocalTensor<float> t = inQueue.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(t, xGm[gmOff], cp, pad);
        inQueue.EnQue(t);
    }

    __aicore__ inline void DoChunk(uint32_t n, uint32_t p0, uint32_t len)
    {
        uint64_t base = (uint64_t)n * C * HW + p0;
        AscendC::LocalTensor<float> acc = outQueue.AllocTensor<float>();

        LoadChannel(base, len);
        AscendC::LocalTensor<float> first = inQueue.DeQue<float>();
        AscendC::DataCopy(acc, first, (len + 7) / 8 * 8);
        inQueue.FreeTensor(first);

        for (uint32_t c = 1; c < C; c++) {
            LoadChannel(base + (uint64_t)c * HW, len);
            AscendC::LocalTensor<float> cur = inQueue.DeQue<float>();
            if (sf >= 0.0f) {
                AscendC::Min(acc, acc, cur, len);
            } else {
                AscendC::Max(acc, acc, cur, len);
            }
            inQueue.FreeTensor(cur);
        }
        AscendC::Muls(acc, acc, sf, len);
        outQueue.EnQue(acc);

        AscendC::LocalTensor<float> res = outQueue.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[(uint64_t)n * HW + p0], res, cp);
        outQueue.FreeTensor(res);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t C, HW, chunk, perImage, total;
    float sf;
};

extern "C" __global__ __aicore__ void conv2d_scaling_min_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelConv2dScalingMin op;
    op.Init(x, y, tiling_data.batch, tiling_data.channels, tiling_data.hw, tiling_data.chunkLen,
            tiling_data.chunksPerImage, tiling_data.totalChunks, tiling_data.scale);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv2d_scaling_min_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                              const at::Tensor& bias, double scale_factor)
{
    at::Tensor conv = at::conv2d(x, weight, bias).contiguous();
    auto sizes = conv.sizes().vec();
    sizes[1] = 1;
    at::Tensor y = at::empty(sizes, conv.options());
    EXEC_NPU_CMD(aclnnConv2dScalingMinCustom, conv, scale_factor, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_scaling_min_custom", &conv2d_scaling_min_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_scaling_min_custom", &conv2d_scaling_min_custom_impl_npu, "conv2d, scale, min over channels");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, scale_factor):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.scale_factor = scale_factor

    def forward(self, x):
        return custom_ops_lib.conv2d_scaling_min_custom(x, self.conv.weight, self.conv.bias,
                                                        float(self.scale_factor))
'''
