project_json_src='''
[
    {
        "op": "EfficientnetB1Custom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "scale", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "shift", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "act_mode", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
// Fused "BatchNorm apply + activation" used after every conv of EfficientNet-B1.
BEGIN_TILING_DATA_DEF(EfficientnetB1CustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);    // H * W
  TILING_DATA_FIELD_DEF(uint32_t, planeNum);     // N * C
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, actMode);      // 0: none, 1: relu, 2: relu6
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(EfficientnetB1Custom, EfficientnetB1CustomTilingData)
}
"""

host_operator_src="""
#include "efficientnet_b1_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    EfficientnetB1CustomTilingData tiling;
    auto shape = context->GetInputShape(0)->GetOriginShape();   // NCHW
    uint32_t n = shape.GetDim(0);
    uint32_t c = shape.GetDim(1);
    uint32_t plane = 1;
    for (size_t i = 2; i < shape.GetDimNum(); i++) {
        plane *= shape.GetDim(i);
    }
    uint32_t planes = n * c;
    int64_t mode = *context->GetAttrs()->GetInt(0);

    // planes range from 120x120 down to 8x8, keep the tile no larger than needed
    uint32_t tileLen = 8192;
    uint32_t planeAligned = (plane + 7) / 8 * 8;
    if (planeAligned < tileLen) tileLen = planeAligned;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blockDim = plat.GetCoreNumAiv();
    if (blockDim > planes) blockDim = planes;
    if (blockDim == 0) blockDim = 1;

    tiling.set_channels(c);
    tiling.set_planeSize(plane);
    tiling.set_planeNum(planes);
    tiling.set_tileLen(tileLen);
    tiling.set_actMode(static_cast<uint32_t>(mode));

    context->SetBlockDim(blockDim);
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
class EfficientnetB1Custom : public OpDef {
public:
    explicit EfficientnetB1Custom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("act_mode").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(EfficientnetB1Custom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t ACT_NONE = 0;
constexpr uint32_t ACT_RELU = 1;
constexpr uint32_t ACT_RELU6 = 2;

// y[n, c, :] = act( x[n, c, :] * scale[c] + shift[c] )
// scale/shift are the folded BatchNorm coefficients computed on the host side.
// Planes (n, c) are dealt round-robin over the vector cores.
class KernelBnAct {
public:
    __aicore__ inline KernelBnAct() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                const EfficientnetB1CustomTilingData& t)
    {
        channels = t.channels;
        planeSize = t.planeSize;
        planeNum = t.planeNum;
        tileLen = t.tileLen;
        actMode = t.actMode;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        scaleGm.SetGlobalBuffer((__gm__ float*)scale, channels);
        shiftGm.SetGlobalBuffer((__gm__ float*)shift, channels);

        pipe.InitBuffer(inQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const uint32_t step = AscendC::GetBlockNum();
        for (uint32_t p = AscendC::GetBlockIdx(); p < planeNum; p += step) {
            const uint32_t ch = p % channels;
            const float a = scaleGm.GetValue(ch);
            const float b = shiftGm.GetValue(ch);
            const uint64_t base = static_cast<uint64_t>(p) * planeSize;
            for (uint32_t off = 0; off < planeSize; off += tileLen) {
                uint32_t len = planeSize - off > tileLen ? tileLen : planeSize - off;
                CopyIn(base + off, len);
                Compute(len, a, b);
                CopyOut(base + off, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> xt = inQ.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xt, xGm[off], cp, pad);
        inQ.EnQue(xt);
    }

    __aicore__ inline void Compute(uint32_t len, float a, float b)
    {
        AscendC::LocalTensor<float> xt = inQ.DeQue<float>();
        AscendC::LocalTensor<float> yt = outQ.AllocTensor<float>();
        uint32_t n = (len + 7) / 8 * 8;
        AscendC::Muls(yt, xt, a, n);
        AscendC::Adds(yt, yt, b, n);
        if (actMode == ACT_RELU) {
            AscendC::Relu(yt, yt, n);
        } else if (actMode == ACT_RELU6) {
            AscendC::Maxs(yt, yt, 0.0f, n);
            AscendC::Mins(yt, yt, 6.0f, n);
        }
        outQ.EnQue(yt);
        inQ.FreeTensor(xt);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> yt = outQ.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[off], yt, cp);
        outQ.FreeTensor(yt);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::GlobalTensor<float> xGm, yGm, scaleGm, shiftGm;
    uint32_t channels, planeSize, planeNum, tileLen, actMode;
};

extern "C" __global__ __aicore__ void efficientnet_b1_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelBnAct op;
    op.Init(x, scale, shift, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

namespace {
constexpr int64_t ACT_NONE = 0;
constexpr int64_t ACT_RELU = 1;
constexpr int64_t ACT_RELU6 = 2;
constexpr double BN_EPS = 1e-5;

// BatchNorm (batch statistics in training mode, running statistics otherwise)
// folded into per-channel scale/shift, then applied together with the
// activation by the custom kernel.
at::Tensor bn_act(const at::Tensor& x, const at::Tensor& gamma, const at::Tensor& beta,
                  const at::Tensor& runMean, const at::Tensor& runVar, bool training, int64_t mode)
{
    at::Tensor mean, var;
    if (training) {
        auto vm = at::var_mean(x, {0, 2, 3}, /*unbiased=*/false, /*keepdim=*/false);
        var = std::get<0>(vm);
        mean = std::get<1>(vm);
    } else {
        mean = runMean;
        var = runVar;
    }
    at::Tensor scale = (gamma * at::rsqrt(var + BN_EPS)).contiguous();
    at::Tensor shift = (beta - mean * scale).contiguous();
    at::Tensor xin = x.contiguous();
    at::Tensor y = at::empty_like(xin);
    EXEC_NPU_CMD(aclnnEfficientnetB1Custom, xin, scale, shift, mode, y);
    return y;
}
}

at::Tensor efficientnet_b1_bn_act_impl_npu(const at::Tensor& x, const at::Tensor& scale,
                                           const at::Tensor& shift, int64_t mode)
{
    at::Tensor xin = x.contiguous();
    at::Tensor y = at::empty_like(xin);
    EXEC_NPU_CMD(aclnnEfficientnetB1Custom, xin, scale, shift, mode, y);
    return y;
}

// params layout (see model_src):
//   conv1.w, bn1(w, b, rm, rv),
//   7 x [ expand.w, bn(4), dw.w, bn(4), project.w, bn(4) ],
//   conv2.w, bn2(4), fc.w, fc.b
at::Tensor efficientnet_b1_custom_impl_npu(const at::Tensor& x, const std::vector<at::Tensor>& params, bool training)
{
    static const int64_t kStrides[7] = {1, 2, 2, 2, 1, 2, 1};
    size_t i = 0;
    auto next = [&]() -> const at::Tensor& { return params[i++]; };

    // stem
    at::Tensor y = at::conv2d(x, next(), {}, {2, 2}, {1, 1});
    {
        const at::Tensor& g = next(); const at::Tensor& b = next();
        const at::Tensor& rm = next(); const at::Tensor& rv = next();
        y = bn_act(y, g, b, rm, rv, training, ACT_RELU);
    }

    // MBConv blocks: expand 1x1 -> depthwise 3x3 -> project 1x1
    for (int blk = 0; blk < 7; ++blk) {
        const at::Tensor& wExp = next();
        y = at::conv2d(y, wExp);
        {
            const at::Tensor& g = next(); const at::Tensor& b = next();
            const at::Tensor& rm = next(); const at::Tensor& rv = next();
            y = bn_act(y, g, b, rm, rv, training, ACT_RELU6);
        }
        const at::Tensor& wDw = next();
        int64_t hidden = wDw.size(0);
        y = at::conv2d(y, wDw, {}, {kStrides[blk], kStrides[blk]}, {1, 1}, {1, 1}, hidden);
        {
            const at::Tensor& g = next(); const at::Tensor& b = next();
            const at::Tensor& rm = next(); const at::Tensor& rv = next();
            y = bn_act(y, g, b, rm, rv, training, ACT_RELU6);
        }
        const at::Tensor& wProj = next();
        y = at::conv2d(y, wProj);
        {
            const at::Tensor& g = next(); const at::Tensor& b = next();
            const at::Tensor& rm = next(); const at::Tensor& rv = next();
            y = bn_act(y, g, b, rm, rv, training, ACT_NONE);
        }
    }

    // head
    y = at::conv2d(y, next());
    {
        const at::Tensor& g = next(); const at::Tensor& b = next();
        const at::Tensor& rm = next(); const at::Tensor& rv = next();
        y = bn_act(y, g, b, rm, rv, training, ACT_RELU);
    }
    y = at::mean(y, {2, 3});
    const at::Tensor& fcW = next();
    const at::Tensor& fcB = next();
    return at::linear(y, fcW, fcB);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("efficientnet_b1_bn_act", &efficientnet_b1_bn_act_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("efficientnet_b1_custom", &efficientnet_b1_custom_impl_npu, "EfficientNet-B1 forward");
    m.def("efficientnet_b1_bn_act", &efficientnet_b1_bn_act_impl_npu, "per-channel affine + activation");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 32, kernel_size=3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(32)
        self.mbconv1 = self._make_mbconv_block(32, 16, 1, 1)
        self.mbconv2 = self._make_mbconv_block(16, 24, 2, 6)
        self.mbconv3 = self._make_mbconv_block(24, 40, 2, 6)
        self.mbconv4 = self._make_mbconv_block(40, 80, 2, 6)
        self.mbconv5 = self._make_mbconv_block(80, 112, 1, 6)
        self.mbconv6 = self._make_mbconv_block(112, 192, 2, 6)
        self.mbconv7 = self._make_mbconv_block(192, 320, 1, 6)
        self.conv2 = nn.Conv2d(320, 1280, kernel_size=1, stride=1, padding=0, bias=False)
        self.bn2 = nn.BatchNorm2d(1280)
        self.fc = nn.Linear(1280, num_classes)

    def _make_mbconv_block(self, in_channels, out_channels, stride, expand_ratio):
        hidden_dim = round(in_channels * expand_ratio)
        return nn.Sequential(
            nn.Conv2d(in_channels, hidden_dim, kernel_size=1, stride=1, padding=0, bias=False),
            nn.BatchNorm2d(hidden_dim),
            nn.ReLU6(inplace=True),
            nn.Conv2d(hidden_dim, hidden_dim, kernel_size=3, stride=stride, padding=1, groups=hidden_dim, bias=False),
            nn.BatchNorm2d(hidden_dim),
            nn.ReLU6(inplace=True),
            nn.Conv2d(hidden_dim, out_channels, kernel_size=1, stride=1, padding=0, bias=False),
            nn.BatchNorm2d(out_channels),
        )

    @staticmethod
    def _bn(bn):
        return [bn.weight, bn.bias, bn.running_mean, bn.running_var]

    def _params(self):
        p = [self.conv1.weight] + self._bn(self.bn1)
        for blk in (self.mbconv1, self.mbconv2, self.mbconv3, self.mbconv4,
                    self.mbconv5, self.mbconv6, self.mbconv7):
            p += [blk[0].weight] + self._bn(blk[1])
            p += [blk[3].weight] + self._bn(blk[4])
            p += [blk[6].weight] + self._bn(blk[7])
        p += [self.conv2.weight] + self._bn(self.bn2)
        p += [self.fc.weight, self.fc.bias]
        return p

    def forward(self, x):
        return custom_ops_lib.efficientnet_b1_custom(x, self._params(), self.training)
'''
