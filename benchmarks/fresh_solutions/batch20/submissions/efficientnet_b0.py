project_json_src='''
[
    {
        "op": "EfficientnetB0Custom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "scale",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "shift",
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
                "name": "act_type",
                "param_type": "optional",
                "type": "int",
                "default_value": "0"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(EfficientnetB0CustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planeNum);    // N * C
  TILING_DATA_FIELD_DEF(uint32_t, channels);    // C
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);   // H * W
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, actType);     // 0: none, 1: relu, 2: relu6
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(EfficientnetB0Custom, EfficientnetB0CustomTilingData)
}
"""

host_operator_src="""
#include "efficientnet_b0_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    EfficientnetB0CustomTilingData tiling;
    auto shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t n = shape.GetDim(0);
    uint32_t c = shape.GetDim(1);
    uint32_t hw = 1;
    for (size_t i = 2; i < shape.GetDimNum(); ++i) {
        hw *= static_cast<uint32_t>(shape.GetDim(i));
    }
    const int64_t* act = context->GetAttrs()->GetAttrPointer<int64_t>(0);

    // a plane (one sample, one channel) shares a single scale/shift pair
    uint32_t tileLen = hw < 8192 ? (hw + 7) / 8 * 8 : 8192;
    uint32_t planes = n * c;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    context->SetBlockDim(planes < cores ? planes : cores);

    tiling.set_planeNum(planes);
    tiling.set_channels(c);
    tiling.set_planeSize(hw);
    tiling.set_tileLen(tileLen);
    tiling.set_actType(act == nullptr ? 0 : static_cast<uint32_t>(*act));
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
class EfficientnetB0Custom : public OpDef {
public:
    explicit EfficientnetB0Custom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("scale")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("shift")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("act_type").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(EfficientnetB0Custom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Folded BatchNorm + activation used after every convolution of EfficientNet-B0:
//   y[n, c, :] = act(x[n, c, :] * scale[c] + shift[c])
class KernelBnAct {
public:
    __aicore__ inline KernelBnAct() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                uint32_t planeNum, uint32_t channels, uint32_t planeSize,
                                uint32_t tileLen, uint32_t actType)
    {
        this->planeNum = planeNum;
        this->channels = channels;
        this->planeSize = planeSize;
        this->tileLen = tileLen;
        this->actType = actType;
        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        scaleGm.SetGlobalBuffer((__gm__ float*)scale, channels);
        shiftGm.SetGlobalBuffer((__gm__ float*)shift, channels);
        pipe.InitBuffer(inQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t tiles = (planeSize + tileLen - 1) / tileLen;
        for (uint32_t p = AscendC::GetBlockIdx(); p < planeNum; p += AscendC::GetBlockNum()) {
            uint32_t c = p % channels;
            float s = scaleGm.GetValue(c);
            float b = shiftGm.GetValue(c);
            uint64_t base = static_cast<uint64_t>(p) * planeSize;
            for (uint32_t t = 0; t < tiles; ++t) {
                uint32_t len = (t + 1 == tiles) ? planeSize - t * tileLen : tileLen;
                uint64_t off = base + static_cast<uint64_t>(t) * tileLen;
                CopyIn(off, len);
                Compute(len, s, b);
                CopyOut(off, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> xl = inQ.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xl, xGm[off], cp, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t len, float s, float b)
    {
        AscendC::LocalTensor<float> xl = inQ.DeQue<float>();
        AscendC::LocalTensor<float> yl = outQ.AllocTensor<float>();
        AscendC::Muls(yl, xl, s, len);
        AscendC::Adds(yl, yl, b, len);
        if (actType == 1) {
            AscendC::Relu(yl, yl, len);
        } else if (actType == 2) {
            AscendC::Maxs(yl, yl, 0.0f, len);
            AscendC::Mins(yl, yl, 6.0f, len);
        }
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> yl = outQ.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[off], yl, cp);
        outQ.FreeTensor(yl);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::GlobalTensor<float> xGm, yGm, scaleGm, shiftGm;
    uint32_t planeNum, channels, planeSize, tileLen, actType;
};

extern "C" __global__ __aicore__ void efficientnet_b0_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelBnAct op;
    op.Init(x, scale, shift, y, td.planeNum, td.channels, td.planeSize, td.tileLen, td.actType);
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

struct BlockCfg { int64_t in, out, k, stride, expand; };
const BlockCfg kBlocks[] = {
    {32, 16, 3, 1, 1},   {16, 24, 3, 2, 6},   {24, 24, 3, 1, 6},   {24, 40, 5, 2, 6},
    {40, 40, 5, 1, 6},   {40, 80, 3, 2, 6},   {80, 80, 3, 1, 6},   {80, 112, 5, 1, 6},
    {112, 112, 5, 1, 6}, {112, 192, 5, 2, 6}, {192, 192, 5, 1, 6}, {192, 192, 5, 1, 6},
    {192, 320, 3, 1, 6},
};

// BatchNorm params come in groups of four: weight, bias, running_mean, running_var
at::Tensor bn_act(const at::Tensor& x, const std::vector<at::Tensor>& p, size_t& i, int64_t act, bool training)
{
    const at::Tensor& gamma = p[i];
    const at::Tensor& beta = p[i + 1];
    at::Tensor runMean = p[i + 2];
    at::Tensor runVar = p[i + 3];
    i += 4;

    at::Tensor mean, var;
    if (training) {
        auto vm = at::var_mean(x, {0, 2, 3}, /*unbiased=*/false, /*keepdim=*/false);
        var = std::get<0>(vm);
        mean = std::get<1>(vm);
    } else {
        mean = runMean;
        var = runVar;
    }
    at::Tensor scale = (gamma / at::sqrt(var + BN_EPS)).contiguous();
    at::Tensor shift = (beta - mean * scale).contiguous();

    at::Tensor xin = x.contiguous();
    at::Tensor y = at::empty_like(xin);
    EXEC_NPU_CMD(aclnnEfficientnetB0Custom, xin, scale, shift, act, y);
    return y;
}
}  // namespace

at::Tensor efficientnet_b0_custom_impl_npu(const at::Tensor& input, const std::vector<at::Tensor>& params, bool training)
{
    size_t i = 0;
    // stem
    at::Tensor x = at::conv2d(input, params[i++], {}, {2, 2}, {1, 1});
    x = bn_act(x, params, i, ACT_RELU, training);

    // MBConv blocks
    for (const auto& b : kBlocks) {
        at::Tensor identity = x;
        int64_t hidden = b.in * b.expand;
        if (b.expand != 1) {
            x = at::conv2d(x, params[i++]);
            x = bn_act(x, params, i, ACT_RELU6, training);
        }
        int64_t pad = (b.k - 1) / 2;
        x = at::conv2d(x, params[i++], {}, {b.stride, b.stride}, {pad, pad}, {1, 1}, hidden);
        x = bn_act(x, params, i, ACT_RELU6, training);
        x = at::conv2d(x, params[i++]);
        x = bn_act(x, params, i, ACT_NONE, training);
        if (b.stride == 1 && b.in == b.out) {
            x = x + identity;
        }
    }

    // head
    x = at::conv2d(x, params[i++]);
    x = bn_act(x, params, i, ACT_RELU, training);
    x = at::adaptive_avg_pool2d(x, {1, 1});
    x = x.view({x.size(0), -1});
    const at::Tensor& fcW = params[i++];
    const at::Tensor& fcB = params[i++];
    return at::linear(x, fcW, fcB);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("efficientnet_b0_custom", &efficientnet_b0_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("efficientnet_b0_custom", &efficientnet_b0_custom_impl_npu, "EfficientNet-B0 forward with fused BN+act");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class MBConv(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, expand_ratio):
        super().__init__()
        hidden_dim = in_channels * expand_ratio
        if expand_ratio != 1:
            self.expand_conv = nn.Sequential(
                nn.Conv2d(in_channels, hidden_dim, 1, 1, 0, bias=False),
                nn.BatchNorm2d(hidden_dim),
                nn.ReLU6(inplace=True))
        self.depthwise_conv = nn.Sequential(
            nn.Conv2d(hidden_dim, hidden_dim, kernel_size, stride, (kernel_size - 1) // 2,
                      groups=hidden_dim, bias=False),
            nn.BatchNorm2d(hidden_dim),
            nn.ReLU6(inplace=True))
        self.project_conv = nn.Sequential(
            nn.Conv2d(hidden_dim, out_channels, 1, 1, 0, bias=False),
            nn.BatchNorm2d(out_channels))

    def flat_params(self):
        out = []
        seqs = ([self.expand_conv] if hasattr(self, "expand_conv") else []) + [self.depthwise_conv, self.project_conv]
        for seq in seqs:
            conv, bn = seq[0], seq[1]
            out += [conv.weight, bn.weight, bn.bias, bn.running_mean, bn.running_var]
        return out


class ModelNew(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 32, kernel_size=3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(32)
        cfg = [(32, 16, 3, 1, 1), (16, 24, 3, 2, 6), (24, 24, 3, 1, 6), (24, 40, 5, 2, 6),
               (40, 40, 5, 1, 6), (40, 80, 3, 2, 6), (80, 80, 3, 1, 6), (80, 112, 5, 1, 6),
               (112, 112, 5, 1, 6), (112, 192, 5, 2, 6), (192, 192, 5, 1, 6), (192, 192, 5, 1, 6),
               (192, 320, 3, 1, 6)]
        self.blocks = nn.Sequential(*[MBConv(*c) for c in cfg])
        self.conv2 = nn.Conv2d(320, 1280, kernel_size=1, stride=1, padding=0, bias=False)
        self.bn2 = nn.BatchNorm2d(1280)
        self.fc = nn.Linear(1280, num_classes)

    def forward(self, x):
        params = [self.conv1.weight, self.bn1.weight, self.bn1.bias, self.bn1.running_mean, self.bn1.running_var]
        for blk in self.blocks:
            params += blk.flat_params()
        params += [self.conv2.weight, self.bn2.weight, self.bn2.bias, self.bn2.running_mean, self.bn2.running_var]
        params += [self.fc.weight, self.fc.bias]
        return custom_ops_lib.efficientnet_b0_custom(x, params, self.training)
'''
