project_json_src='''
[
    {
        "op": "Convtranspose2dGlobalavgpoolBiasaddLogsumexpSumMultiplyCustom",
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
            {"name": "stride", "param_type": "optional", "type": "int", "default_value": "1"},
            {"name": "multiplier", "param_type": "optional", "type": "float", "default_value": "10.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Convtranspose2dGlobalavgpoolBiasaddLogsumexpSumMultiplyCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, taps);          // K*K
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);     // H*W
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(float, invOutArea);       // 1 / (Ho*Wo)
  TILING_DATA_FIELD_DEF(float, multiplier);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Convtranspose2dGlobalavgpoolBiasaddLogsumexpSumMultiplyCustom,
                           Convtranspose2dGlobalavgpoolBiasaddLogsumexpSumMultiplyCustomTilingData)
}
"""

host_operator_src="""
#include "convtranspose2d_globalavgpool_biasadd_logsumexp_sum_multiply_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Convtranspose2dGlobalavgpoolBiasaddLogsumexpSumMultiplyCustomTilingData tiling;
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    const auto* attrs = context->GetAttrs();
    int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    float mult = *attrs->GetAttrPointer<float>(1);

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t cout = ws.GetDim(1), k = ws.GetDim(2);
    // padding = 0: every (input pixel, tap) pair lands inside the output
    uint64_t ho = (uint64_t)(h - 1) * stride + k;
    uint64_t wo = (uint64_t)(w - 1) * stride + k;

    uint32_t plane = h * w;
    uint32_t tile = plane < TILE ? ((plane + 7) / 8 * 8) : TILE;

    tiling.set_batch(n);
    tiling.set_cin(cin);
    tiling.set_cout(cout);
    tiling.set_taps(k * k);
    tiling.set_planeSize(plane);
    tiling.set_tileLen(tile);
    tiling.set_invOutArea((float)(1.0 / (double)(ho * wo)));
    tiling.set_multiplier(mult);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();   // all cores meet in SyncAll
    context->SetBlockDim(cores);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize() + ((size_t)n * cin + 64) * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(2);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Convtranspose2dGlobalavgpoolBiasaddLogsumexpSumMultiplyCustom : public OpDef {
public:
    explicit Convtranspose2dGlobalavgpoolBiasaddLogsumexpSumMultiplyCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("conv_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("multiplier").AttrType(OPTIONAL).Float(10.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Convtranspose2dGlobalavgpoolBiasaddLogsumexpSumMultiplyCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// mean_{oh,ow} convT(x)[co] = b[co] + invArea * sum_ci S[ci] * sum_t w[ci,co,t],   S[ci] = sum_{h,w} x[ci]
// phase 1: plane sums S (all cores) -> workspace;  phase 2: one core per batch element
class KernelCt2dGapLse {
public:
    __aicore__ inline KernelCt2dGapLse() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR cb, GM_ADDR b, GM_ADDR y, GM_ADDR ws,
                                uint32_t n, uint32_t cin, uint32_t cout, uint32_t taps, uint32_t plane,
                                uint32_t tile, float invArea, float mult)
    {
        N = n; Cin = cin; Cout = cout; T = taps; P = plane; tileLen = tile; inv = invArea; mul = mult;
        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)n * cin * plane);
        wGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)cin * cout * taps);
        cbGm.SetGlobalBuffer((__gm__ float*)cb, cout);
        bGm.SetGlobalBuffer((__gm__ float*)b, cout);
        yGm.SetGlobalBuffer((__gm__ float*)y, n);
        sGm.SetGlobalBuffer((__gm__ float*)ws, (uint64_t)n * cin);
    }

    __aicore__ inline void Process()
    {
        PlaneSums();
        SyncAll();
        pipe.Reset();
        if (GetBlockIdx() < N) {
            Epilogue(GetBlockIdx());
        }
    }

private:
    __aicore__ inline void PlaneSums()
    {
        pipe.InitBuffer(inQue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(accBuf, tileLen * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(redWork, (tileLen / 8 + 64) * sizeof(float));
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> rw = redWork.Get<float>();

        uint32_t planes = N * Cin;
        uint32_t nTiles = (P + tileLen - 1) / tileLen;
        for (uint32_t pl = GetBlockIdx(); pl < planes; pl += GetBlockNum()) {
            Duplicate(acc, 0.0f, tileLen);
            for (uint32_t t = 0; t < nTiles; t++) {
                uint32_t off = t * tileLen;
                uint32_t len = (off + tileLen <= P) ? tileLen : (P - off);
                LocalTensor<float> xin = inQue.AllocTensor<float>();
                if (len % 8 == 0) {
                    DataCopy(xin, xGm[(uint64_t)pl * P + off], len);
                } else {
                    DataCopyExtParams cp{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};
                    DataCopyPadExtParams<float> pp{true, 0, (uint8_t)((8 - len % 8) % 8), 0.0f};
                    DataCopyPad(xin, xGm[(uint64_t)pl * P + off], cp, pp);
                }
                inQue.EnQue(xin);
                xin = inQue.DeQue<float>();
                Add(acc, acc, xin, len);
                inQue.FreeTensor(xin);
            }
            ReduceSum(red, acc, rw, tileLen);
            event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
            SetFlag<HardEvent::V_MTE3>(ev);
            WaitFlag<HardEvent::V_MTE3>(ev);
            DataCopyExtParams cpo{1, (uint32_t)sizeof(float), 0, 0, 0};
            DataCopyPad(sGm[pl], red, cpo);
            event_t ev2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_V));
            SetFlag<HardEvent::MTE3_V>(ev2);
            WaitFlag<HardEvent::MTE3_V>(ev2);
        }
    }

    __aicore__ inline void Epilogue(uint32_t nIdx)
    {
        uint32_t row = Cout * T;
        uint32_t rowA = (row + 7) / 8 * 8;
        uint32_t coA = (Cout + 7) / 8 * 8;
        pipe.InitBuffer(wQue, BUFFER_NUM, rowA * sizeof(float));
        pipe.InitBuffer(sumBuf, ((Cin + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(tapAcc, rowA * sizeof(float));
        pipe.InitBuffer(chBuf, coA * sizeof(float));
        pipe.InitBuffer(workBuf, coA * sizeof(float));
        pipe.InitBuffer(resBuf, 64 * sizeof(float));

        LocalTensor<float> s = sumBuf.Get<float>();
        DataCopyExtParams cp{1, (uint32_t)(Cin * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        DataCopyPad(s, sGm[(uint64_t)nIdx * Cin], cp, pp);
        event_t evMS = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(evMS);
        WaitFlag<HardEvent::MTE2_S>(evMS);

        LocalTensor<float> acc = tapAcc.Get<float>();
        Duplicate(acc, 0.0f, rowA);
        for (uint32_t ci = 0; ci < Cin; ci++) {
            LocalTensor<float> wl = wQue.AllocTensor<float>();
            DataCopyPad(wl, wGm[(uint64_t)ci * row], DataCopyExtParams{1, (uint32_t)(row * sizeof(float)), 0, 0, 0}, pp);
            wQue.EnQue(wl);
            wl = wQue.DeQue<float>();
            Axpy(acc, wl, s.GetValue(ci), row);
            wQue.FreeTensor(wl);
        }
        event_t evVS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);

        // fold taps, scale, add both biases
        LocalTensor<float> ch = chBuf.Get<float>();
        for (uint32_t co = 0; co < Cout; co++) {
            float v = 0.0f;
            for (uint32_t t = 0; t < T; t++) v += acc.GetValue(co * T + t);
            ch.SetValue(co, v * inv + cbGm.GetValue(co) + bGm.GetValue(co));
        }
        event_t evSV = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);

        // logsumexp over channels
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> res = resBuf.Get<float>();
        ReduceMax(res, ch, work, Cout, false);
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        float m = res.GetValue(0);
        Adds(ch, ch, -m, Cout);
        Exp(ch, ch, Cout);
        ReduceSum(res, ch, work, Cout);
        Ln(res, res, 1);
        Adds(res, res, m, 1);
        Muls(res, res, mul, 1);   // sum over the 1x1 spatial dims is a no-op

        event_t evVM = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(evVM);
        WaitFlag<HardEvent::V_MTE3>(evVM);
        DataCopyPad(yGm[nIdx], res, DataCopyExtParams{1, (uint32_t)sizeof(float), 0, 0, 0});
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue, wQue;
    TBuf<TPosition::VECCALC> accBuf, redBuf, redWork, sumBuf, tapAcc, chBuf, workBuf, resBuf;
    GlobalTensor<float> xGm, wGm, cbGm, bGm, yGm, sGm;
    uint32_t N, Cin, Cout, T, P, tileLen;
    float inv, mul;
};

extern "C" __global__ __aicore__ void convtranspose2d_globalavgpool_biasadd_logsumexp_sum_multiply_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR conv_bias, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    KernelCt2dGapLse op;
    op.Init(x, weight, conv_bias, bias, y, usr, td.batch, td.cin, td.cout, td.taps, td.planeSize,
            td.tileLen, td.invOutArea, td.multiplier);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor convtranspose2d_globalavgpool_biasadd_logsumexp_sum_multiply_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& conv_bias, const at::Tensor& bias,
    int64_t stride, double multiplier)
{
    at::Tensor y = at::empty({x.size(0), 1}, x.options());
    at::Tensor b = bias.reshape({-1});
    float mult = static_cast<float>(multiplier);
    EXEC_NPU_CMD(aclnnConvtranspose2dGlobalavgpoolBiasaddLogsumexpSumMultiplyCustom,
                 x, weight, conv_bias, b, stride, mult, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("convtranspose2d_globalavgpool_biasadd_logsumexp_sum_multiply_custom",
           &convtranspose2d_globalavgpool_biasadd_logsumexp_sum_multiply_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("convtranspose2d_globalavgpool_biasadd_logsumexp_sum_multiply_custom",
          &convtranspose2d_globalavgpool_biasadd_logsumexp_sum_multiply_custom_impl_npu,
          "convT2d -> GAP -> +bias -> logsumexp(C) -> sum -> *10");
}
"""
