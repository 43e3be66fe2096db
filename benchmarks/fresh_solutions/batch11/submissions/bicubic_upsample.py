project_json_src='''
[
    {
        "op": "CubicConvResize2dCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ],
        "attr": [
            {
                "name": "out_h",
                "param_type": "required",
                "type": "int"
            },
            {
                "name": "out_w",
                "param_type": "required",
                "type": "int"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CubicConvResize2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);       // N * C
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, inWPad);       // UB row stride of the input plane (multiple of 16)
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWPad);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // output rows written per DMA
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(float, scaleH);          // (inH-1)/(outH-1), align_corners=True
  TILING_DATA_FIELD_DEF(float, scaleW);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CubicConvResize2dCustom, CubicConvResize2dTilingData)
}
"""

host_operator_src="""
#include "cubic_conv_resize2d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t OUT_TILE_ELEMS = 4096;

inline uint32_t Align16(uint32_t v) { return (v + 15) / 16 * 16; }

inline float CornerScale(uint32_t in, uint32_t out)
{
    return out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) : 0.0f;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetOriginShape();
    if (xs.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    uint32_t oh = static_cast<uint32_t>(*attrs->GetInt(0));
    uint32_t ow = static_cast<uint32_t>(*attrs->GetInt(1));
    uint32_t planes = xs.GetDim(0) * xs.GetDim(1);
    uint32_t ih = xs.GetDim(2);
    uint32_t iw = xs.GetDim(3);

    uint64_t ubSize = 0;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    // 2 staged input planes + one fp32 copy must fit next to the row/offset buffers
    uint64_t planeBytes = (uint64_t)ih * Align16(iw) * sizeof(float);
    if (planeBytes * 3 + 64 * 1024 > ubSize) {
        return ge::GRAPH_FAILED;
    }

    CubicConvResize2dTilingData td;
    uint32_t owPad = Align16(ow);
    uint32_t rows = OUT_TILE_ELEMS / owPad;
    rows = rows == 0 ? 1 : (rows > oh ? oh : rows);
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t perCore = (planes + cores - 1) / cores;

    td.set_planes(planes);
    td.set_inH(ih);
    td.set_inW(iw);
    td.set_inWPad(Align16(iw));
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_outWPad(owPad);
    td.set_rowsPerTile(rows);
    td.set_planesPerCore(perCore);
    td.set_scaleH(CornerScale(ih, oh));
    td.set_scaleW(CornerScale(iw, ow));

    context->SetBlockDim((planes + perCore - 1) / perCore);
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
    gert::Shape* ys = context->GetOutputShape(0);
    *ys = *xs;
    ys->SetDim(2, *context->GetAttrs()->GetInt(0));
    ys->SetDim(3, *context->GetAttrs()->GetInt(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class CubicConvResize2dCustom : public OpDef {
public:
    explicit CubicConvResize2dCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("out_h").AttrType(REQUIRED).Int();
        this->Attr("out_w").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(CubicConvResize2dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t TAPS = 4;

// Keys cubic convolution kernel, a = -0.75 (same as PyTorch)
struct CubicTaps {
    int32_t idx[TAPS];
    float w[TAPS];

    __aicore__ inline void Build(float src, int32_t limit)
    {
        constexpr float A = -0.75f;
        int32_t i0 = static_cast<int32_t>(src);
        float t = src - static_cast<float>(i0);
        float x0 = t + 1.0f;
        float x1 = t;
        float x2 = 1.0f - t;
        float x3 = 2.0f - t;
        w[0] = ((A * x0 - 5.0f * A) * x0 + 8.0f * A) * x0 - 4.0f * A;
        w[1] = ((A + 2.0f) * x1 - (A + 3.0f)) * x1 * x1 + 1.0f;
        w[2] = ((A + 2.0f) * x2 - (A + 3.0f)) * x2 * x2 + 1.0f;
        w[3] = ((A * x3 - 5.0f * A) * x3 + 8.0f * A) * x3 - 4.0f * A;
        for (int32_t k = 0; k < TAPS; ++k) {
            int32_t v = i0 - 1 + k;
            idx[k] = v < 0 ? 0 : (v > limit - 1 ? limit - 1 : v);
        }
    }
};

// Separable bicubic resize of whole planes: vertical taps combine 4 input rows into one
// fp32 row (scalar weights), horizontal taps gather 4 columns per output pixel (vector weights).
template <typename T>
class CubicConvResize2d {
public:
    __aicore__ inline CubicConvResize2d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const CubicConvResize2dTilingData& td)
    {
        c = td;
        xGm.SetGlobalBuffer((__gm__ T*)x, (uint64_t)c.planes * c.inH * c.inW);
        yGm.SetGlobalBuffer((__gm__ T*)y, (uint64_t)c.planes * c.outH * c.outW);

        uint32_t planeElems = c.inH * c.inWPad;
        pipe.InitBuffer(planeQ, BUFFER_NUM, planeElems * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, c.rowsPerTile * c.outWPad * sizeof(T));
        pipe.InitBuffer(planeF, planeElems * sizeof(float));          // fp32 plane, rows inWPad apart
        pipe.InitBuffer(colRow, c.inWPad * sizeof(float));             // vertically blended row
        pipe.InitBuffer(gathered, c.outWPad * sizeof(float));
        pipe.InitBuffer(accRow, c.outWPad * sizeof(float));
        pipe.InitBuffer(offBuf, TAPS * c.outWPad * sizeof(uint32_t));  // byte offsets into colRow
        pipe.InitBuffer(wxBuf, TAPS * c.outWPad * sizeof(float));      // horizontal tap weights
        BuildHorizontalTaps();
    }

    __aicore__ inline void Process()
    {
        uint32_t p0 = GetBlockIdx() * c.planesPerCore;
        uint32_t p1 = p0 + c.planesPerCore < c.planes ? p0 + c.planesPerCore : c.planes;
        for (uint32_t p = p0; p < p1; ++p) {
            LoadPlane(p);
            WidenPlane();
            ResizePlane(p);
        }
    }

private:
    __aicore__ inline void BuildHorizontalTaps()
    {
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        LocalTensor<float> wx = wxBuf.Get<float>();
        for (uint32_t ox = 0; ox < c.outWPad; ++ox) {
            CubicTaps taps;
            uint32_t clampedX = ox < c.outW ? ox : c.outW - 1;   // pad lanes repeat the last column
            taps.Build(static_cast<float>(clampedX) * c.scaleW, static_cast<int32_t>(c.inW));
            for (int32_t k = 0; k < TAPS; ++k) {
                off.SetValue(k * c.outWPad + ox, static_cast<uint32_t>(taps.idx[k]) * sizeof(float));
                wx.SetValue(k * c.outWPad + ox, taps.w[k]);
            }
        }
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void LoadPlane(uint32_t p)
    {
        LocalTensor<T> pl = planeQ.AllocTensor<T>();
        constexpr uint32_t perBlk = 32 / sizeof(T);
        uint32_t rowBlocks = (c.inW + perBlk - 1) / perBlk;
        uint32_t gapBlocks = c.inWPad / perBlk - rowBlocks;
        DataCopyExtParams cp{static_cast<uint16_t>(c.inH), static_cast<uint32_t>(c.inW * sizeof(T)), 0, gapBlocks, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(pl, xGm[(uint64_t)p * c.inH * c.inW], cp, pad);
        planeQ.EnQue(pl);
    }

    __aicore__ inline void WidenPlane()
    {
        LocalTensor<T> pl = planeQ.DeQue<T>();
        LocalTensor<float> pf = planeF.Get<float>();
        uint32_t n = c.inH * c.inWPad;
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(pf, pl, n);
        } else {
            Cast(pf, pl, RoundMode::CAST_NONE, n);
        }
        planeQ.FreeTensor(pl);
    }

    __aicore__ inline void BlendRow(uint32_t oy, const LocalTensor<float>& dst)
    {
        LocalTensor<float> pf = planeF.Get<float>();
        LocalTensor<float> vr = colRow.Get<float>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        LocalTensor<float> wx = wxBuf.Get<float>();
        LocalTensor<float> g = gathered.Get<float>();

        CubicTaps ty;
        ty.Build(static_cast<float>(oy) * c.scaleH, static_cast<int32_t>(c.inH));
        Muls(vr, pf[ty.idx[0] * c.inWPad], ty.w[0], c.inWPad);
        for (int32_t k = 1; k < TAPS; ++k) {
            Axpy(vr, pf[ty.idx[k] * c.inWPad], ty.w[k], c.inWPad);
        }

        Gather(dst, vr, off, 0, c.outWPad);
        Mul(dst, dst, wx, c.outWPad);
        for (int32_t k = 1; k < TAPS; ++k) {
            Gather(g, vr, off[k * c.outWPad], 0, c.outWPad);
            Mul(g, g, wx[k * c.outWPad], c.outWPad);
            Add(dst, dst, g, c.outWPad);
        }
    }

    __aicore__ inline void ResizePlane(uint32_t p)
    {
        LocalTensor<float> acc = accRow.Get<float>();
        uint64_t planeOut = (uint64_t)p * c.outH * c.outW;
        for (uint32_t r0 = 0; r0 < c.outH; r0 += c.rowsPerTile) {
            uint32_t nRows = r0 + c.rowsPerTile <= c.outH ? c.rowsPerTile : c.outH - r0;
            LocalTensor<T> o = outQ.AllocTensor<T>();
            for (uint32_t r = 0; r < nRows; ++r) {
                BlendRow(r0 + r, acc);
                if constexpr (std::is_same<T, float>::value) {
                    DataCopy(o[r * c.outWPad], acc, c.outWPad);
                } else {
                    Cast(o[r * c.outWPad], acc, RoundMode::CAST_ROUND, c.outWPad);
                }
            }
            outQ.EnQue(o);
            CopyOut(planeOut + (uint64_t)r0 * c.outW, nRows);
        }
    }

    __aicore__ inline void CopyOut(uint64_t gmOff, uint32_t nRows)
    {
        LocalTensor<T> o = outQ.DeQue<T>();
        constexpr uint32_t perBlk = 32 / sizeof(T);
        uint32_t gapBlocks = (c.outWPad - (c.outW + perBlk - 1) / perBlk * perBlk) / perBlk;
        DataCopyExtParams cp{static_cast<uint16_t>(nRows), static_cast<uint32_t>(c.outW * sizeof(T)), gapBlocks, 0, 0};
        DataCopyPad(yGm[gmOff], o, cp);
        outQ.FreeTensor(o);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> planeQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<QuePosition::VECCALC> planeF, colRow, gathered, accRow, offBuf, wxBuf;
    GlobalTensor<T> xGm, yGm;
    CubicConvResize2dTilingData c;
};

extern "C" __global__ __aicore__ void cubic_conv_resize2d_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    CubicConvResize2d<DTYPE_X> op;
    op.Init(x, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// F.interpolate(x, size=(out_h, out_w), mode='bicubic', align_corners=True)
at::Tensor cubic_conv_resize2d_impl_npu(const at::Tensor& x, int64_t out_h, int64_t out_w)
{
    TORCH_CHECK(x.dim() == 4, "expected NCHW input");
    TORCH_CHECK(out_h > 0 && out_w > 0, "output size must be positive");
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty({xc.size(0), xc.size(1), out_h, out_w}, xc.options());
    EXEC_NPU_CMD(aclnnCubicConvResize2dCustom, xc, out_h, out_w, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("cubic_conv_resize2d_custom", &cubic_conv_resize2d_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("cubic_conv_resize2d_custom", &cubic_conv_resize2d_impl_npu, "bicubic resize, align_corners=True",
          pybind11::arg("x"), pybind11::arg("out_h") = 256, pybind11::arg("out_w") = 256);
}
"""
