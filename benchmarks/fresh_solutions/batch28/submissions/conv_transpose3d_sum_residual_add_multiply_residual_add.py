project_json_src='''
[
    {
        "op": "ConvTranspose3dSumResidualAddMultiplyResidualAddCustom",
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
            {"name": "stride", "param_type": "optional", "type": "int", "default_value": "2"},
            {"name": "padding", "param_type": "optional", "type": "int", "default_value": "1"},
            {"name": "output_padding", "param_type": "optional", "type": "int", "default_value": "1"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose3dSumResidualAddMultiplyResidualAddCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, padding);
  TILING_DATA_FIELD_DEF(uint32_t, ocGroup);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dSumResidualAddMultiplyResidualAddCustom,
                           ConvTranspose3dSumResidualAddMultiplyResidualAddCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transpose3d_sum_residual_add_multiply_residual_add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();

    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();
    auto attrs = context->GetAttrs();
    int64_t stride = *attrs->GetInt(0);
    int64_t padding = *attrs->GetInt(1);
    int64_t outPad = *attrs->GetInt(2);

    uint32_t N = xs.GetDim(0), C = xs.GetDim(1), D = xs.GetDim(2), H = xs.GetDim(3), W = xs.GetDim(4);
    uint32_t OC = ws.GetDim(1), K = ws.GetDim(2);
    // the kernel uses the even/odd phase decomposition of a stride-2, k=3, pad=1 transposed conv
    if (stride != 2 || K != 3 || padding != 1 || outPad < 0 || outPad > 1 || ws.GetDim(0) != C) {
        return ge::GRAPH_FAILED;
    }
    uint32_t OD = (D - 1) * stride - 2 * padding + K + outPad;
    uint32_t OH = (H - 1) * stride - 2 * padding + K + outPad;
    uint32_t OW = (W - 1) * stride - 2 * padding + K + outPad;

    // output channels are processed in groups whose weights stay resident in UB
    uint32_t group = 16;
    while (group > 8 && (uint64_t)C * group * K * K * K * 4 > 96 * 1024) {
        group /= 2;
    }
    if (OC % group != 0) {
        group = 8;
        if (OC % group != 0) {
            return ge::GRAPH_FAILED;
        }
    }

    ConvTranspose3dSumResidualAddMultiplyResidualAddCustomTilingData tiling;
    tiling.set_batch(N);
    tiling.set_inC(C);
    tiling.set_inD(D);
    tiling.set_inH(H);
    tiling.set_inW(W);
    tiling.set_outC(OC);
    tiling.set_outD(OD);
    tiling.set_outH(OH);
    tiling.set_outW(OW);
    tiling.set_padding(padding);
    tiling.set_ocGroup(group);
    uint32_t units = (OC / group) * N * OD * OH;
    tiling.set_totalUnits(units);

    context->SetBlockDim(units < coreNum ? units : coreNum);
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
    const gert::Shape *ws = context->GetInputShape(1);
    auto attrs = context->GetAttrs();
    int64_t s = *attrs->GetInt(0);
    int64_t p = *attrs->GetInt(1);
    int64_t op = *attrs->GetInt(2);
    int64_t k = ws->GetDim(2);
    gert::Shape *ys = context->GetOutputShape(0);
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1));
    for (int i = 2; i < 5; ++i) {
        ys->SetDim(i, (xs->GetDim(i) - 1) * s - 2 * p + k + op);
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTranspose3dSumResidualAddMultiplyResidualAddCustom : public OpDef {
public:
    explicit ConvTranspose3dSumResidualAddMultiplyResidualAddCustom(const char *name) : OpDef(name)
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
        this->Attr("stride").AttrType(OPTIONAL).Int(2);
        this->Attr("padding").AttrType(OPTIONAL).Int(1);
        this->Attr("output_padding").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvTranspose3dSumResidualAddMultiplyResidualAddCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr uint32_t KS = 3;          // kernel size
constexpr uint32_t KVOL = KS * KS * KS;
constexpr uint32_t MAX_COMBOS = 4;  // at most 2 depth taps x 2 height taps hit an output row

__aicore__ inline uint32_t Align8(uint32_t v) { return (v + 7) / 8 * 8; }

// ConvTranspose3d (stride 2, k 3, pad 1) followed by
//   y = conv + cb;  out = ((y + b) + y) * y + y = y * (2y + b + 1)
// Work unit = (oc group, n, od, oh). Along W the output splits into phases:
//   ow = 2j   : kw = 1, iw = j
//   ow = 2j+1 : kw = 0, iw = j+1  and  kw = 2, iw = j
// The two phases are accumulated densely and interleaved with Gather at the end.
class KernelConvT3dResidual {
public:
    __aicore__ inline KernelConvT3dResidual() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR cb, GM_ADDR b, GM_ADDR y,
                                const ConvTranspose3dSumResidualAddMultiplyResidualAddCustomTilingData &t)
    {
        N = t.batch; C = t.inC; D = t.inD; H = t.inH; W = t.inW;
        OC = t.outC; OD = t.outD; OH = t.outH; OW = t.outW; P = t.padding; G = t.ocGroup;
        WA = Align8(W);
        WS = Align8(W - 1);
        OWA = Align8(OW);

        uint32_t blockNum = AscendC::GetBlockNum();
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint32_t base = t.totalUnits / blockNum;
        uint32_t rem = t.totalUnits % blockNum;
        unitBegin = blockIdx * base + (blockIdx < rem ? blockIdx : rem);
        unitEnd = unitBegin + base + (blockIdx < rem ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)N * C * D * H * W);
        wGm.SetGlobalBuffer((__gm__ float *)w, (uint64_t)C * OC * KVOL);
        cbGm.SetGlobalBuffer((__gm__ float *)cb, OC);
        bGm.SetGlobalBuffer((__gm__ float *)b, OC);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)N * OC * OD * OH * OW);

        pipe.InitBuffer(xBuf, MAX_COMBOS * 2 * C * WA * sizeof(float));
        pipe.InitBuffer(wBuf, C * G * KVOL * sizeof(float));
        pipe.InitBuffer(accBuf, 2 * WA * sizeof(float));
        pipe.InitBuffer(tBuf, 2 * WA * sizeof(float));
        pipe.InitBuffer(outBuf, G * OWA * sizeof(float));
        pipe.InitBuffer(offBuf, OWA * sizeof(uint32_t));

        // interleave table: even outputs come from [0, WA), odd ones from [WA, 2WA); byte offsets
        AscendC::LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        for (uint32_t k = 0; k < OWA; ++k) {
            uint32_t src = (k < OW) ? ((k & 1) ? (WA + k / 2) : (k / 2)) : 0;
            off.SetValue(k, src * (uint32_t)sizeof(float));
        }
        // the shifted rows need a zero beyond the last input column
        AscendC::LocalTensor<float> xLocal = xBuf.Get<float>();
        AscendC::Duplicate(xLocal, 0.0f, MAX_COMBOS * 2 * C * WA);
        AscendC::PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Process()
    {
        uint32_t rowsPerGroup = N * OD * OH;
        int32_t loadedGroup = -1;
        for (uint32_t u = unitBegin; u < unitEnd; ++u) {
            uint32_t g = u / rowsPerGroup;
            uint32_t r = u % rowsPerGroup;
            uint32_t oh = r % OH;
            uint32_t od = (r / OH) % OD;
            uint32_t n = r / (OH * OD);
            if ((int32_t)g != loadedGroup) {
                LoadWeights(g);
                loadedGroup = (int32_t)g;
            }
            uint32_t combos = CopyIn(n, od, oh);
            Compute(g, combos);
            CopyOut(g, n, od, oh);
        }
    }

private:
    __aicore__ inline void LoadWeights(uint32_t g)
    {
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::LocalTensor<float> wLocal = wBuf.Get<float>();
        // weight layout [C][OC][27]; one block of G*27 floats per input channel
        AscendC::DataCopyExtParams cp{(uint16_t)C, G * KVOL * (uint32_t)sizeof(float),
                                      (OC - G) * KVOL * (uint32_t)sizeof(float), 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(wLocal, wGm[(uint64_t)g * G * KVOL], cp, pad);
        AscendC::PipeBarrier<PIPE_ALL>();
    }

    // valid (k, i) taps of a stride-2 transposed conv along one axis for output coordinate o
    __aicore__ inline uint32_t Taps(uint32_t o, uint32_t inLen, uint32_t *ks, uint32_t *is)
    {
        uint32_t cnt = 0;
        for (uint32_t k = 0; k < KS; ++k) {
            int32_t tpos = (int32_t)o + (int32_t)P - (int32_t)k;
            if (tpos < 0 || (tpos & 1)) {
                continue;
            }
            uint32_t i = (uint32_t)tpos / 2;
            if (i < inLen) {
                ks[cnt] = k;
                is[cnt] = i;
                ++cnt;
            }
        }
        return cnt;
    }

    __aicore__ inline uint32_t CopyIn(uint32_t n, uint32_t od, uint32_t oh)
    {
        uint32_t dCnt = Taps(od, D, kdList, idList);
        uint32_t hCnt = Taps(oh, H, khList, ihList);
        AscendC::LocalTensor<float> xLocal = xBuf.Get<float>();
        // previous row's vector work must be done before the slots are overwritten
        event_t evVM = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_MTE2));
        AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(evVM);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(evVM);

        uint32_t chanStride = D * H * W;
        AscendC::DataCopyExtParams cpFull{(uint16_t)C, W * (uint32_t)sizeof(float),
                                          (chanStride - W) * (uint32_t)sizeof(float), 0, 0};
        AscendC::DataCopyExtParams cpShift{(uint16_t)C, (W - 1) * (uint32_t)sizeof(float),
                                           (chanStride - (W - 1)) * (uint32_t)sizeof(float),
                                           (WA - WS) / 8, 0};
        AscendC::DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        AscendC::DataCopyPadExtParams<float> zeroPad{true, 0, (uint8_t)(WS - (W - 1)), 0.0f};

        uint32_t combos = 0;
        for (uint32_t a = 0; a < dCnt; ++a) {
            for (uint32_t bIdx = 0; bIdx < hCnt; ++bIdx) {
                comboKd[combos] = kdList[a];
                comboKh[combos] = khList[bIdx];
                uint64_t src = (((uint64_t)n * C * D + idList[a]) * H + ihList[bIdx]) * W;
                uint32_t slot0 = (combos * 2) * C;
                uint32_t slot1 = (combos * 2 + 1) * C;
                AscendC::DataCopyPad(xLocal[slot0 * WA], xGm[src], cpFull, noPad);
                AscendC::DataCopyPad(xLocal[slot1 * WA], xGm[src + 1], cpShift, zeroPad);
                ++combos;
            }
        }
        event_t evMV = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_V));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(evMV);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(evMV);
        return combos;
    }

    __aicore__ inline void Compute(uint32_t g, uint32_t combos)
    {
        AscendC::LocalTensor<float> xLocal = xBuf.Get<float>();
        AscendC::LocalTensor<float> wLocal = wBuf.Get<float>();
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::LocalTensor<float> tmp = tBuf.Get<float>();
        AscendC::LocalTensor<float> outLocal = outBuf.Get<float>();
        AscendC::LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        AscendC::LocalTensor<float> evenAcc = acc;
        AscendC::LocalTensor<float> oddAcc = acc[WA];

        // output tile of the previous unit must have left UB
        event_t evMV = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE3_V));
        AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(evMV);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(evMV);

        for (uint32_t ocl = 0; ocl < G; ++ocl) {
            uint32_t oc = g * G + ocl;
            AscendC::Duplicate(acc, cbGm.GetValue(oc), 2 * WA);
            for (uint32_t c = 0; c < combos; ++c) {
                uint32_t tapBase = comboKd[c] * 9 + comboKh[c] * 3;
                for (uint32_t ic = 0; ic < C; ++ic) {
                    uint32_t wIdx = (ic * G + ocl) * KVOL + tapBase;
                    AscendC::LocalTensor<float> row = xLocal[((c * 2) * C + ic) * WA];
                    AscendC::LocalTensor<float> rowShift = xLocal[((c * 2 + 1) * C + ic) * WA];
                    AscendC::Axpy(evenAcc, row, wLocal.GetValue(wIdx + 1), WA);
                    AscendC::Axpy(oddAcc, rowShift, wLocal.GetValue(wIdx + 0), WA);
                    AscendC::Axpy(oddAcc, row, wLocal.GetValue(wIdx + 2), WA);
                }
            }
            // out = y * (2y + b + 1)
            float bv = bGm.GetValue(oc);
            AscendC::Muls(tmp, acc, 2.0f, 2 * WA);
            AscendC::Adds(tmp, tmp, bv + 1.0f, 2 * WA);
            AscendC::Mul(tmp, tmp, acc, 2 * WA);
            // interleave even/odd phases into the natural output order
            AscendC::Gather(outLocal[ocl * OWA], tmp, off, (uint32_t)0, OWA);
        }
    }

    __aicore__ inline void CopyOut(uint32_t g, uint32_t n, uint32_t od, uint32_t oh)
    {
        AscendC::LocalTensor<float> outLocal = outBuf.Get<float>();
        event_t evVM = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_MTE3));
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(evVM);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(evVM);
        uint64_t plane = (uint64_t)OD * OH * OW;
        uint64_t dst = ((uint64_t)n * OC + g * G) * plane + ((uint64_t)od * OH + oh) * OW;
        AscendC::DataCopyExtParams cp{(uint16_t)G, OW * (uint32_t)sizeof(float), 0,
                                      (uint32_t)((plane - OW) * sizeof(float)), 0};
        AscendC::DataCopyPad(yGm[dst], outLocal, cp);
    }

    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> xBuf, wBuf, accBuf, tBuf, outBuf, offBuf;
    AscendC::GlobalTensor<float> xGm, wGm, cbGm, bGm, yGm;
    uint32_t N, C, D, H, W, OC, OD, OH, OW, P, G, WA, WS, OWA;
    uint32_t unitBegin, unitEnd;
    uint32_t kdList[KS], idList[KS], khList[KS], ihList[KS];
    uint32_t comboKd[MAX_COMBOS], comboKh[MAX_COMBOS];
};

extern "C" __global__ __aicore__ void conv_transpose3d_sum_residual_add_multiply_residual_add_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR conv_bias, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelConvT3dResidual op;
    op.Init(x, weight, conv_bias, bias, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transpose3d_sum_residual_add_multiply_residual_add_custom_impl_npu(
    const at::Tensor &x, const at::Tensor &weight, const at::Tensor &conv_bias, const at::Tensor &bias,
    int64_t stride, int64_t padding, int64_t output_padding)
{
    int64_t k = weight.size(2);
    std::vector<int64_t> shape = {x.size(0), weight.size(1)};
    for (int i = 2; i < 5; ++i) {
        shape.push_back((x.size(i) - 1) * stride - 2 * padding + k + output_padding);
    }
    at::Tensor result = at::empty(shape, x.options());
    EXEC_NPU_CMD(aclnnConvTranspose3dSumResidualAddMultiplyResidualAddCustom, x, weight, conv_bias, bias,
                 stride, padding, output_padding, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_sum_residual_add_multiply_residual_add_custom",
           &conv_transpose3d_sum_residual_add_multiply_residual_add_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_sum_residual_add_multiply_residual_add_custom",
          &conv_transpose3d_sum_residual_add_multiply_residual_add_custom_impl_npu,
          "conv_transpose3d + bias + residual add + multiply + residual add");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, bias_shape):
        super(ModelNew, self).__init__()
        self.conv_transpose = torch.nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride,
                                                       padding=padding, output_padding=output_padding)
        self.bias = torch.nn.Parameter(torch.randn(bias_shape))
        self.stride = stride
        self.padding = padding
        self.output_padding = output_padding

    def forward(self, x):
        return custom_ops_lib.conv_transpose3d_sum_residual_add_multiply_residual_add_custom(
            x, self.conv_transpose.weight, self.conv_transpose.bias, self.bias,
            self.stride, self.padding, self.output_padding)
'''
