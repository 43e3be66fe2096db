project_json_src='''
[
    {
        "op": "Convtranspose2dBatchnormTanhMaxpoolGroupnormCustom",
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
            {"name": "num_groups", "param_type": "optional", "type": "int", "default_value": "8"},
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "0.00001"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Convtranspose2dBatchnormTanhMaxpoolGroupnormCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, numGroups);
  TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, planeIn);      // inH*inW
  TILING_DATA_FIELD_DEF(uint32_t, planeInPad);   // rounded to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, planeOut);     // outH*outW
  TILING_DATA_FIELD_DEF(uint32_t, planeOutPad);  // rounded to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);   // batch * numGroups
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Convtranspose2dBatchnormTanhMaxpoolGroupnormCustom,
                           Convtranspose2dBatchnormTanhMaxpoolGroupnormCustomTilingData)
}
"""

host_operator_src="""
#include "convtranspose2d_batchnorm_tanh_maxpool_groupnorm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t Align8(uint32_t v) { return (v + 7) / 8 * 8; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Convtranspose2dBatchnormTanhMaxpoolGroupnormCustomTilingData t;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    const gert::Shape &s = context->GetInputShape(0)->GetStorageShape();
    uint32_t n = s.GetDim(0), c = s.GetDim(1), h = s.GetDim(2), w = s.GetDim(3);
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    uint32_t groups = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    float eps = *attrs->GetAttrPointer<float>(1);
    if (groups == 0 || c % groups != 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t oh = h / 2, ow = w / 2;   // MaxPool2d(2, 2), floor mode
    t.set_batch(n);
    t.set_channels(c);
    t.set_inH(h);
    t.set_inW(w);
    t.set_outH(oh);
    t.set_outW(ow);
    t.set_numGroups(groups);
    t.set_chPerGroup(c / groups);
    t.set_planeIn(h * w);
    t.set_planeInPad(Align8(h * w));
    t.set_planeOut(oh * ow);
    t.set_planeOutPad(Align8(oh * ow));
    t.set_totalUnits(n * groups);
    t.set_eps(eps);

    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > n * groups) cores = n * groups;
    context->SetBlockDim(cores);

    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
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
    out->SetDim(2, in->GetDim(2) / 2);
    out->SetDim(3, in->GetDim(3) / 2);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Convtranspose2dBatchnormTanhMaxpoolGroupnormCustom : public OpDef {
public:
    explicit Convtranspose2dBatchnormTanhMaxpoolGroupnormCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_groups").AttrType(OPTIONAL).Int(8);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Convtranspose2dBatchnormTanhMaxpoolGroupnormCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

// Fused tail of the model: tanh -> maxpool(2,2) -> groupnorm.
// Input is the batch-normalised transposed-conv output (N, C, H, W).
// One work unit = one (sample, group); the pooled group lives entirely in UB
// so the group statistics need only one pass over HBM.
class KernelTanhPoolGroupNorm {
public:
    __aicore__ inline KernelTanhPoolGroupNorm() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const Convtranspose2dBatchnormTanhMaxpoolGroupnormCustomTilingData &t)
    {
        C = t.channels; W = t.inW; OH = t.outH; OW = t.outW;
        G = t.numGroups; CPG = t.chPerGroup;
        planeIn = t.planeIn; planeInPad = t.planeInPad;
        planeOut = t.planeOut; planeOutPad = t.planeOutPad;
        units = t.totalUnits; eps = t.eps;

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)t.batch * C * planeIn);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)t.batch * C * planeOut);
        gammaGm.SetGlobalBuffer((__gm__ float *)gamma, C);
        betaGm.SetGlobalBuffer((__gm__ float *)beta, C);

        pipe.InitBuffer(inQue, 2, planeInPad * sizeof(float));
        pipe.InitBuffer(outQue, 2, planeOutPad * sizeof(float));
        pipe.InitBuffer(groupBuf, CPG * planeOutPad * sizeof(float));
        pipe.InitBuffer(offBuf, 4 * planeOutPad * sizeof(uint32_t));
        pipe.InitBuffer(gatherBuf, planeOutPad * sizeof(float));
        pipe.InitBuffer(sqBuf, planeOutPad * sizeof(float));
        pipe.InitBuffer(workBuf, planeInPad * sizeof(float));
        pipe.InitBuffer(redBuf, 64);   // two 32B slots: sum and sum of squares

        BuildOffsets();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = GetBlockIdx(); u < units; u += GetBlockNum()) {
            uint32_t n = u / G;
            uint32_t g = u % G;
            ProcessGroup(n, g);
        }
    }

private:
    // byte offsets of the 4 taps of every 2x2 pooling window inside one input plane
    __aicore__ inline void BuildOffsets()
    {
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        for (uint32_t i = 0; i < OH; ++i) {
            for (uint32_t j = 0; j < OW; ++j) {
                uint32_t p = i * OW + j;
                uint32_t base = ((2 * i) * W + 2 * j) * sizeof(float);
                off.SetValue(p, base);
                off.SetValue(planeOutPad + p, base + sizeof(float));
                off.SetValue(2 * planeOutPad + p, base + W * sizeof(float));
                off.SetValue(3 * planeOutPad + p, base + (W + 1) * sizeof(float));
            }
        }
        for (uint32_t p = planeOut; p < planeOutPad; ++p) {
            for (uint32_t k = 0; k < 4; ++k) {
                off.SetValue(k * planeOutPad + p, 0);
            }
        }
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void ProcessGroup(uint32_t n, uint32_t g)
    {
        LocalTensor<float> grp = groupBuf.Get<float>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        LocalTensor<float> tap = gatherBuf.Get<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();

        float sum = 0.0f;
        float sumSq = 0.0f;
        DataCopyExtParams inCp{1, planeIn * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};

        for (uint32_t cl = 0; cl < CPG; ++cl) {
            uint32_t c = g * CPG + cl;
            uint64_t inOff = ((uint64_t)n * C + c) * planeIn;

            LocalTensor<float> plane = inQue.AllocTensor<float>();
            DataCopyPad(plane, xGm[inOff], inCp, noPad);
            inQue.EnQue(plane);
            plane = inQue.DeQue<float>();

            Tanh(plane, plane, planeIn);

            // 2x2 max pooling through gathers of the four taps
            LocalTensor<float> pooled = grp[cl * planeOutPad];
            Gather(pooled, plane, off, (uint32_t)0, planeOutPad);
            for (uint32_t k = 1; k < 4; ++k) {
                Gather(tap, plane, off[k * planeOutPad], (uint32_t)0, planeOutPad);
                Max(pooled, pooled, tap, planeOutPad);
            }
            inQue.FreeTensor(plane);

            // partial statistics (only the valid planeOut entries)
            ReduceSum(red, pooled, work, planeOut);
            Mul(sq, pooled, pooled, planeOut);
            ReduceSum(red[8], sq, work, planeOut);
            event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(ev);
            WaitFlag<HardEvent::V_S>(ev);
            sum += red.GetValue(0);
            sumSq += red.GetValue(8);
        }

        float cnt = static_cast<float>(CPG * planeOut);
        float mean = sum / cnt;
        float var = sumSq / cnt - mean * mean;
        if (var < 0.0f) var = 0.0f;
        // rstd = 1/sqrt(var+eps), computed on the vector unit
        red.SetValue(0, var + eps);
        event_t evSV = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);
        Sqrt(red, red, 8);
        event_t evVS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        float rstd = 1.0f / red.GetValue(0);

        DataCopyExtParams outCp{1, planeOut * (uint32_t)sizeof(float), 0, 0, 0};
        for (uint32_t cl = 0; cl < CPG; ++cl) {
            uint32_t c = g * CPG + cl;
            float a = gammaGm.GetValue(c) * rstd;
            float b = betaGm.GetValue(c) - mean * a;

            LocalTensor<float> o = outQue.AllocTensor<float>();
            Muls(o, grp[cl * planeOutPad], a, planeOutPad);
            Adds(o, o, b, planeOutPad);
            outQue.EnQue(o);
            o = outQue.DeQue<float>();
            DataCopyPad(yGm[((uint64_t)n * C + c) * planeOut], o, outCp);
            outQue.FreeTensor(o);
        }
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQue;
    TQue<TPosition::VECOUT, 2> outQue;
    TBuf<TPosition::VECCALC> groupBuf, offBuf, gatherBuf, sqBuf, workBuf, redBuf;
    GlobalTensor<float> xGm, yGm, gammaGm, betaGm;
    uint32_t C, W, OH, OW, G, CPG;
    uint32_t planeIn, planeInPad, planeOut, planeOutPad, units;
    float eps;
};

extern "C" __global__ __aicore__ void convtranspose2d_batchnorm_tanh_maxpool_groupnorm_custom(
    GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelTanhPoolGroupNorm op;
    op.Init(x, gamma, beta, y, t);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv_transpose2d + batch_norm run through torch_npu; tanh/maxpool/groupnorm fused in the custom kernel
at::Tensor convtranspose2d_batchnorm_tanh_maxpool_groupnorm_impl_npu(
    const at::Tensor& x,
    const at::Tensor& conv_w, const at::Tensor& conv_b,
    int64_t stride, int64_t padding,
    const at::Tensor& bn_w, const at::Tensor& bn_b,
    const at::Tensor& bn_mean, const at::Tensor& bn_var,
    bool training, double bn_momentum, double bn_eps,
    const at::Tensor& gn_w, const at::Tensor& gn_b,
    int64_t num_groups, double gn_eps)
{
    at::Tensor h = at::conv_transpose2d(x, conv_w, conv_b, {stride, stride}, {padding, padding});
    h = at::batch_norm(h, bn_w, bn_b, bn_mean, bn_var, training, bn_momentum, bn_eps, false).contiguous();

    auto sz = h.sizes();
    at::Tensor y = at::empty({sz[0], sz[1], sz[2] / 2, sz[3] / 2}, h.options());
    at::Tensor gw = gn_w.contiguous();
    at::Tensor gb = gn_b.contiguous();
    EXEC_NPU_CMD(aclnnConvtranspose2dBatchnormTanhMaxpoolGroupnormCustom, h, gw, gb, num_groups, gn_eps, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("convtranspose2d_batchnorm_tanh_maxpool_groupnorm_custom",
           &convtranspose2d_batchnorm_tanh_maxpool_groupnorm_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("convtranspose2d_batchnorm_tanh_maxpool_groupnorm_custom",
          &convtranspose2d_batchnorm_tanh_maxpool_groupnorm_impl_npu,
          "conv_transpose2d -> batch_norm -> tanh -> maxpool(2) -> group_norm");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, groups, num_groups):
        super(ModelNew, self).__init__()
        self.conv_transpose = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding)
        self.batch_norm = nn.BatchNorm2d(out_channels)
        self.group_norm = nn.GroupNorm(num_groups=num_groups, num_channels=out_channels)
        self.stride = stride
        self.padding = padding
        self.num_groups = num_groups

    def forward(self, x):
        bn = self.batch_norm
        momentum = bn.momentum if bn.momentum is not None else 0.0
        if self.training and bn.num_batches_tracked is not None:
            bn.num_batches_tracked += 1
        return custom_ops_lib.convtranspose2d_batchnorm_tanh_maxpool_groupnorm_custom(
            x, self.conv_transpose.weight, self.conv_transpose.bias,
            self.stride, self.padding,
            bn.weight, bn.bias, bn.running_mean, bn.running_var,
            self.training, momentum, bn.eps,
            self.group_norm.weight, self.group_norm.bias,
            self.num_groups, self.group_norm.eps)
'''
