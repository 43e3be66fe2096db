project_json_src='''
[
    {
        "op": "Conv2dDivideLeakyReluCustom",
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
            {"name": "divisor", "param_type": "optional", "type": "float", "default_value": "2.0"},
            {"name": "negative_slope", "param_type": "optional", "type": "float", "default_value": "0.01"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dDivideLeakyReluCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraRows);
  TILING_DATA_FIELD_DEF(float, invDivisor);
  TILING_DATA_FIELD_DEF(float, slope);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dDivideLeakyReluCustom, Conv2dDivideLeakyReluCustomTilingData)
}
"""

host_operator_src="""
#include "conv2d_divide_leaky_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetOriginShape();
    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t oc = ws.GetDim(0), k = ws.GetDim(2);
    if (ws.GetDim(1) != c || ws.GetDim(3) != k || h < k || w < k) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = h - k + 1, ow = w - k + 1;
    uint32_t owA = (ow + 7) / 8 * 8;
    // whole receptive strip (c*k*k rows) and the weights must fit UB
    if ((uint64_t)c * k * k * owA * 4 * 2 > 120 * 1024 || (uint64_t)oc * c * k * k * 4 > 32 * 1024) {
        return ge::GRAPH_FAILED;
    }

    const float *div = context->GetAttrs()->GetAttrPointer<float>(0);
    const float *slope = context->GetAttrs()->GetAttrPointer<float>(1);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t rows = n * oh;
    if (cores > rows) cores = rows;

    Conv2dDivideLeakyReluCustomTilingData t;
    t.set_batch(n);
    t.set_inC(c);
    t.set_outC(oc);
    t.set_inH(h);
    t.set_inW(w);
    t.set_ksize(k);
    t.set_outH(oh);
    t.set_outW(ow);
    t.set_outWAlign(owA);
    t.set_rowsPerCore(rows / cores);
    t.set_extraRows(rows % cores);
    t.set_invDivisor(1.0f / *div);
    t.set_slope(*slope);

    context->SetBlockDim(cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    int64_t k = ws->GetDim(2);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    ys->SetDim(2, xs->GetDim(2) - k + 1);
    ys->SetDim(3, xs->GetDim(3) - k + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv2dDivideLeakyReluCustom : public OpDef {
public:
    explicit Conv2dDivideLeakyReluCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("divisor").AttrType(OPTIONAL).Float(2.0);
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Conv2dDivideLeakyReluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// one unit = one (n, oh) output row for every output channel.
// the c*k*k shifted input rows it needs are staged once and reused for all oc.
class KernelConv2dDivLeaky {
public:
    __aicore__ inline KernelConv2dDivLeaky() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const Conv2dDivideLeakyReluCustomTilingData &t)
    {
        batch = t.batch; C = t.inC; OC = t.outC; H = t.inH; W = t.inW; K = t.ksize;
        OH = t.outH; OW = t.outW; OWA = t.outWAlign;
        invDiv = t.invDivisor; slope = t.slope;
        taps = C * K * K;

        uint32_t bid = AscendC::GetBlockIdx();
        if (bid < t.extraRows) {
            rowCnt = t.rowsPerCore + 1;
            rowBeg = bid * rowCnt;
        } else {
            rowCnt = t.rowsPerCore;
            rowBeg = bid * t.rowsPerCore + t.extraRows;
        }

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)b);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        wCnt = OC * taps;
        wCntA = (wCnt + 7) / 8 * 8;
        pipe.InitBuffer(stripQ, BUFFER_NUM, taps * OWA * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, OWA * sizeof(float));
        pipe.InitBuffer(wBuf, (wCntA + 64) * sizeof(float));
        pipe.InitBuffer(accBuf, OWA * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LoadWeights();
        if (rowCnt == 0) return;
        CopyStrip(rowBeg);
        for (uint32_t i = 0; i < rowCnt; ++i) {
            AscendC::LocalTensor<float> strip = stripQ.DeQue<float>();
            if (i + 1 < rowCnt) {
                CopyStrip(rowBeg + i + 1);   // prefetch next row while computing this one
            }
            ComputeRow(rowBeg + i, strip);
            stripQ.FreeTensor(strip);
        }
    }

private:
    __aicore__ inline void LoadWeights()
    {
        AscendC::LocalTensor<float> wl = wBuf.Get<float>();
        AscendC::DataCopyExtParams p{1, wCnt * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(wl, wGm, p, pad);
        AscendC::event_t e0 = static_cast<AscendC::event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::MTE2_V));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(e0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(e0);
        // fold 1/divisor into weights (bias folded on read)
        AscendC::Muls(wl, wl, invDiv, wCnt);
        AscendC::event_t e1 = static_cast<AscendC::event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(e1);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(e1);
    }

    __aicore__ inline void CopyStrip(uint32_t row)
    {
        uint32_t n = row / OH;
        uint32_t oh = row % OH;
        AscendC::LocalTensor<float> strip = stripQ.AllocTensor<float>();
        // for each (c, kw): K rows (kh = 0..K-1) of OW floats starting at column kw
        AscendC::DataCopyExtParams p{(uint16_t)K, OW * (uint32_t)sizeof(float),
                                     (W - OW) * (uint32_t)sizeof(float), 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{true, 0, (uint8_t)(OWA - OW), 0.0f};
        for (uint32_t c = 0; c < C; ++c) {
            uint64_t base = (((uint64_t)n * C + c) * H + oh) * W;
            for (uint32_t kw = 0; kw < K; ++kw) {
                AscendC::DataCopyPad(strip[((c * K + kw) * K) * OWA], xGm[base + kw], p, pad);
            }
        }
        stripQ.EnQue(strip);
    }

    __aicore__ inline void ComputeRow(uint32_t row, const AscendC::LocalTensor<float> &strip)
    {
        uint32_t n = row / OH;
        uint32_t oh = row % OH;
        AscendC::LocalTensor<float> wl = wBuf.Get<float>();
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::DataCopyExtParams op{1, OW * (uint32_t)sizeof(float), 0, 0, 0};

        for (uint32_t oc = 0; oc < OC; ++oc) {
            float b = bGm.GetValue(oc) * invDiv;
            AscendC::Duplicate(acc, b, OWA);
            const uint32_t wBase = oc * taps;   // weight [oc][c][kh][kw]
            for (uint32_t c = 0; c < C; ++c) {
                for (uint32_t kh = 0; kh < K; ++kh) {
                    for (uint32_t kw = 0; kw < K; ++kw) {
                        float wv = wl.GetValue(wBase + (c * K + kh) * K + kw);
                        AscendC::Axpy(acc, strip[((c * K + kw) * K + kh) * OWA], wv, OWA);
                    }
                }
            }
            AscendC::LocalTensor<float> yl = outQ.AllocTensor<float>();
            AscendC::LeakyRelu(yl, acc, slope, OWA);
            outQ.EnQue(yl);
            yl = outQ.DeQue<float>();
            uint64_t off = (((uint64_t)n * OC + oc) * OH + oh) * OW;
            AscendC::DataCopyPad(yGm[off], yl, op);
            outQ.FreeTensor(yl);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> stripQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> wBuf, accBuf;
    AscendC::GlobalTensor<float> xGm, wGm, bGm, yGm;
    uint32_t batch, C, OC, H, W, K, OH, OW, OWA, taps, wCnt, wCntA;
    uint32_t rowBeg, rowCnt;
    float invDiv, slope;
};

extern "C" __global__ __aicore__ void conv2d_divide_leaky_relu_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelConv2dDivLeaky op;
    op.Init(x, weight, bias, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv2d_divide_leaky_relu_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                    const at::Tensor& bias, double divisor)
{
    int64_t k = weight.size(2);
    at::Tensor y = at::empty({x.size(0), weight.size(0), x.size(2) - k + 1, x.size(3) - k + 1}, x.options());
    double slope = 0.01;
    EXEC_NPU_CMD(aclnnConv2dDivideLeakyReluCustom, x, weight, bias, divisor, slope, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_divide_leaky_relu_custom", &conv2d_divide_leaky_relu_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_divide_leaky_relu_custom", &conv2d_divide_leaky_relu_custom_impl_npu,
          "conv2d / divisor -> leaky_relu");
}
"""
