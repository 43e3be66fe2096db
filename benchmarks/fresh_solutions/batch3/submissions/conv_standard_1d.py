project_json_src='''
[
    {
        "op": "ConvStandard1dCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "dilation", "param_type": "optional", "type": "int", "default_value": "1"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvStandard1dCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, inLen);
  TILING_DATA_FIELD_DEF(uint32_t, outLen);
  TILING_DATA_FIELD_DEF(uint32_t, tileL);       // outputs per tile
  TILING_DATA_FIELD_DEF(uint32_t, ciChunk);     // input channels staged per step
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerRow);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvStandard1dCustom, ConvStandard1dCustomTilingData)
}
"""

host_operator_src="""
#include "conv_standard_1d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvStandard1dCustomTilingData tiling;
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    uint32_t dil = (uint32_t)*context->GetAttrs()->GetAttrPointer<int64_t>(0);
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), len = xs.GetDim(2);
    uint32_t cout = ws.GetDim(0), k = ws.GetDim(2);
    uint32_t outLen = len - dil * (k - 1);

    uint64_t ub = 0;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    // acc: cout*tileL, x stage: 2*k*ciChunk*tileL, w stage: 2*cout*ciChunk*k
    uint32_t tileL = 256;
    uint32_t ciChunk = 4;
    while (tileL > 64) {
        uint64_t need = ((uint64_t)cout * tileL + 2ull * k * ciChunk * tileL +
                         2ull * cout * ((ciChunk * k + 7) / 8 * 8)) * sizeof(float);
        if (need + 8192 <= ub) break;
        tileL /= 2;
    }
    while (cin % ciChunk != 0) ciChunk--;

    uint32_t tilesPerRow = (outLen + tileL - 1) / tileL;
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t units = n * tilesPerRow;

    tiling.set_batch(n);
    tiling.set_cin(cin);
    tiling.set_cout(cout);
    tiling.set_kernel(k);
    tiling.set_dilation(dil);
    tiling.set_inLen(len);
    tiling.set_outLen(outLen);
    tiling.set_tileL(tileL);
    tiling.set_ciChunk(ciChunk);
    tiling.set_tilesPerRow(tilesPerRow);

    context->SetBlockDim(units < cores ? units : cores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    int64_t dil = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(3);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    ys->SetDim(2, xs->GetDim(2) - dil * (ws->GetDim(2) - 1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvStandard1dCustom : public OpDef {
public:
    explicit ConvStandard1dCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvStandard1dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y[n,co,l] = sum_ci sum_k w[co,ci,k] * x[n,ci,l + k*dil]   (stride 1, no padding, no bias)
// unit = (n, tile of tileL outputs). x is staged as K shifted copies so every Axpy operand is aligned.
class KernelConv1d {
public:
    __aicore__ inline KernelConv1d() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, uint32_t n, uint32_t cin, uint32_t cout,
                                uint32_t k, uint32_t dil, uint32_t len, uint32_t outLen,
                                uint32_t tileL, uint32_t ciChunk, uint32_t tilesPerRow)
    {
        N = n; Cin = cin; Cout = cout; K = k; Dil = dil; L = len; Lo = outLen;
        TL = tileL; CC = ciChunk; TPR = tilesPerRow;
        wRow = (CC * K + 7) / 8 * 8;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)n * cin * len);
        wGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)cout * cin * k);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)n * cout * outLen);

        pipe.InitBuffer(xQue, BUFFER_NUM, K * CC * TL * sizeof(float));
        pipe.InitBuffer(wQue, BUFFER_NUM, Cout * wRow * sizeof(float));
        pipe.InitBuffer(accQue, 1, Cout * TL * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t units = N * TPR;
        for (uint32_t u = GetBlockIdx(); u < units; u += GetBlockNum()) {
            uint32_t nIdx = u / TPR;
            uint32_t l0 = (u % TPR) * TL;
            uint32_t cnt = (l0 + TL <= Lo) ? TL : (Lo - l0);

            LocalTensor<float> acc = accQue.AllocTensor<float>();
            Duplicate(acc, 0.0f, Cout * TL);
            for (uint32_t c0 = 0; c0 < Cin; c0 += CC) {
                LoadChunk(nIdx, c0, l0, cnt);
                Accumulate(acc);
            }
            accQue.EnQue(acc);
            StoreTile(nIdx, l0, cnt);
        }
    }

private:
    __aicore__ inline void LoadChunk(uint32_t nIdx, uint32_t c0, uint32_t l0, uint32_t cnt)
    {
        LocalTensor<float> xs = xQue.AllocTensor<float>();
        LocalTensor<float> ws = wQue.AllocTensor<float>();
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        uint32_t cntA = (cnt + 7) / 8 * 8;
        for (uint32_t kk = 0; kk < K; kk++) {
            // CC rows of x starting at l0 + kk*dil, row stride L in GM, TL in UB
            DataCopyExtParams cp{(uint16_t)CC, (uint32_t)(cnt * sizeof(float)),
                                 (uint32_t)((L - cnt) * sizeof(float)),
                                 (uint32_t)((TL - cntA) * sizeof(float) / 32), 0};
            DataCopyPad(xs[kk * CC * TL], xGm[((uint64_t)nIdx * Cin + c0) * L + l0 + kk * Dil], cp, pp);
        }
        // w[:, c0:c0+CC, :] -> Cout rows of CC*K (padded to wRow)
        DataCopyExtParams wp{(uint16_t)Cout, (uint32_t)(CC * K * sizeof(float)),
                             (uint32_t)((Cin - CC) * K * sizeof(float)),
                             (uint32_t)((wRow - (CC * K + 7) / 8 * 8) * sizeof(float) / 32), 0};
        DataCopyPad(ws, wGm[(uint64_t)c0 * K], wp, pp);
        xQue.EnQue(xs);
        wQue.EnQue(ws);
    }

    __aicore__ inline void Accumulate(LocalTensor<float>& acc)
    {
        LocalTensor<float> xs = xQue.DeQue<float>();
        LocalTensor<float> ws = wQue.DeQue<float>();
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
        for (uint32_t co = 0; co < Cout; co++) {
            LocalTensor<float> a = acc[co * TL];
            for (uint32_t ci = 0; ci < CC; ci++) {
                for (uint32_t kk = 0; kk < K; kk++) {
                    float wv = ws.GetValue(co * wRow + ci * K + kk);
                    Axpy(a, xs[(kk * CC + ci) * TL], wv, TL);
                }
            }
        }
        xQue.FreeTensor(xs);
        wQue.FreeTensor(ws);
    }

    __aicore__ inline void StoreTile(uint32_t nIdx, uint32_t l0, uint32_t cnt)
    {
        LocalTensor<float> acc = accQue.DeQue<float>();
        uint32_t cntA = (cnt + 7) / 8 * 8;
        DataCopyExtParams cp{(uint16_t)Cout, (uint32_t)(cnt * sizeof(float)),
                             (uint32_t)((TL - cntA) * sizeof(float) / 32),
                             (uint32_t)((Lo - cnt) * sizeof(float)), 0};
        DataCopyPad(yGm[(uint64_t)nIdx * Cout * Lo + l0], acc, cp);
        accQue.FreeTensor(acc);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue, wQue;
    TQue<QuePosition::VECOUT, 1> accQue;
    GlobalTensor<float> xGm, wGm, yGm;
    uint32_t N, Cin, Cout, K, Dil, L, Lo, TL, CC, TPR, wRow;
};

extern "C" __global__ __aicore__ void conv_standard_1d_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelConv1d op;
    op.Init(x, weight, y, td.batch, td.cin, td.cout, td.kernel, td.dilation, td.inLen, td.outLen,
            td.tileL, td.ciChunk, td.tilesPerRow);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_standard_1d_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight, int64_t dilation)
{
    int64_t lout = x.size(2) - dilation * (weight.size(2) - 1);
    TORCH_CHECK(lout > 0, "input too short for kernel");
    at::Tensor y = at::empty({x.size(0), weight.size(0), lout}, x.options());
    EXEC_NPU_CMD(aclnnConvStandard1dCustom, x, weight, dilation, y);
    return y;
}

at::Tensor conv_standard_1d_custom_default(const at::Tensor& x, const at::Tensor& weight)
{
    return conv_standard_1d_custom_impl_npu(x, weight, 1);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_standard_1d_custom", &conv_standard_1d_custom_default);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_standard_1d_custom", &conv_standard_1d_custom_default, "conv1d, stride 1, no padding, no bias");
    m.def("conv_standard_1d_custom_dilated", &conv_standard_1d_custom_impl_npu, "conv1d with dilation");
}
"""
