project_json_src='''
[
    {
        "op": "HalfPixelBilinearResizeCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "scale_h", "param_type": "required", "type": "float"},
            {"name": "scale_w", "param_type": "required", "type": "float"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HalfPixelBilinearResizeTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, inPitch);     // UB row pitch of the input plane
  TILING_DATA_FIELD_DEF(uint32_t, outPitch);    // UB row pitch of output rows
  TILING_DATA_FIELD_DEF(uint32_t, outRowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(float, invScaleH);      // src = (dst + 0.5) * invScale - 0.5
  TILING_DATA_FIELD_DEF(float, invScaleW);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(HalfPixelBilinearResizeCustom, HalfPixelBilinearResizeTilingData)
}
"""

host_operator_src="""
#include "half_pixel_bilinear_resize_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
constexpr uint32_t UB_USABLE = 176 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    float sh = *context->GetAttrs()->GetAttrPointer<float>(0);
    float sw = *context->GetAttrs()->GetAttrPointer<float>(1);
    uint32_t planes = xs.GetDim(0) * xs.GetDim(1);
    uint32_t inH = xs.GetDim(2);
    uint32_t inW = xs.GetDim(3);
    uint32_t outH = (uint32_t)std::floor(inH * sh);
    uint32_t outW = (uint32_t)std::floor(inW * sw);
    uint32_t inPitch = (inW + 7) / 8 * 8;
    uint32_t outPitch = (outW + 7) / 8 * 8;

    // resident: input plane x2, horizontally resized plane, 3 column tables,
    // 2 gather lines; the rest goes to double-buffered output rows
    uint32_t fixedBytes = (2 * inH * inPitch + inH * outPitch + 5 * outPitch) * sizeof(float);
    if (fixedBytes >= UB_USABLE) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = (UB_USABLE - fixedBytes) / (2 * outPitch * sizeof(float));
    if (rows > outH) rows = outH;
    if (rows == 0) rows = 1;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t perCore = (planes + cores - 1) / cores;
    uint32_t used = (planes + perCore - 1) / perCore;

    HalfPixelBilinearResizeTilingData td;
    td.set_planes(planes);
    td.set_inH(inH);
    td.set_inW(inW);
    td.set_outH(outH);
    td.set_outW(outW);
    td.set_inPitch(inPitch);
    td.set_outPitch(outPitch);
    td.set_outRowsPerTile(rows);
    td.set_planesPerCore(perCore);
    td.set_invScaleH(1.0f / sh);
    td.set_invScaleW(1.0f / sw);
    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    float sh = *context->GetAttrs()->GetAttrPointer<float>(0);
    float sw = *context->GetAttrs()->GetAttrPointer<float>(1);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, xs->GetDim(1));
    ys->SetDim(2, (int64_t)(xs->GetDim(2) * sh));
    ys->SetDim(3, (int64_t)(xs->GetDim(3) * sw));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class HalfPixelBilinearResizeCustom : public OpDef {
public:
    explicit HalfPixelBilinearResizeCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scale_h").Float();
        this->Attr("scale_w").Float();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(HalfPixelBilinearResizeCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

// Separable bilinear resize with half-pixel centres (align_corners=False).
// Per plane: (1) every input row is resized horizontally with two Gathers
// and a lerp against precomputed column tables, (2) every output row is a
// lerp of two horizontally resized rows with scalar weights.
class HalfPixelBilinearResize {
public:
    __aicore__ inline HalfPixelBilinearResize() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const HalfPixelBilinearResizeTilingData& td)
    {
        p = td;
        planeBegin = GetBlockIdx() * p.planesPerCore;
        planeEnd = planeBegin + p.planesPerCore;
        if (planeEnd > p.planes) planeEnd = p.planes;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(planeQ, 2, p.inH * p.inPitch * sizeof(float));
        pipe.InitBuffer(rowsQ, 2, p.outRowsPerTile * p.outPitch * sizeof(float));
        pipe.InitBuffer(hBuf, p.inH * p.outPitch * sizeof(float));
        pipe.InitBuffer(leftIdx, p.outPitch * sizeof(uint32_t));
        pipe.InitBuffer(rightIdx, p.outPitch * sizeof(uint32_t));
        pipe.InitBuffer(fracBuf, p.outPitch * sizeof(float));
        pipe.InitBuffer(g0Buf, p.outPitch * sizeof(float));
        pipe.InitBuffer(g1Buf, p.outPitch * sizeof(float));

        BuildColumnTables();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t pl = planeBegin; pl < planeEnd; ++pl) {
            LoadPlane(pl);
            ResizeRows();
            for (uint32_t oy0 = 0; oy0 < p.outH; oy0 += p.outRowsPerTile) {
                uint32_t cnt = (p.outH - oy0) < p.outRowsPerTile ? (p.outH - oy0) : p.outRowsPerTile;
                BlendColumns(oy0, cnt);
                StoreRows(pl, oy0, cnt);
            }
        }
    }

private:
    __aicore__ inline void SourceIndex(uint32_t dst, float inv, uint32_t inSize,
                                       uint32_t& i0, uint32_t& i1, float& frac)
    {
        float src = ((float)dst + 0.5f) * inv - 0.5f;
        if (src < 0.0f) src = 0.0f;
        i0 = (uint32_t)src;
        if (i0 > inSize - 1) i0 = inSize - 1;
        i1 = (i0 < inSize - 1) ? i0 + 1 : i0;
        frac = src - (float)i0;
    }

    __aicore__ inline void BuildColumnTables()
    {
        LocalTensor<uint32_t> l = leftIdx.Get<uint32_t>();
        LocalTensor<uint32_t> r = rightIdx.Get<uint32_t>();
        LocalTensor<float> f = fracBuf.Get<float>();
        for (uint32_t ox = 0; ox < p.outW; ++ox) {
            uint32_t x0, x1;
            float lam;
            SourceIndex(ox, p.invScaleW, p.inW, x0, x1, lam);
            l.SetValue(ox, x0 * (uint32_t)sizeof(float));
            r.SetValue(ox, x1 * (uint32_t)sizeof(float));
            f.SetValue(ox, lam);
        }
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
    }

    __aicore__ inline void LoadPlane(uint32_t pl)
    {
        LocalTensor<float> in = planeQ.AllocTensor<float>();
        uint32_t wAligned = (p.inW + 7) / 8 * 8;
        DataCopyExtParams cp{(uint16_t)p.inH, (uint32_t)(p.inW * sizeof(float)), 0,
                             (uint32_t)((p.inPitch - wAligned) / 8), 0};
        DataCopyPadExtParams<float> nopad{false, 0, 0, 0.0f};
        DataCopyPad(in, xGm[(uint64_t)pl * p.inH * p.inW], cp, nopad);
        planeQ.EnQue(in);
    }

    // hBuf[r][ox] = in[r][x0] + frac * (in[r][x1] - in[r][x0])
    __aicore__ inline void ResizeRows()
    {
        LocalTensor<float> in = planeQ.DeQue<float>();
        LocalTensor<float> hz = hBuf.Get<float>();
        LocalTensor<uint32_t> l = leftIdx.Get<uint32_t>();
        LocalTensor<uint32_t> r = rightIdx.Get<uint32_t>();
        LocalTensor<float> f = fracBuf.Get<float>();
        LocalTensor<float> g0 = g0Buf.Get<float>();
        LocalTensor<float> g1 = g1Buf.Get<float>();
        for (uint32_t row = 0; row < p.inH; ++row) {
            LocalTensor<float> src = in[row * p.inPitch];
            Gather(g0, src, l, (uint32_t)0, p.outW);
            Gather(g1, src, r, (uint32_t)0, p.outW);
            Sub(g1, g1, g0, p.outW);
            Mul(g1, g1, f, p.outW);
            Add(hz[row * p.outPitch], g0, g1, p.outW);
        }
        planeQ.FreeTensor(in);
    }

    __aicore__ inline void BlendColumns(uint32_t oy0, uint32_t cnt)
    {
        LocalTensor<float> hz = hBuf.Get<float>();
        LocalTensor<float> out = rowsQ.AllocTensor<float>();
        for (uint32_t j = 0; j < cnt; ++j) {
            uint32_t y0, y1;
            float ly;
            SourceIndex(oy0 + j, p.invScaleH, p.inH, y0, y1, ly);
            LocalTensor<float> dst = out[j * p.outPitch];
            Muls(dst, hz[y0 * p.outPitch], 1.0f - ly, p.outW);
            Axpy(dst, hz[y1 * p.outPitch], ly, (int32_t)p.outW);
        }
        rowsQ.EnQue(out);
    }

    __aicore__ inline void StoreRows(uint32_t pl, uint32_t oy0, uint32_t cnt)
    {
        LocalTensor<float> out = rowsQ.DeQue<float>();
        uint32_t wAligned = (p.outW + 7) / 8 * 8;
        DataCopyExtParams cp{(uint16_t)cnt, (uint32_t)(p.outW * sizeof(float)),
                             (uint32_t)((p.outPitch - wAligned) / 8), 0, 0};
        DataCopyPad(yGm[((uint64_t)pl * p.outH + oy0) * p.outW], out, cp);
        rowsQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> planeQ;
    TQue<QuePosition::VECOUT, 2> rowsQ;
    TBuf<QuePosition::VECCALC> hBuf, leftIdx, rightIdx, fracBuf, g0Buf, g1Buf;
    GlobalTensor<float> xGm, yGm;
    HalfPixelBilinearResizeTilingData p;
    uint32_t planeBegin, planeEnd;
};

extern "C" __global__ __aicore__ void half_pixel_bilinear_resize_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    HalfPixelBilinearResize op;
    op.Init(x, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <cmath>

at::Tensor bilinear_resize_npu(const at::Tensor& x, double scale)
{
    TORCH_CHECK(x.dim() == 4, "expected NCHW input");
    at::Tensor xc = x.contiguous();
    int64_t oh = (int64_t)std::floor(x.size(2) * scale);
    int64_t ow = (int64_t)std::floor(x.size(3) * scale);
    at::Tensor y = at::empty({x.size(0), x.size(1), oh, ow}, x.options());
    float s = static_cast<float>(scale);
    EXEC_NPU_CMD(aclnnHalfPixelBilinearResizeCustom, xc, s, s, y);
    return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("bilinear_resize", &bilinear_resize_npu, "bilinear upsample, align_corners=False",
          py::arg("x"), py::arg("scale") = 2.0);
}
"""
