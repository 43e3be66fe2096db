project_json_src='''
[
    {
        "op": "EfficientnetB0Custom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "gamma", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "beta", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "act_min", "param_type": "required", "type": "float"},
            {"name": "act_max", "param_type": "required", "type": "float"},
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
// BatchNorm2d (batch statistics, as nn.BatchNorm2d in training mode) followed by
// clamp(act_min, act_max), which covers ReLU (0, +inf), ReLU6 (0, 6) and identity.
BEGIN_TILING_DATA_DEF(EfficientnetB0CustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, spatial);        // H * W
  TILING_DATA_FIELD_DEF(uint32_t, chunk);          // floats per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, chPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, chRemainder);
  TILING_DATA_FIELD_DEF(float, actMin);
  TILING_DATA_FIELD_DEF(float, actMax);
  TILING_DATA_FIELD_DEF(float, eps);
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
    const gert::Shape& shp = context->GetInputShape(0)->GetStorageShape();
    if (shp.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t batch = shp.GetDim(0);
    uint32_t channels = shp.GetDim(1);
    uint32_t spatial = shp.GetDim(2) * shp.GetDim(3);

    auto attrs = context->GetAttrs();
    float actMin = *attrs->GetFloat(0);
    float actMax = *attrs->GetFloat(1);
    const float* epsAttr = attrs->GetFloat(2);

    // tile along one (n, c) plane; small late-stage feature maps just use one tile
    uint32_t chunk = 8192;
    uint32_t spatialAligned = (spatial + 63) / 64 * 64;
    if (spatialAligned < chunk) {
        chunk = spatialAligned;
    }

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blockDim = ascendcPlatform.GetCoreNumAiv();
    if (blockDim > channels) {
        blockDim = channels;
    }
    if (blockDim == 0) {
        blockDim = 1;
    }

    tiling.set_batch(batch);
    tiling.set_channels(channels);
    tiling.set_spatial(spatial);
    tiling.set_chunk(chunk);
    tiling.set_chPerCore(channels / blockDim);
    tiling.set_chRemainder(channels % blockDim);
    tiling.set_actMin(actMin);
    tiling.set_actMax(actMax);
    tiling.set_eps(epsAttr ? *epsAttr : 1e-5f);

    context->SetBlockDim(blockDim);
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
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("act_min").Float();
        this->Attr("act_max").Float();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

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

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelBatchNormAct {
public:
    __aicore__ inline KernelBatchNormAct() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const EfficientnetB0CustomTilingData& td)
    {
        batch = td.batch;
        channels = td.channels;
        spatial = td.spatial;
        chunk = td.chunk;
        actMin = td.actMin;
        actMax = td.actMax;
        eps = td.eps;

        uint32_t idx = GetBlockIdx();
        if (idx < td.chRemainder) {
            chCount = td.chPerCore + 1;
            chBegin = idx * chCount;
        } else {
            chCount = td.chPerCore;
            chBegin = td.chRemainder * (td.chPerCore + 1) + (idx - td.chRemainder) * td.chPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma, channels);
        betaGm.SetGlobalBuffer((__gm__ float*)beta, channels);

        pipe.InitBuffer(inQueue, BUFFER_NUM, chunk * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, chunk * sizeof(float));
        pipe.InitBuffer(sumAcc, chunk * sizeof(float));
        pipe.InitBuffer(sqAcc, chunk * sizeof(float));
        pipe.InitBuffer(sqTmp, chunk * sizeof(float));
        pipe.InitBuffer(reduceWork, chunk * sizeof(float));
        pipe.InitBuffer(resBuf, 64);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < chCount; ++i) {
            uint32_t c = chBegin + i;
            float scale, shift;
            ChannelStats(c, scale, shift);
            Normalize(c, scale, shift);
        }
    }

private:
    __aicore__ inline void LoadTile(uint64_t off, uint32_t len)
    {
        LocalTensor<float> t = inQueue.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(t, xGm[off], cp, pad);
        inQueue.EnQue(t);
    }

    // Pass 1: elementwise accumulate sum / sum of squares across all tiles of the
    // channel, one final ReduceSum each.
    __aicore__ inline void ChannelStats(uint32_t c, float& scale, float& shift)
    {
        LocalTensor<float> accS = sumAcc.Get<float>();
        LocalTensor<float> accQ = sqAcc.Get<float>();
        LocalTensor<float> sq = sqTmp.Get<float>();
        Duplicate(accS, 0.0f, chunk);
        Duplicate(accQ, 0.0f, chunk);
        PipeBarrier<PIPE_V>();

        for (uint32_t n = 0; n < batch; ++n) {
            uint64_t base = (static_cast<uint64_t>(n) * channels + c) * spatial;
            for (uint32_t s = 0; s < spatial; s += chunk) {
                uint32_t len = (s + chunk <= spatial) ? chunk : (spatial - s);
                LoadTile(base + s, len);
                LocalTensor<float> t = inQueue.DeQue<float>();
                Mul(sq, t, t, len);
                Add(accS, accS, t, len);
                PipeBarrier<PIPE_V>();
                Add(accQ, accQ, sq, len);
                PipeBarrier<PIPE_V>();
                inQueue.FreeTensor(t);
            }
        }

        uint32_t used = spatial < chunk ? spatial : chunk;
        LocalTensor<float> res = resBuf.Get<float>();
        LocalTensor<float> work = reduceWork.Get<float>();
        ReduceSum(res, accS, work, used);
        PipeBarrier<PIPE_V>();
        ReduceSum(res[8], accQ, work, used);
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float total = static_cast<float>(batch) * static_cast<float>(spatial);
        float mean = res.GetValue(0) / total;
        float var = res.GetValue(8) / total - mean * mean;   // biased variance, as used for normalisation
        if (var < 0.0f) {
            var = 0.0f;
        }

        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        Duplicate(res, var + eps, 8);
        PipeBarrier<PIPE_V>();
        Sqrt(res, res, 8);
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float rstd = 1.0f / res.GetValue(0);

        float g = gammaGm.GetValue(c);
        float b = betaGm.GetValue(c);
        scale = g * rstd;
        shift = b - mean * scale;
    }

    // Pass 2: y = clamp(x * scale + shift, actMin, actMax)
    __aicore__ inline void Normalize(uint32_t c, float scale, float shift)
    {
        for (uint32_t n = 0; n < batch; ++n) {
            uint64_t base = (static_cast<uint64_t>(n) * channels + c) * spatial;
            for (uint32_t s = 0; s < spatial; s += chunk) {
                uint32_t len = (s + chunk <= spatial) ? chunk : (spatial - s);
                LoadTile(base + s, len);
                LocalTensor<float> t = inQueue.DeQue<float>();
                LocalTensor<float> o = outQueue.AllocTensor<float>();
                Muls(o, t, scale, len);
                PipeBarrier<PIPE_V>();
                Adds(o, o, shift, len);
                PipeBarrier<PIPE_V>();
                Maxs(o, o, actMin, len);
                PipeBarrier<PIPE_V>();
                Mins(o, o, actMax, len);
                outQueue.EnQue(o);
                inQueue.FreeTensor(t);

                LocalTensor<float> r = outQueue.DeQue<float>();
                DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
                DataCopyPad(yGm[base + s], r, cp);
                outQueue.FreeTensor(r);
            }
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<TPosition::VECCALC> sumAcc, sqAcc, sqTmp, reduceWork, resBuf;
    GlobalTensor<float> xGm, yGm, gammaGm, betaGm;
    uint32_t batch, channels, spatial, chunk;
    uint32_t chBegin = 0, chCount = 0;
    float actMin, actMax, eps;
};

extern "C" __global__ __aicore__ void efficientnet_b0_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelBatchNormAct op;
    op.Init(x, gamma, beta, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// BatchNorm (batch statistics) + clamp activation on the NPU
at::Tensor bn_act_npu(const at::Tensor& x, const at::Tensor& gamma, const at::Tensor& beta,
                      double actMin, double actMax, double eps)
{
    at::Tensor xc = x.contiguous();
    at::Tensor out = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnEfficientnetB0Custom, xc, gamma, beta, actMin, actMax, eps, out);
    return out;
}

// conv (stock kernel, no bias) -> custom BN + activation
at::Tensor conv_bn_act_npu(const at::Tensor& x, const at::Tensor& weight,
                           const at::Tensor& gamma, const at::Tensor& beta,
                           int64_t stride, int64_t padding, int64_t groups,
                           double actMin, double actMax, double eps)
{
    at::Tensor y = at::conv2d(x, weight, c10::nullopt, {stride, stride}, {padding, padding}, {1, 1}, groups);
    return bn_act_npu(y, gamma, beta, actMin, actMax, eps);
}

// head: conv2 -> bn2 -> relu -> global avg pool -> fc
at::Tensor efficientnet_b0_head_npu(const at::Tensor& x, const at::Tensor& convW,
                                    const at::Tensor& gamma, const at::Tensor& beta, double eps,
                                    const at::Tensor& fcW, const at::Tensor& fcB)
{
    const double inf = 3.4e38;
    at::Tensor y = conv_bn_act_npu(x, convW, gamma, beta, 1, 0, 1, 0.0, inf, eps);
    y = at::mean(y, {2, 3});
    return at::addmm(fcB, y, fcW.t());
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("efficientnet_b0_custom", &bn_act_npu, "batchnorm + clamp activation");
    m.def("conv_bn_act", &conv_bn_act_npu, "conv2d + batchnorm + clamp activation");
    m.def("head", &efficientnet_b0_head_npu, "final conv/bn/relu/pool/fc");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

INF = 3.4e38


class MBConv(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, expand_ratio):
        super(MBConv, self).__init__()
        self.use_residual = (stride == 1 and in_channels == out_channels)
        self.stride = stride
        self.padding = (kernel_size - 1) // 2
        hidden_dim = in_channels * expand_ratio
        self.hidden_dim = hidden_dim
        if expand_ratio != 1:
            self.expand_conv = nn.Sequential(
                nn.Conv2d(in_channels, hidden_dim, kernel_size=1, stride=1, padding=0, bias=False),
                nn.BatchNorm2d(hidden_dim),
                nn.ReLU6(inplace=True)
            )
        self.depthwise_conv = nn.Sequential(
            nn.Conv2d(hidden_dim, hidden_dim, kernel_size=kernel_size, stride=stride,
                      padding=(kernel_size - 1) // 2, groups=hidden_dim, bias=False),
            nn.BatchNorm2d(hidden_dim),
            nn.ReLU6(inplace=True)
        )
        self.project_conv = nn.Sequential(
            nn.Conv2d(hidden_dim, out_channels, kernel_size=1, stride=1, padding=0, bias=False),
            nn.BatchNorm2d(out_channels)
        )

    def forward(self, x):
        identity = x
        if hasattr(self, 'expand_conv'):
            conv, bn = self.expand_conv[0], self.expand_conv[1]
            x = custom_ops_lib.conv_bn_act(x, conv.weight, bn.weight, bn.bias, 1, 0, 1, 0.0, 6.0, bn.eps)
        conv, bn = self.depthwise_conv[0], self.depthwise_conv[1]
        x = custom_ops_lib.conv_bn_act(x, conv.weight, bn.weight, bn.bias,
                                       self.stride, self.padding, self.hidden_dim, 0.0, 6.0, bn.eps)
        conv, bn = self.project_conv[0], self.project_conv[1]
        x = custom_ops_lib.conv_bn_act(x, conv.weight, bn.weight, bn.bias, 1, 0, 1, -INF, INF, bn.eps)
        if self.use_residual:
            x = x + identity
        return x


class ModelNew(nn.Module):
    def __init__(self, num_classes=1000):
        super(ModelNew, self).__init__()
        self.conv1 = nn.Conv2d(3, 32, kernel_size=3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(32)
        self.blocks = nn.Sequential(
            MBConv(32, 16, kernel_size=3, stride=1, expand_ratio=1),
            MBConv(16, 24, kernel_size=3, stride=2, expand_ratio=6),
            MBConv(24, 24, kernel_size=3, stride=1, expand_ratio=6),
            MBConv(24, 40, kernel_size=5, stride=2, expand_ratio=6),
            MBConv(40, 40, kernel_size=5, stride=1, expand_ratio=6),
            MBConv(40, 80, kernel_size=3, stride=2, expand_ratio=6),
            MBConv(80, 80, kernel_size=3, stride=1, expand_ratio=6),
            MBConv(80, 112, kernel_size=5, stride=1, expand_ratio=6),
            MBConv(112, 112, kernel_size=5, stride=1, expand_ratio=6),
            MBConv(112, 192, kernel_size=5, stride=2, expand_ratio=6),
            MBConv(192, 192, kernel_size=5, stride=1, expand_ratio=6),
            MBConv(192, 192, kernel_size=5, stride=1, expand_ratio=6),
            MBConv(192, 320, kernel_size=3, stride=1, expand_ratio=6)
        )
        self.conv2 = nn.Conv2d(320, 1280, kernel_size=1, stride=1, padding=0, bias=False)
        self.bn2 = nn.BatchNorm2d(1280)
        self.fc = nn.Linear(1280, num_classes)

    def forward(self, x):
        x = custom_ops_lib.conv_bn_act(x, self.conv1.weight, self.bn1.weight, self.bn1.bias,
                                       2, 1, 1, 0.0, INF, self.bn1.eps)
        x = self.blocks(x)
        return custom_ops_lib.head(x, self.conv2.weight, self.bn2.weight, self.bn2.bias, self.bn2.eps,
                                   self.fc.weight, self.fc.bias)
'''
