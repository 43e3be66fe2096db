project_json_src='''
[
    {
        "op": "ConvTransposed2dSquareInputAsymmetricKernelCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]}
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
BEGIN_TILING_DATA_DEF(ConvTransposed2dSquareInputAsymmetricKernelCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, N);
  TILING_DATA_FIELD_DEF(uint32_t, Cin);
  TILING_DATA_FIELD_DEF(uint32_t, Cout);
  TILING_DATA_FIELD_DEF(uint32_t, H);
  TILING_DATA_FIELD_DEF(uint32_t, W);
  TILING_DATA_FIELD_DEF(uint32_t, KH);
  TILING_DATA_FIELD_DEF(uint32_t, KW);
  TILING_DATA_FIELD_DEF(uint32_t, OH);
  TILING_DATA_FIELD_DEF(uint32_t, OW);
  TILING_DATA_FIELD_DEF(uint32_t, OWA);
  TILING_DATA_FIELD_DEF(uint32_t, coTile);
  TILING_DATA_FIELD_DEF(uint32_t, coTiles);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTransposed2dSquareInputAsymmetricKernelCustom,
                           ConvTransposed2dSquareInputAsymmetricKernelCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transposed2d_square_input_asymmetric_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t UB_ACC_BUDGET = 40 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTransposed2dSquareInputAsymmetricKernelCustomTilingData t;
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();   // [Cin, Cout, KH, KW]
    uint32_t N = xs.GetDim(0), Cin = xs.GetDim(1), H = xs.GetDim(2), W = xs.GetDim(3);
    uint32_t Cout = ws.GetDim(1), KH = ws.GetDim(2), KW = ws.GetDim(3);
    uint32_t OH = H + KH - 1;
    uint32_t OW = W + KW - 1;
    uint32_t OWA = (OW + 7) / 8 * 8;
    if (OWA - W > 8) {
        return ge::GRAPH_FAILED;    // left/right zero pad must fit in one 32B block
    }
    // output-channel tile sized so the accumulator fits
    uint32_t coTile = UB_ACC_BUDGET / (OWA * sizeof(float));
    if (coTile > Cout) coTile = Cout;
    if (coTile == 0) coTile = 1;
    uint32_t coTiles = (Cout + coTile - 1) / coTile;

    t.set_N(N); t.set_Cin(Cin); t.set_Cout(Cout); t.set_H(H); t.set_W(W);
    t.set_KH(KH); t.set_KW(KW); t.set_OH(OH); t.set_OW(OW); t.set_OWA(OWA);
    t.set_coTile(coTile); t.set_coTiles(coTiles);
    t.set_totalUnits(N * coTiles * OH);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    context->SetBlockDim(cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    *y = gert::Shape({x->GetDim(0), w->GetDim(1), x->GetDim(2) + w->GetDim(2) - 1, x->GetDim(3) + w->GetDim(3) - 1});
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTransposed2dSquareInputAsymmetricKernelCustom : public OpDef {
public:
    explicit ConvTransposed2dSquareInputAsymmetricKernelCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTransposed2dSquareInputAsymmetricKernelCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

// y[n,co,oy,ox] = sum_{ci,kh,kw} x[n,ci,oy-kh,ox-kw] * w[ci,co,kh,kw]   (stride 1, pad 0)
class ConvTransposeRowKernel {
public:
    __aicore__ inline ConvTransposeRowKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                const ConvTransposed2dSquareInputAsymmetricKernelCustomTilingData& tl)
    {
        t = tl;
        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        // one input row, KW shifted copies
        pipe.InitBuffer(srcQ, 2, t.KW * t.OWA * sizeof(float));
        pipe.InitBuffer(dstQ, 1, t.coTile * t.OWA * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t nCores = GetBlockNum();
        for (uint32_t u = GetBlockIdx(); u < t.totalUnits; u += nCores) {
            uint32_t oy = u % t.OH;
            uint32_t rest = u / t.OH;
            uint32_t cb = rest % t.coTiles;
            uint32_t n = rest / t.coTiles;
            RowUnit(n, cb, oy);
        }
    }

private:
    __aicore__ inline void RowUnit(uint32_t n, uint32_t cb, uint32_t oy)
    {
        uint32_t co0 = cb * t.coTile;
        uint32_t nco = (t.Cout - co0 < t.coTile) ? (t.Cout - co0) : t.coTile;
        uint32_t OWA = t.OWA;
        uint32_t kwkh = t.KH * t.KW;

        LocalTensor<float> acc = dstQ.AllocTensor<float>();
        Duplicate(acc, 0.0f, nco * OWA);

        uint32_t khLo = (oy + 1 > t.H) ? (oy + 1 - t.H) : 0;
        uint32_t khHi = (oy < t.KH - 1) ? oy : (t.KH - 1);
        for (uint32_t ci = 0; ci < t.Cin; ++ci) {
            for (uint32_t kh = khLo; kh <= khHi; ++kh) {
                uint64_t src = (((uint64_t)n * t.Cin + ci) * t.H + (oy - kh)) * t.W;
                LocalTensor<float> sh = srcQ.AllocTensor<float>();
                for (uint32_t kw = 0; kw < t.KW; ++kw) {
                    DataCopyExtParams cp{1, (uint32_t)(t.W * sizeof(float)), 0, 0, 0};
                    DataCopyPadExtParams<float> pd{true, (uint8_t)kw, (uint8_t)(OWA - t.W - kw), 0.0f};
                    DataCopyPad(sh[kw * OWA], xGm[src], cp, pd);
                }
                srcQ.EnQue(sh);
                sh = srcQ.DeQue<float>();
                uint64_t wBase = ((uint64_t)ci * t.Cout + co0) * kwkh + kh * t.KW;
                for (uint32_t c = 0; c < nco; ++c) {
                    for (uint32_t kw = 0; kw < t.KW; ++kw) {
                        float wv = wGm.GetValue(wBase + (uint64_t)c * kwkh + kw);
                        Axpy(acc[c * OWA], sh[kw * OWA], wv, OWA);
                    }
                }
                srcQ.FreeTensor(sh);
            }
        }

        dstQ.EnQue(acc);
        acc = dstQ.DeQue<float>();
        uint64_t plane = (uint64_t)t.OH * t.OW;
        uint64_t dst = ((uint64_t)n * t.Cout + co0) * plane + (uint64_t)oy * t.OW;
        DataCopyExtParams st{(uint16_t)nco, (uint32_t)(t.OW * sizeof(float)), 0,
                             (uint32_t)((plane - t.OW) * sizeof(float)), 0};
        DataCopyPad(yGm[dst], acc, st);
        dstQ.FreeTensor(acc);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> srcQ;
    TQue<QuePosition::VECOUT, 1> dstQ;
    GlobalTensor<float> xGm, wGm, yGm;
    ConvTransposed2dSquareInputAsymmetricKernelCustomTilingData t;
};

extern "C" __global__ __aicore__ void conv_transposed2d_square_input_asymmetric_kernel_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ConvTransposeRowKernel k;
    k.Init(x, weight, y, td);
    k.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transposed2d_square_input_asymmetric_kernel_impl_npu(const at::Tensor& x, const at::Tensor& weight)
{
    auto oh = x.size(2) + weight.size(2) - 1;
    auto ow = x.size(3) + weight.size(3) - 1;
    at::Tensor y = at::empty({x.size(0), weight.size(1), oh, ow}, x.options());
    EXEC_NPU_CMD(aclnnConvTransposed2dSquareInputAsymmetricKernelCustom, x, weight, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed2d_square_input_asymmetric_kernel_custom",
           &conv_transposed2d_square_input_asymmetric_kernel_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed2d_square_input_asymmetric_kernel_custom",
          &conv_transposed2d_square_input_asymmetric_kernel_impl_npu, "conv_transpose2d, stride 1, no bias");
}
"""
