project_json_src='''
[
    {
        "op": "Densenet201Custom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "scale", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "shift", "param_type": "required", "format": ["ND"], "type": ["float"]}
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
BEGIN_TILING_DATA_DEF(Densenet201CustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, usedChannels);    // channels normalised (= len(scale))
  TILING_DATA_FIELD_DEF(uint32_t, storedChannels);  // channel count of the input buffer
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, planesTail);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Densenet201Custom, Densenet201CustomTilingData)
}
"""

host_operator_src="""
#include "densenet201_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 12 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Densenet201CustomTilingData tiling;
    auto xs = context->GetInputShape(0)->GetOriginShape();
    auto ss = context->GetInputShape(1)->GetOriginShape();
    uint32_t n = xs.GetDim(0);
    uint32_t cStored = xs.GetDim(1);
    uint32_t hw = xs.GetDim(2) * xs.GetDim(3);
    uint32_t cUsed = ss.GetDim(0);

    uint32_t tile = hw > MAX_TILE ? MAX_TILE : (hw + 7) / 8 * 8;
    uint32_t planes = n * cUsed;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > planes) cores = planes;

    tiling.set_batch(n);
    tiling.set_usedChannels(cUsed);
    tiling.set_storedChannels(cStored);
    tiling.set_planeSize(hw);
    tiling.set_tileLen(tile);
    tiling.set_planesPerCore(planes / cores);
    tiling.set_planesTail(planes % cores);

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
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ss = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    *ys = *xs;
    ys->SetDim(1, ss->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Densenet201Custom : public OpDef {
public:
    explicit Densenet201Custom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Densenet201Custom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Fused BatchNorm (pre-folded into per-channel scale/shift) + ReLU.
// The input may be a channel prefix of a wider dense-block buffer: plane (n, c) is read from
// (n * storedChannels + c) * HW and written densely to (n * usedChannels + c) * HW, so the
// dense block never has to materialise torch.cat results for each layer.
class KernelBnRelu {
public:
    __aicore__ inline KernelBnRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                const Densenet201CustomTilingData& td)
    {
        usedC = td.usedChannels;
        storedC = td.storedChannels;
        hw = td.planeSize;
        tileLen = td.tileLen;
        uint32_t idx = GetBlockIdx();
        planeCount = td.planesPerCore + (idx < td.planesTail ? 1 : 0);
        planeFirst = idx * td.planesPerCore + (idx < td.planesTail ? idx : td.planesTail);

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)td.batch * storedC * hw);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)td.batch * usedC * hw);
        scaleGm.SetGlobalBuffer((__gm__ float*)scale, usedC);
        shiftGm.SetGlobalBuffer((__gm__ float*)shift, usedC);

        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t k = 0; k < planeCount; ++k) {
            uint32_t plane = planeFirst + k;
            uint32_t n = plane / usedC;
            uint32_t c = plane % usedC;
            float a = scaleGm.GetValue(c);
            float b = shiftGm.GetValue(c);
            uint64_t src = ((uint64_t)n * storedC + c) * hw;
            uint64_t dst = (uint64_t)plane * hw;
            for (uint32_t off = 0; off < hw; off += tileLen) {
                uint32_t len = (hw - off) < tileLen ? (hw - off) : tileLen;
                CopyIn(src + off, len);
                Compute(a, b, len);
                CopyOut(dst + off, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t len)
    {
        LocalTensor<float> xl = inQueue.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xl, xGm[offset], cp, pad);
        inQueue.EnQue(xl);
    }

    __aicore__ inline void Compute(float a, float b, uint32_t len)
    {
        LocalTensor<float> xl = inQueue.DeQue<float>();
        LocalTensor<float> yl = outQueue.AllocTensor<float>();
        Muls(yl, xl, a, len);
        Adds(yl, yl, b, len);
        Relu(yl, yl, len);
        outQueue.EnQue(yl);
        inQueue.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t len)
    {
        LocalTensor<float> yl = outQueue.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[offset], yl, cp);
        outQueue.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<float> xGm, yGm, scaleGm, shiftGm;
    uint32_t usedC, storedC, hw, tileLen, planeFirst, planeCount;
};

extern "C" __global__ __aicore__ void densenet201_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelBnRelu op;
    op.Init(x, scale, shift, y, tilingData);
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
constexpr double BN_EPS = 1e-5;

// custom kernel: relu(bn(x[:, :C])) with C = gamma.numel(), batch statistics given
at::Tensor bn_relu(const at::Tensor& buf, const at::Tensor& mean, const at::Tensor& var,
                   const at::Tensor& gamma, const at::Tensor& beta)
{
    at::Tensor scale = (gamma * at::rsqrt(var + BN_EPS)).contiguous();
    at::Tensor shift = (beta - mean * scale).contiguous();
    at::Tensor y = at::empty({buf.size(0), gamma.size(0), buf.size(2), buf.size(3)}, buf.options());
    EXEC_NPU_CMD(aclnnDensenet201Custom, buf, scale, shift, y);
    return y;
}

std::pair<at::Tensor, at::Tensor> channel_stats(const at::Tensor& t)
{
    auto vm = at::var_mean(t, {0, 2, 3}, /*unbiased=*/false, /*keepdim=*/false);
    return {std::get<1>(vm), std::get<0>(vm)};
}
}

// params layout (built by ModelNew.flat_params):
//   stem conv w, stem bn gamma, stem bn beta,
//   per dense layer: bn gamma, bn beta, conv3x3 w,
//   per transition: bn gamma, bn beta, conv1x1 w,
//   final bn gamma, final bn beta, fc weight, fc bias
at::Tensor densenet201_impl_npu(const at::Tensor& x, const std::vector<at::Tensor>& params,
                                const std::vector<int64_t>& block_layers, int64_t growth_rate)
{
    size_t p = 0;
    at::Tensor h = at::conv2d(x, params[p], {}, {2, 2}, {3, 3});
    p += 1;
    auto st = channel_stats(h);
    h = bn_relu(h.contiguous(), st.first, st.second, params[p], params[p + 1]);
    p += 2;
    h = at::max_pool2d(h, {3, 3}, {2, 2}, {1, 1});

    for (size_t b = 0; b < block_layers.size(); ++b) {
        int64_t c0 = h.size(1);
        int64_t cTotal = c0 + block_layers[b] * growth_rate;
        at::Tensor buf = at::empty({h.size(0), cTotal, h.size(2), h.size(3)}, h.options());
        buf.narrow(1, 0, c0).copy_(h);
        // batch statistics of each channel never change inside a block, compute them once
        auto s0 = channel_stats(h);
        at::Tensor mean = s0.first;
        at::Tensor var = s0.second;
        int64_t cur = c0;
        for (int64_t l = 0; l < block_layers[b]; ++l) {
            at::Tensor act = bn_relu(buf, mean, var, params[p], params[p + 1]);
            at::Tensor feat = at::conv2d(act, params[p + 2], {}, {1, 1}, {1, 1});
            p += 3;
            buf.narrow(1, cur, growth_rate).copy_(feat);
            auto sf = channel_stats(feat);
            mean = at::cat({mean, sf.first});
            var = at::cat({var, sf.second});
            cur += growth_rate;
        }
        h = buf;
        if (b + 1 != block_layers.size()) {
            at::Tensor act = bn_relu(h, mean, var, params[p], params[p + 1]);
            h = at::conv2d(act, params[p + 2]);
            h = at::avg_pool2d(h, {2, 2}, {2, 2});
            p += 3;
        } else {
            at::Tensor act = bn_relu(h, mean, var, params[p], params[p + 1]);
            p += 2;
            h = at::adaptive_avg_pool2d(act, {1, 1}).view({act.size(0), -1});
        }
    }
    return at::linear(h, params[p], params[p + 1]);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("densenet201_custom", &densenet201_impl_npu, "DenseNet201 forward with fused bn+relu kernel");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class DenseBlock(nn.Module):
    def __init__(self, num_layers: int, num_input_features: int, growth_rate: int):
        super(DenseBlock, self).__init__()
        self.layers = nn.ModuleList([
            nn.Sequential(
                nn.BatchNorm2d(num_input_features + i * growth_rate),
                nn.ReLU(inplace=True),
                nn.Conv2d(num_input_features + i * growth_rate, growth_rate, kernel_size=3, padding=1, bias=False),
                nn.Dropout(0.0),
            )
            for i in range(num_layers)
        ])


class TransitionLayer(nn.Module):
    def __init__(self, num_input_features: int, num_output_features: int):
        super(TransitionLayer, self).__init__()
        self.transition = nn.Sequential(
            nn.BatchNorm2d(num_input_features),
            nn.ReLU(inplace=True),
            nn.Conv2d(num_input_features, num_output_features, kernel_size=1, bias=False),
            nn.AvgPool2d(kernel_size=2, stride=2),
        )


class ModelNew(nn.Module):
    def __init__(self, growth_rate: int = 32, num_classes: int = 1000):
        super(ModelNew, self).__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3, bias=False),
            nn.BatchNorm2d(64),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2, padding=1),
        )
        num_features = 64
        self.block_layers = [6, 12, 48, 32]
        self.growth_rate = growth_rate
        self.dense_blocks = nn.ModuleList()
        self.transition_layers = nn.ModuleList()
        for i, num_layers in enumerate(self.block_layers):
            self.dense_blocks.append(DenseBlock(num_layers, num_features, growth_rate))
            num_features = num_features + num_layers * growth_rate
            if i != len(self.block_layers) - 1:
                self.transition_layers.append(TransitionLayer(num_features, num_features // 2))
                num_features = num_features // 2
        self.final_bn = nn.BatchNorm2d(num_features)
        self.classifier = nn.Linear(num_features, num_classes)

    def flat_params(self):
        ps = [self.features[0].weight, self.features[1].weight, self.features[1].bias]
        for i, block in enumerate(self.dense_blocks):
            for layer in block.layers:
                ps += [layer[0].weight, layer[0].bias, layer[2].weight]
            if i < len(self.transition_layers):
                t = self.transition_layers[i].transition
                ps += [t[0].weight, t[0].bias, t[2].weight]
        ps += [self.final_bn.weight, self.final_bn.bias, self.classifier.weight, self.classifier.bias]
        return ps

    def forward(self, x):
        return custom_ops_lib.densenet201_custom(x, self.flat_params(), self.block_layers, self.growth_rate)
'''
