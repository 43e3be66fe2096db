project_json_src='''
[
    {
        "op": "TrilinearUpsampleCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "attr": [
            {"name": "scale_d", "param_type": "required", "type": "int"},
            {"name": "scale_h", "param_type": "required", "type": "int"},
            {"name": "scale_w", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TrilinearUpsampleCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, inWAlign);     // UB row pitch of an input plane
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);    // UB row pitch of an output plane
  TILING_DATA_FIELD_DEF(uint32_t, totalPlanes);  // N * C * outD output planes
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, planesTail);
  TILING_DATA_FIELD_DEF(float, ratioD);          // align_corners=True: (in - 1) / (out - 1)
  TILING_DATA_FIELD_DEF(float, ratioH);
  TILING_DATA_FIELD_DEF(float, ratioW);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TrilinearUpsampleCustom, TrilinearUpsampleCustomTilingData)
}
"""

host_operator_src="""
#include "trilinear_upsample_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t AlignUp8(uint32_t v) { return (v + 7U) / 8U * 8U; }
static inline float Ratio(uint32_t in, uint32_t out)
{
    return out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) : 0.0f;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    TrilinearUpsampleCustomTilingData tiling;
    const auto& shape = context->GetInputShape(0)->GetOriginShape();
    if (shape.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    uint32_t sd = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t sh = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t sw = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));

    uint32_t nc = static_cast<uint32_t>(shape.GetDim(0) * shape.GetDim(1));
    uint32_t inD = static_cast<uint32_t>(shape.GetDim(2));
    uint32_t inH = static_cast<uint32_t>(shape.GetDim(3));
    uint32_t inW = static_cast<uint32_t>(shape.GetDim(4));
    uint32_t outD = inD * sd, outH = inH * sh, outW = inW * sw;
    uint32_t inWAlign = AlignUp8(inW);
    uint32_t outWAlign = AlignUp8(outW);

    // UB budget (floats): 2x2 input planes, blended plane, 4 tables + 2 gather results
    // of inH*outWAlign, 2 output planes and one temp row
    uint64_t need = 5ULL * inH * inWAlign + 6ULL * inH * outWAlign + 2ULL * outH * outWAlign + outWAlign;
    if (need * sizeof(float) > 180U * 1024U) {
        return ge::GRAPH_FAILED;
    }

    uint32_t totalPlanes = nc * outD;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint32_t blockDim = totalPlanes < coreNum ? totalPlanes : coreNum;
    if (blockDim == 0) blockDim = 1;

    tiling.set_inD(inD);
    tiling.set_inH(inH);
    tiling.set_inW(inW);
    tiling.set_outD(outD);
    tiling.set_outH(outH);
    tiling.set_outW(outW);
    tiling.set_inWAlign(inWAlign);
    tiling.set_outWAlign(outWAlign);
    tiling.set_totalPlanes(totalPlanes);
    tiling.set_planesPerCore(totalPlanes / blockDim);
    tiling.set_planesTail(totalPlanes % blockDim);
    tiling.set_ratioD(Ratio(inD, outD));
    tiling.set_ratioH(Ratio(inH, outH));
    tiling.set_ratioW(Ratio(inW, outW));

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    *ys = *xs;
    for (size_t i = 0; i < 3; ++i) {
        int64_t s = *attrs->GetAttrPointer<int64_t>(i);
        ys->SetDim(2 + i, xs->GetDim(2 + i) * s);
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
class TrilinearUpsampleCustom : public OpDef {
public:
    explicit TrilinearUpsampleCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scale_d").Int();
        this->Attr("scale_h").Int();
        this->Attr("scale_w").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(TrilinearUpsampleCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Trilinear interpolation, align_corners=True, separable:
//   1) depth : blend the two source planes d0/d1 -> P[inH][inW]
//   2) width : Gather P at w0/w1 for every output column, lerp -> Q[inH][outW]
//   3) height: each output row is a lerp of two rows of Q (row offsets stay 32B aligned)
// One output plane (n, c, od) is produced per iteration; planes are split across cores.
class KernelTrilinear {
public:
    __aicore__ inline KernelTrilinear() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const TrilinearUpsampleCustomTilingData& td)
    {
        inD = td.inD; inH = td.inH; inW = td.inW;
        outD = td.outD; outH = td.outH; outW = td.outW;
        inWA = td.inWAlign; outWA = td.outWAlign;
        ratioD = td.ratioD; ratioH = td.ratioH; ratioW = td.ratioW;

        uint32_t bid = GetBlockIdx();
        planeCount = td.planesPerCore + (bid < td.planesTail ? 1 : 0);
        planeBegin = bid * td.planesPerCore + (bid < td.planesTail ? bid : td.planesTail);

        uint64_t nc = td.totalPlanes / outD;
        xGm.SetGlobalBuffer((__gm__ float*)x, nc * inD * inH * inW);
        yGm.SetGlobalBuffer((__gm__ float*)y, nc * outD * outH * outW);

        inPlane = inH * inWA;
        midPlane = inH * outWA;
        outPlane = outH * outWA;
        pipe.InitBuffer(inQueA, BUFFER_NUM, inPlane * sizeof(float));
        pipe.InitBuffer(inQueB, BUFFER_NUM, inPlane * sizeof(float));
        pipe.InitBuffer(outQue, BUFFER_NUM, outPlane * sizeof(float));
        pipe.InitBuffer(blendBuf, inPlane * sizeof(float));
        pipe.InitBuffer(idx0Buf, midPlane * sizeof(uint32_t));
        pipe.InitBuffer(idx1Buf, midPlane * sizeof(uint32_t));
        pipe.InitBuffer(lwBuf, midPlane * sizeof(float));
        pipe.InitBuffer(loBuf, midPlane * sizeof(float));
        pipe.InitBuffer(hiBuf, midPlane * sizeof(float));
        pipe.InitBuffer(rowBuf, outWA * sizeof(float));

        BuildWidthTables();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = 0; p < planeCount; ++p) {
            uint32_t plane = planeBegin + p;
            uint32_t ncIdx = plane / outD;
            uint32_t od = plane % outD;

            float srcD = ratioD * static_cast<float>(od);
            uint32_t d0 = static_cast<uint32_t>(srcD);
            if (d0 > inD - 1) d0 = inD - 1;
            uint32_t d1 = (d0 + 1 < inD) ? d0 + 1 : d0;
            float wd = srcD - static_cast<float>(d0);

            CopyInPlanes(ncIdx, d0, d1);
            Compute(wd);
            CopyOutPlane(plane);
        }
    }

private:
    // byte offsets into the blended plane for the left/right neighbours of every output column
    __aicore__ inline void BuildWidthTables()
    {
        LocalTensor<uint32_t> i0 = idx0Buf.Get<uint32_t>();
        LocalTensor<uint32_t> i1 = idx1Buf.Get<uint32_t>();
        LocalTensor<float> lw = lwBuf.Get<float>();
        for (uint32_t ow = 0; ow < outWA; ++ow) {
            uint32_t w0 = 0, w1 = 0;
            float frac = 0.0f;
            if (ow < outW) {
                float src = ratioW * static_cast<float>(ow);
                w0 = static_cast<uint32_t>(src);
                if (w0 > inW - 1) w0 = inW - 1;
                w1 = (w0 + 1 < inW) ? w0 + 1 : w0;
                frac = src - static_cast<float>(w0);
            }
            for (uint32_t h = 0; h < inH; ++h) {
                uint32_t pos = h * outWA + ow;
                i0.SetValue(pos, (h * inWA + w0) * sizeof(float));
                i1.SetValue(pos, (h * inWA + w1) * sizeof(float));
                lw.SetValue(pos, frac);
            }
        }
        // scalar writes above must land before the vector unit reads the tables
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evt);
        WaitFlag<HardEvent::S_V>(evt);
    }

    __aicore__ inline void CopyInPlanes(uint32_t ncIdx, uint32_t d0, uint32_t d1)
    {
        LocalTensor<float> a = inQueA.AllocTensor<float>();
        LocalTensor<float> b = inQueB.AllocTensor<float>();
        uint64_t base = static_cast<uint64_t>(ncIdx) * inD * inH * inW;
        DataCopyExtParams cp{static_cast<uint16_t>(inH), static_cast<uint32_t>(inW * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(a, xGm[base + static_cast<uint64_t>(d0) * inH * inW], cp, pad);
        DataCopyPad(b, xGm[base + static_cast<uint64_t>(d1) * inH * inW], cp, pad);
        inQueA.EnQue(a);
        inQueB.EnQue(b);
    }

    __aicore__ inline void Compute(float wd)
    {
        LocalTensor<float> a = inQueA.DeQue<float>();
        LocalTensor<float> b = inQueB.DeQue<float>();
        LocalTensor<float> blend = blendBuf.Get<float>();
        LocalTensor<uint32_t> i0 = idx0Buf.Get<uint32_t>();
        LocalTensor<uint32_t> i1 = idx1Buf.Get<uint32_t>();
        LocalTensor<float> lw = lwBuf.Get<float>();
        LocalTensor<float> lo = loBuf.Get<float>();
        LocalTensor<float> hi = hiBuf.Get<float>();
        LocalTensor<float> row = rowBuf.Get<float>();
        LocalTensor<float> out = outQue.AllocTensor<float>();

        // depth: blend = a + wd * (b - a)
        Sub(b, b, a, inPlane);
        Muls(b, b, wd, inPlane);
        Add(blend, a, b, inPlane);
        inQueA.FreeTensor(a);
        inQueB.FreeTensor(b);

        // width: lo = blend[w0], hi = blend[w1], lo += lw * (hi - lo)
        Gather(lo, blend, i0, 0U, midPlane);
        Gather(hi, blend, i1, 0U, midPlane);
        Sub(hi, hi, lo, midPlane);
        Mul(hi, hi, lw, midPlane);
        Add(lo, lo, hi, midPlane);

        // height: out[oh] = lo[h0] + wh * (lo[h1] - lo[h0])
        for (uint32_t oh = 0; oh < outH; ++oh) {
            float srcH = ratioH * static_cast<float>(oh);
            uint32_t h0 = static_cast<uint32_t>(srcH);
            if (h0 > inH - 1) h0 = inH - 1;
            uint32_t h1 = (h0 + 1 < inH) ? h0 + 1 : h0;
            float wh = srcH - static_cast<float>(h0);
            Sub(row, lo[h1 * outWA], lo[h0 * outWA], outWA);
            Muls(row, row, wh, outWA);
            Add(out[oh * outWA], lo[h0 * outWA], row, outWA);
        }
        outQue.EnQue<float>(out);
    }

    __aicore__ inline void CopyOutPlane(uint32_t plane)
    {
        LocalTensor<float> out = outQue.DeQue<float>();
        DataCopyExtParams cp{static_cast<uint16_t>(outH), static_cast<uint32_t>(outW * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(plane) * outH * outW], out, cp);
        outQue.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueA, inQueB;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<QuePosition::VECCALC> blendBuf, idx0Buf, idx1Buf, lwBuf, loBuf, hiBuf, rowBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t inD, inH, inW, outD, outH, outW, inWA, outWA;
    uint32_t inPlane, midPlane, outPlane;
    uint32_t planeBegin, planeCount;
    float ratioD, ratioH, ratioW;
};

extern "C" __global__ __aicore__ void trilinear_upsample_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelTrilinear op;
    op.Init(x, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor trilinear_upsample_custom_impl_npu(const at::Tensor& x, int64_t scale_d, int64_t scale_h, int64_t scale_w)
{
    TORCH_CHECK(x.dim() == 5, "trilinear_upsample_custom expects NCDHW input");
    at::Tensor xc = x.contiguous();
    at::Tensor result = at::empty({xc.size(0), xc.size(1), xc.size(2) * scale_d, xc.size(3) * scale_h,
                                   xc.size(4) * scale_w}, xc.options());
    EXEC_NPU_CMD(aclnnTrilinearUpsampleCustom, xc, scale_d, scale_h, scale_w, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("trilinear_upsample_custom", &trilinear_upsample_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("trilinear_upsample_custom", &trilinear_upsample_custom_impl_npu,
          "trilinear upsample, integer scale, align_corners=True");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return custom_ops_lib.trilinear_upsample_custom(x, 2, 2, 2)
'''
