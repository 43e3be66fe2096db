project_json_src='''
[
    {
        "op": "Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "conv_bias", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "divisor", "param_type": "optional", "type": "float", "default_value": "2.0"},
            {"name": "pool_size", "param_type": "optional", "type": "int", "default_value": "2"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, pool);
  TILING_DATA_FIELD_DEF(uint32_t, poolD);
  TILING_DATA_FIELD_DEF(uint32_t, poolH);
  TILING_DATA_FIELD_DEF(uint32_t, poolW);
  TILING_DATA_FIELD_DEF(float, invDivisor);
  TILING_DATA_FIELD_DEF(float, invPoolCount);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustom,
                           Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustomTilingData)
}
"""

host_operator_src="""
#include "conv3d_divide_max_global_avg_pool_bias_add_sum_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();
    auto attrs = context->GetAttrs();
    float divisor = *attrs->GetFloat(0);
    int64_t pool = *attrs->GetInt(1);

    uint32_t N = xs.GetDim(0), C = xs.GetDim(1), D = xs.GetDim(2), H = xs.GetDim(3), W = xs.GetDim(4);
    uint32_t OC = ws.GetDim(0), K = ws.GetDim(2);
    if (ws.GetDim(1) != C || pool <= 0 || divisor == 0.0f || D < K || H < K || W < K) {
        return ge::GRAPH_FAILED;
    }
    uint32_t OD = D - K + 1, OH = H - K + 1, OW = W - K + 1;
    uint32_t PD = OD / pool, PH = OH / pool, PW = OW / pool;   // MaxPool3d floors
    if (PD == 0 || PH == 0 || PW == 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t OWA = (OW + 7) / 8 * 8;
    uint32_t span = pool + K - 1;
    uint64_t slab = (uint64_t)C * span * span * K * OWA * 4;
    if (slab + (uint64_t)OC * C * K * K * K * 4 + 64 * 1024 > ubSize) {
        return ge::GRAPH_FAILED;
    }

    Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustomTilingData tiling;
    tiling.set_batch(N);
    tiling.set_inC(C);
    tiling.set_inD(D);
    tiling.set_inH(H);
    tiling.set_inW(W);
    tiling.set_outC(OC);
    tiling.set_ksize(K);
    tiling.set_outW(OW);
    tiling.set_pool(pool);
    tiling.set_poolD(PD);
    tiling.set_poolH(PH);
    tiling.set_poolW(PW);
    tiling.set_invDivisor(1.0f / divisor);
    tiling.set_invPoolCount(1.0f / static_cast<float>(PD * PH * PW));

    // one batch sample per iteration; samples are dealt round-robin to the vector cores
    context->SetBlockDim(N < coreNum ? N : coreNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xs = context->GetInputShape(0);
    gert::Shape *ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, 1);
    ys->SetDim(2, 1);
    ys->SetDim(3, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustom : public OpDef {
public:
    explicit Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("conv_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("divisor").AttrType(OPTIONAL).Float(2.0f);
        this->Attr("pool_size").AttrType(OPTIONAL).Int(2);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr uint32_t MAX_OC = 64;

__aicore__ inline uint32_t Align8(uint32_t v) { return (v + 7) / 8 * 8; }

// For one sample n:
//   conv3d (valid) -> /divisor -> MaxPool3d(pool) -> global mean -> + bias[oc] -> sum over oc
// The conv output is never materialised: for every pooling cell row (pd, ph) the pool x pool
// conv rows it covers are computed in UB, max-reduced, then the width is max-reduced with a
// Gather that splits the row into its pool phases. The pooled rows are summed per channel.
class KernelConv3dPoolSum {
public:
    __aicore__ inline KernelConv3dPoolSum() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR cb, GM_ADDR b, GM_ADDR y,
                                const Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustomTilingData &t)
    {
        N = t.batch; C = t.inC; D = t.inD; H = t.inH; W = t.inW;
        OC = t.outC; K = t.ksize; OW = t.outW; P = t.pool;
        PD = t.poolD; PH = t.poolH; PW = t.poolW;
        invDiv = t.invDivisor;
        invCount = t.invPoolCount;
        OWA = Align8(OW);
        PWA = Align8(PW);
        span = P + K - 1;
        taps = C * K * K * K;

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)N * C * D * H * W);
        wGm.SetGlobalBuffer((__gm__ float *)w, (uint64_t)OC * taps);
        cbGm.SetGlobalBuffer((__gm__ float *)cb, OC);
        bGm.SetGlobalBuffer((__gm__ float *)b, OC);
        yGm.SetGlobalBuffer((__gm__ float *)y, N);

        pipe.InitBuffer(inQueue, 1, C * span * K * span * OWA * sizeof(float));
        pipe.InitBuffer(wBuf, Align8(OC * taps) * sizeof(float));
        pipe.InitBuffer(accBuf, OWA * sizeof(float));
        pipe.InitBuffer(maxBuf, OWA * sizeof(float));
        pipe.InitBuffer(phaseBuf, P * PWA * sizeof(float));
        pipe.InitBuffer(offBuf, P * PWA * sizeof(uint32_t));
        pipe.InitBuffer(sumBuf, OC * PWA * sizeof(float));
        pipe.InitBuffer(redBuf, OC * 8 * sizeof(float));
        pipe.InitBuffer(workBuf, PWA * sizeof(float));
        pipe.InitBuffer(outQueue, 1, 8 * sizeof(float));

        // resident weights
        AscendC::LocalTensor<float> wLocal = wBuf.Get<float>();
        AscendC::DataCopyExtParams cp{1, OC * taps * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(wLocal, wGm, cp, pad);

        // width-phase table: phase s of the pooled column j reads conv column P*j + s
        AscendC::LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        for (uint32_t s = 0; s < P; ++s) {
            for (uint32_t j = 0; j < PWA; ++j) {
                uint32_t col = (j < PW) ? (P * j + s) : 0;
                off.SetValue(s * PWA + j, col * (uint32_t)sizeof(float));
            }
        }
        AscendC::PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Process()
    {
        uint32_t blockNum = AscendC::GetBlockNum();
        for (uint32_t n = AscendC::GetBlockIdx(); n < N; n += blockNum) {
            AscendC::LocalTensor<float> sums = sumBuf.Get<float>();
            AscendC::Duplicate(sums, 0.0f, OC * PWA);
            for (uint32_t pd = 0; pd < PD; ++pd) {
                for (uint32_t ph = 0; ph < PH; ++ph) {
                    CopyIn(n, pd * P, ph * P);
                    Compute();
                }
            }
            Finish(n);
        }
    }

private:
    // slot(ic, dd, kw, hh) holds x[n, ic, d0+dd, h0+hh, kw : kw+OW]
    __aicore__ inline uint32_t Slot(uint32_t ic, uint32_t dd, uint32_t kw, uint32_t hh)
    {
        return ((ic * span + dd) * K + kw) * span + hh;
    }

    __aicore__ inline void CopyIn(uint32_t n, uint32_t d0, uint32_t h0)
    {
        AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{(uint16_t)span, OW * (uint32_t)sizeof(float),
                                      (W - OW) * (uint32_t)sizeof(float), 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        for (uint32_t ic = 0; ic < C; ++ic) {
            for (uint32_t dd = 0; dd < span; ++dd) {
                uint64_t src = ((((uint64_t)n * C + ic) * D + d0 + dd) * H + h0) * W;
                for (uint32_t kw = 0; kw < K; ++kw) {
                    AscendC::DataCopyPad(xLocal[Slot(ic, dd, kw, 0) * OWA], xGm[src + kw], cp, pad);
                }
            }
        }
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> xLocal = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> wLocal = wBuf.Get<float>();
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::LocalTensor<float> rowMax = maxBuf.Get<float>();
        AscendC::LocalTensor<float> phase = phaseBuf.Get<float>();
        AscendC::LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        AscendC::LocalTensor<float> sums = sumBuf.Get<float>();

        for (uint32_t oc = 0; oc < OC; ++oc) {
            float cbv = cbGm.GetValue(oc);
            uint32_t wBase = oc * taps;
            for (uint32_t a = 0; a < P; ++a) {          // conv depth inside the pooling window
                for (uint32_t bRow = 0; bRow < P; ++bRow) { // conv height inside the pooling window
                    AscendC::Duplicate(acc, cbv, OWA);
                    for (uint32_t ic = 0; ic < C; ++ic) {
                        for (uint32_t kd = 0; kd < K; ++kd) {
                            for (uint32_t kh = 0; kh < K; ++kh) {
                                for (uint32_t kw = 0; kw < K; ++kw) {
                                    float wv = wLocal.GetValue(wBase + ((ic * K + kd) * K + kh) * K + kw);
                                    AscendC::Axpy(acc, xLocal[Slot(ic, a + kd, kw, bRow + kh) * OWA], wv, OWA);
                                }
                            }
                        }
                    }
                    AscendC::Muls(acc, acc, invDiv, OWA);
                    if (a == 0 && bRow == 0) {
                        AscendC::Adds(rowMax, acc, 0.0f, OWA);
                    } else {
                        AscendC::Max(rowMax, rowMax, acc, OWA);
                    }
                }
            }
            // max over the pool-wide column windows
            AscendC::Gather(phase, rowMax, off, (uint32_t)0, P * PWA);
            for (uint32_t s = 1; s < P; ++s) {
                AscendC::Max(phase, phase, phase[s * PWA], PW);
            }
            AscendC::Add(sums[oc * PWA], sums[oc * PWA], phase, PW);
        }
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void Finish(uint32_t n)
    {
        AscendC::LocalTensor<float> sums = sumBuf.Get<float>();
        AscendC::LocalTensor<float> red = redBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        for (uint32_t oc = 0; oc < OC; ++oc) {
            AscendC::ReduceSum(red[oc * 8], sums[oc * PWA], work, PW);
        }
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);

        float total = 0.0f;
        for (uint32_t oc = 0; oc < OC; ++oc) {
            total += red.GetValue(oc * 8) * invCount + bGm.GetValue(oc);
        }

        AscendC::LocalTensor<float> o = outQueue.AllocTensor<float>();
        AscendC::Duplicate(o, total, 8);
        outQueue.EnQue(o);
        o = outQueue.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(yGm[n], o, cp);
        outQueue.FreeTensor(o);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> wBuf, accBuf, maxBuf, phaseBuf, offBuf, sumBuf, redBuf, workBuf;
    AscendC::GlobalTensor<float> xGm, wGm, cbGm, bGm, yGm;
    uint32_t N, C, D, H, W, OC, K, OW, P, PD, PH, PW, OWA, PWA, span, taps;
    float invDiv, invCount;
};

extern "C" __global__ __aicore__ void conv3d_divide_max_global_avg_pool_bias_add_sum_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR conv_bias, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelConv3dPoolSum op;
    op.Init(x, weight, conv_bias, bias, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv3d_divide_max_global_avg_pool_bias_add_sum_custom_impl_npu(
    const at::Tensor &x, const at::Tensor &weight, const at::Tensor &conv_bias, const at::Tensor &bias,
    double divisor, int64_t pool_size)
{
    at::Tensor result = at::empty({x.size(0), 1, 1, 1}, x.options());
    EXEC_NPU_CMD(aclnnConv3dDivideMaxGlobalAvgPoolBiasAddSumCustom, x, weight, conv_bias, bias,
                 divisor, pool_size, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv3d_divide_max_global_avg_pool_bias_add_sum_custom",
           &conv3d_divide_max_global_avg_pool_bias_add_sum_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv3d_divide_max_global_avg_pool_bias_add_sum_custom",
          &conv3d_divide_max_global_avg_pool_bias_add_sum_custom_impl_npu,
          "conv3d / divisor -> maxpool3d -> global avg pool -> + bias -> sum(dim=1)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, divisor, pool_size, bias_shape, sum_dim):
        super(ModelNew, self).__init__()
        self.conv = torch.nn.Conv3d(in_channels, out_channels, kernel_size)
        self.divisor = float(divisor)
        ps = pool_size if isinstance(pool_size, int) else pool_size[0]
        self.pool_size = int(ps)
        self.bias = torch.nn.Parameter(torch.randn(bias_shape))
        assert sum_dim == 1

    def forward(self, x):
        return custom_ops_lib.conv3d_divide_max_global_avg_pool_bias_add_sum_custom(
            x, self.conv.weight, self.conv.bias, self.bias, self.divisor, self.pool_size)
'''
