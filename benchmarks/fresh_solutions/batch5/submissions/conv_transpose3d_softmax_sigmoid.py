project_json_src='''
[
    {
        "op": "ConvTranspose3dSoftmaxSigmoidCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]},
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
BEGIN_TILING_DATA_DEF(ConvTranspose3dSoftmaxSigmoidCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, d);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, od);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, units);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dSoftmaxSigmoidCustom, ConvTranspose3dSoftmaxSigmoidCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transpose3d_softmax_sigmoid_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose3dSoftmaxSigmoidCustomTilingData td;
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();   // [Cin, Cout, 3, 3, 3]
    auto attrs = context->GetAttrs();
    int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    int64_t opad = *attrs->GetAttrPointer<int64_t>(2);
    // kernel is written for the k3 / s2 / p1 / op1 upsampling case (output = 2x input)
    if (stride != 2 || pad != 1 || opad != 1 || ws.GetDim(2) != 3 || ws.GetDim(3) != 3 || ws.GetDim(4) != 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t w = xs.GetDim(4);
    if (w % 8 != 0) {
        return ge::GRAPH_FAILED;
    }
    td.set_n(xs.GetDim(0));
    td.set_cin(xs.GetDim(1));
    td.set_cout(ws.GetDim(1));
    td.set_d(xs.GetDim(2));
    td.set_h(xs.GetDim(3));
    td.set_w(w);
    td.set_od(2 * xs.GetDim(2));
    td.set_oh(2 * xs.GetDim(3));
    td.set_ow(2 * w);
    td.set_units(xs.GetDim(0) * 2 * xs.GetDim(2) * 2 * xs.GetDim(3));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    context->SetBlockDim(plat.GetCoreNumAiv());
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
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
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    for (int i = 2; i < 5; ++i) {
        y->SetDim(i, (x->GetDim(i) - 1) * 2 - 2 + 3 + 1);
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTranspose3dSoftmaxSigmoidCustom : public OpDef {
public:
    explicit ConvTranspose3dSoftmaxSigmoidCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(2);
        this->Attr("padding").AttrType(OPTIONAL).Int(1);
        this->Attr("output_padding").AttrType(OPTIONAL).Int(1);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTranspose3dSoftmaxSigmoidCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

// stride 2 / pad 1 / k 3:  o = 2*i - 1 + k
//   even o = 2j   <- k=1, i=j
//   odd  o = 2j+1 <- k=2, i=j   and k=0, i=j+1
// Each unit = one (n, od, oh) output row for all Cout channels. W-direction is kept as
// [even half | odd half] per channel and interleaved with Gather before the store.
class KernelConvT3dSoftmaxSigmoid {
public:
    __aicore__ inline KernelConvT3dSoftmaxSigmoid() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const ConvTranspose3dSoftmaxSigmoidCustomTilingData& td)
    {
        t = td;
        W = t.w; OW = t.ow;
        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        bGm.SetGlobalBuffer((__gm__ float*)b);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(inQ, 2, 2 * t.cin * W * sizeof(float));     // plain rows + rows shifted by one
        pipe.InitBuffer(accBuf, t.cout * OW * sizeof(float));
        pipe.InitBuffer(outQ, 2, t.cout * OW * sizeof(float));
        pipe.InitBuffer(idxBuf, t.cout * OW * sizeof(uint32_t));
        pipe.InitBuffer(redBuf, 2 * OW * sizeof(float));

        // gather byte offsets for even/odd interleave
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        for (uint32_t c = 0; c < t.cout; ++c) {
            for (uint32_t j = 0; j < W; ++j) {
                idx.SetValue(c * OW + 2 * j, (c * OW + j) * sizeof(float));
                idx.SetValue(c * OW + 2 * j + 1, (c * OW + W + j) * sizeof(float));
            }
        }
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = GetBlockIdx(); u < t.units; u += GetBlockNum()) {
            uint32_t oh = u % t.oh;
            uint32_t od = (u / t.oh) % t.od;
            uint32_t n = u / (t.oh * t.od);
            ComputeRow(n, od, oh);
        }
    }

private:
    // taps along one axis hitting output o: up to 2 (k, i) pairs
    __aicore__ inline uint32_t Taps(uint32_t o, uint32_t inLen, uint32_t* ks, uint32_t* is)
    {
        uint32_t cnt = 0;
        if ((o & 1) == 0) {
            ks[cnt] = 1; is[cnt] = o / 2; ++cnt;
        } else {
            uint32_t j = o / 2;
            ks[cnt] = 2; is[cnt] = j; ++cnt;
            if (j + 1 < inLen) { ks[cnt] = 0; is[cnt] = j + 1; ++cnt; }
        }
        return cnt;
    }

    __aicore__ inline void ComputeRow(uint32_t n, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, t.cout * OW);

        uint32_t kdL[2], idL[2], khL[2], ihL[2];
        uint32_t nd = Taps(od, t.d, kdL, idL);
        uint32_t nh = Taps(oh, t.h, khL, ihL);
        uint64_t chanStride = (uint64_t)t.d * t.h * W;

        for (uint32_t a = 0; a < nd; ++a) {
            for (uint32_t bb = 0; bb < nh; ++bb) {
                uint64_t rowOff = (uint64_t)n * t.cin * chanStride + ((uint64_t)idL[a] * t.h + ihL[bb]) * W;
                LocalTensor<float> rows = inQ.AllocTensor<float>();
                // all Cin rows at this (id, ih)
                DataCopyExtParams cpA{(uint16_t)t.cin, (uint32_t)(W * sizeof(float)),
                                      (uint32_t)((chanStride - W) * sizeof(float)), 0, 0};
                DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
                DataCopyPad(rows, xGm[rowOff], cpA, noPad);
                // same rows starting at x+1, last lane zero
                DataCopyExtParams cpB{(uint16_t)t.cin, (uint32_t)((W - 1) * sizeof(float)),
                                      (uint32_t)((chanStride - W + 1) * sizeof(float)), 0, 0};
                DataCopyPadExtParams<float> rPad{true, 0, 1, 0.0f};
                DataCopyPad(rows[t.cin * W], xGm[rowOff + 1], cpB, rPad);
                inQ.EnQue(rows);
                rows = inQ.DeQue<float>();

                uint32_t tapBase = kdL[a] * 9 + khL[bb] * 3;
                for (uint32_t ci = 0; ci < t.cin; ++ci) {
                    LocalTensor<float> plain = rows[ci * W];
                    LocalTensor<float> shifted = rows[(t.cin + ci) * W];
                    for (uint32_t co = 0; co < t.cout; ++co) {
                        uint64_t wo = ((uint64_t)ci * t.cout + co) * 27 + tapBase;
                        float w0 = wGm.GetValue(wo);
                        float w1 = wGm.GetValue(wo + 1);
                        float w2 = wGm.GetValue(wo + 2);
                        Axpy(acc[co * OW], plain, w1, W);          // even lanes
                        Axpy(acc[co * OW + W], plain, w2, W);      // odd lanes, i = j
                        Axpy(acc[co * OW + W], shifted, w0, W);    // odd lanes, i = j + 1
                    }
                }
                inQ.FreeTensor(rows);
            }
        }

        for (uint32_t co = 0; co < t.cout; ++co) {
            Adds(acc[co * OW], acc[co * OW], bGm.GetValue(co), OW);
        }

        // softmax over channels, lane-wise
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> mx = red;
        LocalTensor<float> sm = red[OW];
        DataCopy(mx, acc, OW);
        for (uint32_t co = 1; co < t.cout; ++co) {
            Max(mx, mx, acc[co * OW], OW);
        }
        Duplicate(sm, 0.0f, OW);
        for (uint32_t co = 0; co < t.cout; ++co) {
            Sub(acc[co * OW], acc[co * OW], mx, OW);
            Exp(acc[co * OW], acc[co * OW], OW);
            Add(sm, sm, acc[co * OW], OW);
        }
        for (uint32_t co = 0; co < t.cout; ++co) {
            Div(acc[co * OW], acc[co * OW], sm, OW);
        }
        // sigmoid = 1 / (1 + exp(-x))
        uint32_t total = t.cout * OW;
        Muls(acc, acc, -1.0f, total);
        Exp(acc, acc, total);
        Adds(acc, acc, 1.0f, total);
        Reciprocal(acc, acc, total);

        LocalTensor<float> outL = outQ.AllocTensor<float>();
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        Gather(outL, acc, idx, (uint32_t)0, total);
        outQ.EnQue(outL);
        outL = outQ.DeQue<float>();
        uint64_t oPlane = (uint64_t)t.od * t.oh * OW;
        uint64_t dst = (uint64_t)n * t.cout * oPlane + ((uint64_t)od * t.oh + oh) * OW;
        DataCopyExtParams st{(uint16_t)t.cout, (uint32_t)(OW * sizeof(float)), 0,
                             (uint32_t)((oPlane - OW) * sizeof(float)), 0};
        DataCopyPad(yGm[dst], outL, st);
        outQ.FreeTensor(outL);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> accBuf, idxBuf, redBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    ConvTranspose3dSoftmaxSigmoidCustomTilingData t;
    uint32_t W, OW;
};

extern "C" __global__ __aicore__ void conv_transpose3d_softmax_sigmoid_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelConvT3dSoftmaxSigmoid op;
    op.Init(x, weight, bias, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transpose3d_softmax_sigmoid_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                     const at::Tensor& bias, int64_t stride,
                                                     int64_t padding, int64_t output_padding)
{
    int64_t k = weight.size(2);
    auto outDim = [&](int64_t i) { return (i - 1) * stride - 2 * padding + k + output_padding; };
    at::Tensor y = at::empty({x.size(0), weight.size(1), outDim(x.size(2)), outDim(x.size(3)), outDim(x.size(4))},
                             x.options());
    EXEC_NPU_CMD(aclnnConvTranspose3dSoftmaxSigmoidCustom, x, weight, bias, stride, padding, output_padding, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_softmax_sigmoid_custom", &conv_transpose3d_softmax_sigmoid_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_softmax_sigmoid_custom", &conv_transpose3d_softmax_sigmoid_impl_npu,
          "conv_transpose3d -> softmax(dim=1) -> sigmoid",
          py::arg("x"), py::arg("weight"), py::arg("bias"),
          py::arg("stride") = 2, py::arg("padding") = 1, py::arg("output_padding") = 1);
}
"""
