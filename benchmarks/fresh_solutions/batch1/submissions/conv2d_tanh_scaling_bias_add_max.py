project_json_src='''
[
    {
        "op": "Conv2dTanhScalingBiasAddMaxCustom",
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
        ],
        "attr": [
            {
                "name": "scaling_factor",
                "param_type": "required",
                "type": "float"
            },
            {
                "name": "pool_size",
                "param_type": "required",
                "type": "int"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dTanhScalingBiasAddMaxCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);      // C of the conv output
  TILING_DATA_FIELD_DEF(uint32_t, inH);           // conv output height
  TILING_DATA_FIELD_DEF(uint32_t, inW);           // conv output width
  TILING_DATA_FIELD_DEF(uint32_t, outH);          // pooled height
  TILING_DATA_FIELD_DEF(uint32_t, outW);          // pooled width
  TILING_DATA_FIELD_DEF(uint32_t, poolK);         // pool kernel == stride
  TILING_DATA_FIELD_DEF(uint32_t, alignedW);      // inW rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, alignedOutW);   // outW rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore); // (n, c) planes for most cores
  TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);    // first cores take one extra plane
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dTanhScalingBiasAddMaxCustom, Conv2dTanhScalingBiasAddMaxCustomTilingData)
}
"""

host_operator_src="""
#include "conv2d_tanh_scaling_bias_add_max_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv2dTanhScalingBiasAddMaxCustomTilingData tiling;
    auto shape = context->GetInputShape(0)->GetOriginShape();   // [N, C, H, W]
    const uint32_t n = shape.GetDim(0);
    const uint32_t c = shape.GetDim(1);
    const uint32_t h = shape.GetDim(2);
    const uint32_t w = shape.GetDim(3);

    const auto attrs = context->GetAttrs();
    const float scale = *(attrs->GetFloat(0));
    uint32_t k = static_cast<uint32_t>(*(attrs->GetInt(1)));
    if (k == 0) {
        return ge::GRAPH_FAILED;
    }

    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendc.GetCoreNumAiv();
    const uint32_t planes = n * c;
    if (coreNum == 0) coreNum = 1;
    if (coreNum > planes) coreNum = planes;

    tiling.set_channels(c);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_outH(h / k);
    tiling.set_outW(w / k);
    tiling.set_poolK(k);
    tiling.set_alignedW(AlignUp(w, 8));
    tiling.set_alignedOutW(AlignUp(w / k, 8));
    tiling.set_planesPerCore(planes / coreNum);
    tiling.set_bigCoreNum(planes % coreNum);
    tiling.set_scale(scale);

    context->SetBlockDim(coreNum);
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
    const gert::Shape* xShape = context->GetInputShape(0);
    const int64_t k = *(context->GetAttrs()->GetInt(1));
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(4);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, xShape->GetDim(1));
    yShape->SetDim(2, xShape->GetDim(2) / k);
    yShape->SetDim(3, xShape->GetDim(3) / k);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv2dTanhScalingBiasAddMaxCustom : public OpDef {
public:
    explicit Conv2dTanhScalingBiasAddMaxCustom(const char* name) : OpDef(name)
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
        this->Attr("scaling_factor").AttrType(REQUIRED).Float();
        this->Attr("pool_size").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Conv2dTanhScalingBiasAddMaxCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Epilogue of conv2d: y = maxpool_k( tanh(x) * scale + bias[c] ).
// One work item is one pooled output row: we bring in the k input rows that
// feed it, run the elementwise part on all of them, reduce the k rows with a
// vector Max and finally reduce each k-wide window with scalar code.
class KernelConv2dTanhScalingBiasAddMax {
public:
    __aicore__ inline KernelConv2dTanhScalingBiasAddMax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                const Conv2dTanhScalingBiasAddMaxCustomTilingData& t)
    {
        channels = t.channels;
        inH = t.inH;
        inW = t.inW;
        outH = t.outH;
        outW = t.outW;
        k = t.poolK;
        alignedW = t.alignedW;
        alignedOutW = t.alignedOutW;
        scale = t.scale;

        uint32_t idx = GetBlockIdx();
        if (idx < t.bigCoreNum) {
            planeCount = t.planesPerCore + 1;
            planeStart = idx * planeCount;
        } else {
            planeCount = t.planesPerCore;
            planeStart = t.bigCoreNum * (t.planesPerCore + 1) + (idx - t.bigCoreNum) * t.planesPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, channels);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(inQueue, BUFFER_NUM, k * alignedW * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, alignedOutW * sizeof(float));
        pipe.InitBuffer(workBuf, k * alignedW * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = 0; p < planeCount; ++p) {
            uint32_t plane = planeStart + p;
            float b = biasGm.GetValue(plane % channels);
            uint64_t inBase = static_cast<uint64_t>(plane) * inH * inW;
            uint64_t outBase = static_cast<uint64_t>(plane) * outH * outW;
            for (uint32_t r = 0; r < outH; ++r) {
                CopyIn(inBase + static_cast<uint64_t>(r) * k * inW);
                Compute(b);
                CopyOut(outBase + static_cast<uint64_t>(r) * outW);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        // k rows, each inW floats, land at a 32B aligned stride of alignedW in UB
        DataCopyExtParams params{static_cast<uint16_t>(k), static_cast<uint32_t>(inW * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[offset], params, pad);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(float b)
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        const uint32_t total = k * alignedW;

        // tanh -> *scale -> +bias, done on every element so the result is
        // correct for any sign of the scaling factor.
        Tanh(work, xLocal, total);
        Muls(work, work, scale, total);
        Adds(work, work, b, total);
        inQueue.FreeTensor(xLocal);

        // vertical reduction: row 0 = max over the k rows
        for (uint32_t i = 1; i < k; ++i) {
            Max(work, work, work[i * alignedW], alignedW);
        }

        // horizontal reduction over each window of k columns, scalar side
        event_t vToS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);
        for (uint32_t ow = 0; ow < outW; ++ow) {
            uint32_t base = ow * k;
            float m = work.GetValue(base);
            for (uint32_t j = 1; j < k; ++j) {
                float v = work.GetValue(base + j);
                m = v > m ? v : m;
            }
            yLocal.SetValue(ow, m);
        }
        event_t sToMte3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(sToMte3);
        WaitFlag<HardEvent::S_MTE3>(sToMte3);
        outQueue.EnQue(yLocal);
    }

    __aicore__ inline void CopyOut(uint64_t offset)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(outW * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[offset], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> workBuf;
    GlobalTensor<float> xGm, biasGm, yGm;
    uint32_t channels, inH, inW, outH, outW, k, alignedW, alignedOutW;
    uint32_t planeStart, planeCount;
    float scale;
};

extern "C" __global__ __aicore__ void conv2d_tanh_scaling_bias_add_max_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelConv2dTanhScalingBiasAddMax op;
    op.Init(x, bias, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv2d is left to the NPU conv kernel; tanh/scale/bias/maxpool are fused in the custom op
at::Tensor conv2d_tanh_scaling_bias_add_max_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                          const at::Tensor& conv_bias, const at::Tensor& bias,
                                                          double scaling_factor, int64_t pool_size)
{
    at::Tensor conv = at::conv2d(x, weight, conv_bias).contiguous();
    at::Tensor biasFlat = bias.reshape({-1}).contiguous();
    auto n = conv.size(0);
    auto c = conv.size(1);
    auto oh = conv.size(2) / pool_size;
    auto ow = conv.size(3) / pool_size;
    at::Tensor result = at::empty({n, c, oh, ow}, conv.options());
    EXEC_NPU_CMD(aclnnConv2dTanhScalingBiasAddMaxCustom, conv, biasFlat, scaling_factor, pool_size, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_tanh_scaling_bias_add_max_custom", &conv2d_tanh_scaling_bias_add_max_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_tanh_scaling_bias_add_max_custom", &conv2d_tanh_scaling_bias_add_max_custom_impl_npu,
          "conv2d + tanh + scaling + bias add + maxpool2d");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, scaling_factor, bias_shape, pool_kernel_size):
        super().__init__()
        self.conv = torch.nn.Conv2d(in_channels, out_channels, kernel_size)
        self.scaling_factor = scaling_factor
        self.bias = torch.nn.Parameter(torch.randn(bias_shape))
        self.pool_kernel_size = pool_kernel_size

    def forward(self, x):
        return custom_ops_lib.conv2d_tanh_scaling_bias_add_max_custom(
            x, self.conv.weight, self.conv.bias, self.bias, self.scaling_factor, self.pool_kernel_size)
'''
