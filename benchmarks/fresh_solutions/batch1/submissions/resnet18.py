project_json_src='''
[
    {
        "op": "Resnet18Custom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "gamma", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "beta", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "identity", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"},
            {"name": "add_identity", "param_type": "optional", "type": "int", "default_value": "0"},
            {"name": "apply_relu", "param_type": "optional", "type": "int", "default_value": "1"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Resnet18CustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, hw);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, channelsPerCore);
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, invCount);       // 1 / (N*H*W)
  TILING_DATA_FIELD_DEF(uint32_t, addIdentity);
  TILING_DATA_FIELD_DEF(uint32_t, applyRelu);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Resnet18Custom, Resnet18CustomTilingData)
}
"""

host_operator_src="""
#include "resnet18_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

// Resnet18Custom = BatchNorm2d (batch statistics, as in train mode) + optional
// residual add + optional ReLU.  Every BN in the network goes through it.
namespace optiling {
constexpr uint32_t MAX_TILE = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Resnet18CustomTilingData td;
    const gert::Shape& s = context->GetInputShape(0)->GetOriginShape();
    if (s.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = s.GetDim(0);
    uint32_t c = s.GetDim(1);
    uint32_t hw = s.GetDim(2) * s.GetDim(3);

    auto attrs = context->GetAttrs();
    const float* epsPtr = attrs->GetAttrPointer<float>(0);
    const int64_t* addPtr = attrs->GetAttrPointer<int64_t>(1);
    const int64_t* reluPtr = attrs->GetAttrPointer<int64_t>(2);

    uint32_t tileLen = hw < MAX_TILE ? (hw + 7) / 8 * 8 : MAX_TILE;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    if (cores > c) cores = c;
    uint32_t perCore = (c + cores - 1) / cores;
    uint32_t blockDim = (c + perCore - 1) / perCore;

    td.set_batch(n);
    td.set_channels(c);
    td.set_hw(hw);
    td.set_tileLen(tileLen);
    td.set_channelsPerCore(perCore);
    td.set_eps(epsPtr ? *epsPtr : 1e-5f);
    td.set_invCount(1.0f / static_cast<float>(n * hw));
    td.set_addIdentity(addPtr ? static_cast<uint32_t>(*addPtr != 0) : 0U);
    td.set_applyRelu(reluPtr ? static_cast<uint32_t>(*reluPtr != 0) : 1U);

    context->SetBlockDim(blockDim);
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
class Resnet18Custom : public OpDef {
public:
    explicit Resnet18Custom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("identity").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("add_identity").AttrType(OPTIONAL).Int(0);
        this->Attr("apply_relu").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Resnet18Custom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// One channel per work item:
//   pass 1: accumulate sum and sum of squares over (N, H, W) in vector registers,
//           reduce to scalars -> mean, biased variance (train-mode BatchNorm)
//   pass 2: y = x * a + b  (a = gamma*rstd, b = beta - mean*a) [+ identity] [relu]
class KernelBnAddRelu {
public:
    __aicore__ inline KernelBnAddRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR identity, GM_ADDR y,
                                const Resnet18CustomTilingData& td)
    {
        N = td.batch; C = td.channels; HW = td.hw; tileLen = td.tileLen;
        eps = td.eps; invCount = td.invCount;
        addId = td.addIdentity != 0;
        relu = td.applyRelu != 0;
        cBegin = GetBlockIdx() * td.channelsPerCore;
        cEnd = cBegin + td.channelsPerCore;
        if (cEnd > C) cEnd = C;

        uint64_t total = (uint64_t)N * C * HW;
        xGm.SetGlobalBuffer((__gm__ float*)x, total);
        idGm.SetGlobalBuffer((__gm__ float*)identity, total);
        yGm.SetGlobalBuffer((__gm__ float*)y, total);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma, C);
        betaGm.SetGlobalBuffer((__gm__ float*)beta, C);

        pipe.InitBuffer(xQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(idQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(yQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(sumBuf, tileLen * sizeof(float));
        pipe.InitBuffer(sqBuf, tileLen * sizeof(float));
        pipe.InitBuffer(statBuf, 64 * sizeof(float));
        pipe.InitBuffer(workBuf, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t c = cBegin; c < cEnd; ++c) {
            float a, b;
            Statistics(c, a, b);
            Apply(c, a, b);
        }
    }

private:
    __aicore__ inline void Load(TQue<QuePosition::VECIN, BUFFER_NUM>& q, GlobalTensor<float>& g,
                                uint64_t off, uint32_t len)
    {
        LocalTensor<float> t = q.AllocTensor<float>();
        DataCopyExtParams p{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(t, g[off], p, pad);
        q.EnQue(t);
    }

    __aicore__ inline void Statistics(uint32_t c, float& a, float& b)
    {
        LocalTensor<float> acc = sumBuf.Get<float>();
        LocalTensor<float> acc2 = sqBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> stat = statBuf.Get<float>();
        Duplicate(acc, 0.0f, tileLen);
        Duplicate(acc2, 0.0f, tileLen);

        for (uint32_t n = 0; n < N; ++n) {
            uint64_t base = ((uint64_t)n * C + c) * HW;
            for (uint32_t s = 0; s < HW; s += tileLen) {
                uint32_t len = HW - s < tileLen ? HW - s : tileLen;
                Load(xQ, xGm, base + s, len);
                LocalTensor<float> xl = xQ.DeQue<float>();
                Add(acc, acc, xl, len);
                Mul(work, xl, xl, len);
                Add(acc2, acc2, work, len);
                xQ.FreeTensor(xl);
            }
        }
        ReduceSum(stat, acc, work, tileLen);
        ReduceSum(stat[8], acc2, work, tileLen);

        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evt);
        WaitFlag<HardEvent::V_S>(evt);
        float mean = stat.GetValue(0) * invCount;
        float var = stat.GetValue(8) * invCount - mean * mean;
        if (var < 0.0f) var = 0.0f;

        // rstd through the vector unit (no scalar sqrt on the core)
        Duplicate(stat[16], var + eps, 8);
        Sqrt(stat[16], stat[16], 8);
        SetFlag<HardEvent::V_S>(evt);
        WaitFlag<HardEvent::V_S>(evt);
        float rstd = 1.0f / stat.GetValue(16);

        a = gammaGm.GetValue(c) * rstd;
        b = betaGm.GetValue(c) - mean * a;
    }

    __aicore__ inline void Apply(uint32_t c, float a, float b)
    {
        for (uint32_t n = 0; n < N; ++n) {
            uint64_t base = ((uint64_t)n * C + c) * HW;
            for (uint32_t s = 0; s < HW; s += tileLen) {
                uint32_t len = HW - s < tileLen ? HW - s : tileLen;
                Load(xQ, xGm, base + s, len);
                if (addId) {
                    Load(idQ, idGm, base + s, len);
                }
                LocalTensor<float> xl = xQ.DeQue<float>();
                LocalTensor<float> yl = yQ.AllocTensor<float>();
                Muls(yl, xl, a, len);
                Adds(yl, yl, b, len);
                if (addId) {
                    LocalTensor<float> il = idQ.DeQue<float>();
                    Add(yl, yl, il, len);
                    idQ.FreeTensor(il);
                }
                if (relu) {
                    Relu(yl, yl, len);
                }
                xQ.FreeTensor(xl);
                yQ.EnQue(yl);

                LocalTensor<float> out = yQ.DeQue<float>();
                DataCopyExtParams p{1, len * (uint32_t)sizeof(float), 0, 0, 0};
                DataCopyPad(yGm[base + s], out, p);
                yQ.FreeTensor(out);
            }
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQ, idQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQ;
    TBuf<QuePosition::VECCALC> sumBuf, sqBuf, statBuf, workBuf;
    GlobalTensor<float> xGm, idGm, yGm, gammaGm, betaGm;
    uint32_t N, C, HW, tileLen, cBegin, cEnd;
    float eps, invCount;
    bool addId, relu;
};

extern "C" __global__ __aicore__ void resnet18_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR identity,
                                                      GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelBnAddRelu op;
    op.Init(x, gamma, beta, identity, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// BatchNorm (batch stats) [+ identity] [+ relu] on the custom kernel
static at::Tensor bn_act(const at::Tensor& x, const at::Tensor& gamma, const at::Tensor& beta,
                         const at::Tensor* identity, bool relu)
{
    at::Tensor xc = x.contiguous();
    at::Tensor id = identity ? identity->contiguous() : xc;
    at::Tensor y = at::empty_like(xc);
    double eps = 1e-5;
    int64_t addIdentity = identity ? 1 : 0;
    int64_t applyRelu = relu ? 1 : 0;
    EXEC_NPU_CMD(aclnnResnet18Custom, xc, gamma, beta, id, eps, addIdentity, applyRelu, y);
    return y;
}

// params, in module order:
//   conv1.w, bn1.w, bn1.b,
//   per block: conv1.w, bn1.w, bn1.b, conv2.w, bn2.w, bn2.b [, ds.conv.w, ds.bn.w, ds.bn.b]
//   fc.w, fc.b
at::Tensor resnet18_custom_impl_npu(const at::Tensor& x, const std::vector<at::Tensor>& params)
{
    size_t p = 0;
    auto next = [&]() -> const at::Tensor& { return params.at(p++); };

    const at::Tensor& stemW = next();
    const at::Tensor& stemG = next();
    const at::Tensor& stemB = next();
    at::Tensor out = at::conv2d(x, stemW, {}, {2, 2}, {3, 3});
    out = bn_act(out, stemG, stemB, nullptr, true);
    out = at::max_pool2d(out, {3, 3}, {2, 2}, {1, 1});

    const int64_t widths[4] = {64, 128, 256, 512};
    int64_t inC = 64;
    for (int layer = 0; layer < 4; ++layer) {
        for (int blk = 0; blk < 2; ++blk) {
            int64_t stride = (layer > 0 && blk == 0) ? 2 : 1;
            bool hasDown = (stride != 1) || (inC != widths[layer]);
            const at::Tensor& w1 = next();
            const at::Tensor& g1 = next();
            const at::Tensor& b1 = next();
            const at::Tensor& w2 = next();
            const at::Tensor& g2 = next();
            const at::Tensor& b2 = next();

            at::Tensor h = at::conv2d(out, w1, {}, {stride, stride}, {1, 1});
            h = bn_act(h, g1, b1, nullptr, true);
            h = at::conv2d(h, w2, {}, {1, 1}, {1, 1});

            at::Tensor identity = out;
            if (hasDown) {
                const at::Tensor& dw = next();
                const at::Tensor& dg = next();
                const at::Tensor& db = next();
                identity = at::conv2d(out, dw, {}, {stride, stride}, {0, 0});
                identity = bn_act(identity, dg, db, nullptr, false);
            }
            out = bn_act(h, g2, b2, &identity, true);
            inC = widths[layer];
        }
    }

    out = at::adaptive_avg_pool2d(out, {1, 1});
    out = at::flatten(out, 1);
    const at::Tensor& fcW = next();
    const at::Tensor& fcB = next();
    return at::linear(out, fcW, fcB);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("resnet18_custom", &resnet18_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("resnet18_custom", &resnet18_custom_impl_npu, "ResNet-18 forward with fused BN/add/ReLU kernels");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, in_channels, out_channels, stride=1, downsample=None):
        super(BasicBlock, self).__init__()
        self.conv1 = nn.Conv2d(in_channels, out_channels, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(out_channels)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(out_channels, out_channels, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_channels)
        self.downsample = downsample
        self.stride = stride

    def flat_params(self):
        ps = [self.conv1.weight, self.bn1.weight, self.bn1.bias,
              self.conv2.weight, self.bn2.weight, self.bn2.bias]
        if self.downsample is not None:
            ps += [self.downsample[0].weight, self.downsample[1].weight, self.downsample[1].bias]
        return ps


class ModelNew(nn.Module):
    def __init__(self, num_classes=1000):
        super(ModelNew, self).__init__()
        self.in_channels = 64

        self.conv1 = nn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)

        self.layer1 = self._make_layer(BasicBlock, 64, 2, stride=1)
        self.layer2 = self._make_layer(BasicBlock, 128, 2, stride=2)
        self.layer3 = self._make_layer(BasicBlock, 256, 2, stride=2)
        self.layer4 = self._make_layer(BasicBlock, 512, 2, stride=2)

        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(512 * BasicBlock.expansion, num_classes)

    def _make_layer(self, block, out_channels, blocks, stride=1):
        downsample = None
        if stride != 1 or self.in_channels != out_channels * block.expansion:
            downsample = nn.Sequential(
                nn.Conv2d(self.in_channels, out_channels * block.expansion, kernel_size=1, stride=stride, bias=False),
                nn.BatchNorm2d(out_channels * block.expansion),
            )
        layers = [block(self.in_channels, out_channels, stride, downsample)]
        self.in_channels = out_channels * block.expansion
        for _ in range(1, blocks):
            layers.append(block(self.in_channels, out_channels))
        return nn.Sequential(*layers)

    def forward(self, x):
        params = [self.conv1.weight, self.bn1.weight, self.bn1.bias]
        for layer in (self.layer1, self.layer2, self.layer3, self.layer4):
            for blk in layer:
                params += blk.flat_params()
        params += [self.fc.weight, self.fc.bias]
        return custom_ops_lib.resnet18_custom(x, params)
'''
