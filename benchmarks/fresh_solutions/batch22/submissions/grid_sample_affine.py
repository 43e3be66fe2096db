project_json_src='''
[
    {
        "op": "AffineWarpBilinearCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "theta", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AffineWarpBilinearTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, planeAligned);
  TILING_DATA_FIELD_DEF(uint32_t, rowAligned);
  TILING_DATA_FIELD_DEF(uint32_t, planeCount);
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AffineWarpBilinearCustom, AffineWarpBilinearTilingData)
}
"""

host_operator_src="""
#include "affine_warp_bilinear_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t VEC_ELEMS = 64;     // one 256B repeat of fp32
constexpr uint32_t ROW_TABLES = 24;    // fp32/int32 row-sized scratch vectors used by the kernel

inline uint32_t AlignTo(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

bool FitsInUb(uint64_t ub, uint32_t plane, uint32_t row, uint32_t typeSize)
{
    uint64_t need = static_cast<uint64_t>(plane) * (sizeof(float) + typeSize) +
                    static_cast<uint64_t>(row) * (ROW_TABLES * sizeof(float) + 2 * typeSize);
    return need + 1024 <= ub;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AffineWarpBilinearTilingData td;
    const gert::Shape &xs = context->GetInputShape(0)->GetOriginShape();
    if (xs.GetDimNum() != 4) return ge::GRAPH_FAILED;
    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t plane = AlignTo(h * w, VEC_ELEMS);
    uint32_t row = AlignTo(w, VEC_ELEMS);
    if (!FitsInUb(ub, plane, row, typeSize)) {
        return ge::GRAPH_FAILED;   // whole source plane must stay resident for the gathers
    }

    uint32_t planes = n * c;
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > planes) cores = planes;
    uint32_t per = (planes + cores - 1) / cores;

    td.set_channels(c);
    td.set_height(h);
    td.set_width(w);
    td.set_planeAligned(plane);
    td.set_rowAligned(row);
    td.set_planeCount(planes);
    td.set_planesPerCore(per);
    context->SetBlockDim((planes + per - 1) / per);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class AffineWarpBilinearCustom : public OpDef {
public:
    explicit AffineWarpBilinearCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("theta")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(AffineWarpBilinearCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Per output row r the sampling position is linear in the column j (align_corners=False):
//   ix(j) = ix0 + t00 * j,   iy(j) = iy0 + t10 * H / W * j
struct RowLine {
    float ix0, dix, iy0, diy;
    __aicore__ inline void Build(const float *t, uint32_t r, uint32_t h, uint32_t w)
    {
        float fw = static_cast<float>(w);
        float fh = static_cast<float>(h);
        float ys = (2.0f * r + 1.0f) / fh - 1.0f;
        float xs0 = 1.0f / fw - 1.0f;
        ix0 = (t[0] * xs0 + t[1] * ys + t[2] + 1.0f) * fw * 0.5f - 0.5f;
        iy0 = (t[3] * xs0 + t[4] * ys + t[5] + 1.0f) * fh * 0.5f - 0.5f;
        dix = t[0];
        diy = t[3] * fh / fw;
    }
};

// Corner weights with zero padding folded in: an out-of-range corner gets weight 0
// and a clamped (valid) gather offset.
class CornerTable {
public:
    __aicore__ inline void Setup(AscendC::TBuf<AscendC::TPosition::VECCALC> &buf, uint32_t len)
    {
        AscendC::LocalTensor<float> base = buf.Get<float>();
        n = len;
        for (int i = 0; i < 4; ++i) {
            wgt[i] = base[i * len];
            offF[i] = base[(4 + i) * len];
            off[i] = base[(8 + i) * len].ReinterpretCast<int32_t>();
        }
        pos = base[12 * len];
        lo = base[13 * len];
        frac = base[14 * len];
        mask = base[15 * len];
        tmp = base[16 * len];
        ylo = base[17 * len];
        yfrac = base[18 * len];
        ylow = base[19 * len];
        yhiw = base[20 * len];
        xlow = base[21 * len];
        xhiw = base[22 * len];
        idx = base[23 * len].ReinterpretCast<int32_t>();
    }

    // splits a coordinate vector into floor + weights of the low / high taps (masked)
    __aicore__ inline void Axis(const AscendC::LocalTensor<float> &coord, float limit,
                                const AscendC::LocalTensor<float> &lowIdx, const AscendC::LocalTensor<float> &fr,
                                const AscendC::LocalTensor<float> &wLow, const AscendC::LocalTensor<float> &wHigh)
    {
        AscendC::Cast(idx, coord, AscendC::RoundMode::CAST_FLOOR, n);
        AscendC::Cast(lowIdx, idx, AscendC::RoundMode::CAST_NONE, n);
        AscendC::Sub(fr, coord, lowIdx, n);
        AscendC::Muls(wLow, fr, -1.0f, n);
        AscendC::Adds(wLow, wLow, 1.0f, n);
        Valid(lowIdx, 0.0f, limit);
        AscendC::Mul(wLow, wLow, mask, n);
        Valid(lowIdx, 1.0f, limit);
        AscendC::Mul(wHigh, fr, mask, n);
    }

    // mask = 1 if 0 <= i + shift <= limit - 1 (i integral), else 0
    __aicore__ inline void Valid(const AscendC::LocalTensor<float> &i, float shift, float limit)
    {
        AscendC::Adds(mask, i, shift + 1.0f, n);
        AscendC::Maxs(mask, mask, 0.0f, n);
        AscendC::Mins(mask, mask, 1.0f, n);
        AscendC::Muls(tmp, i, -1.0f, n);
        AscendC::Adds(tmp, tmp, limit - shift, n);
        AscendC::Maxs(tmp, tmp, 0.0f, n);
        AscendC::Mins(tmp, tmp, 1.0f, n);
        AscendC::Mul(mask, mask, tmp, n);
    }

    __aicore__ inline void Clamped(const AscendC::LocalTensor<float> &dst, const AscendC::LocalTensor<float> &i,
                                   float shift, float limit)
    {
        AscendC::Adds(dst, i, shift, n);
        AscendC::Maxs(dst, dst, 0.0f, n);
        AscendC::Mins(dst, dst, limit - 1.0f, n);
    }

    __aicore__ inline void Build(const RowLine &line, uint32_t h, uint32_t w)
    {
        float fw = static_cast<float>(w);
        float fh = static_cast<float>(h);
        AscendC::ArithProgression(pos, line.ix0, line.dix, n);
        Axis(pos, fw, lo, frac, xlow, xhiw);
        AscendC::ArithProgression(pos, line.iy0, line.diy, n);
        Axis(pos, fh, ylo, yfrac, ylow, yhiw);

        AscendC::Mul(wgt[0], ylow, xlow, n);
        AscendC::Mul(wgt[1], ylow, xhiw, n);
        AscendC::Mul(wgt[2], yhiw, xlow, n);
        AscendC::Mul(wgt[3], yhiw, xhiw, n);

        // byte offsets (y * W + x) * 4 into the fp32 plane
        for (int c = 0; c < 4; ++c) {
            Clamped(tmp, ylo, static_cast<float>(c >> 1), fh);
            Clamped(pos, lo, static_cast<float>(c & 1), fw);
            AscendC::Muls(offF[c], tmp, fw, n);
            AscendC::Add(offF[c], offF[c], pos, n);
            AscendC::Muls(offF[c], offF[c], 4.0f, n);
            AscendC::Cast(off[c], offF[c], AscendC::RoundMode::CAST_ROUND, n);
        }
    }

    AscendC::LocalTensor<float> wgt[4];
    AscendC::LocalTensor<int32_t> off[4];

private:
    AscendC::LocalTensor<float> offF[4];
    AscendC::LocalTensor<float> pos, lo, frac, mask, tmp, ylo, yfrac, ylow, yhiw, xlow, xhiw;
    AscendC::LocalTensor<int32_t> idx;
    uint32_t n;
};

template <typename T>
class AffineWarpBilinear {
public:
    __aicore__ inline AffineWarpBilinear() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR theta, GM_ADDR y, const AffineWarpBilinearTilingData &td)
    {
        channels = td.channels;
        height = td.height;
        width = td.width;
        planeAligned = td.planeAligned;
        rowAligned = td.rowAligned;
        pBegin = AscendC::GetBlockIdx() * td.planesPerCore;
        pEnd = pBegin + td.planesPerCore;
        if (pEnd > td.planeCount) pEnd = td.planeCount;

        xGm.SetGlobalBuffer((__gm__ T *)x);
        thGm.SetGlobalBuffer((__gm__ float *)theta);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        pipe.InitBuffer(inQue, 1, planeAligned * sizeof(T));
        pipe.InitBuffer(outQue, BUFFER_NUM, rowAligned * sizeof(T));
        pipe.InitBuffer(planeBuf, planeAligned * sizeof(float));
        pipe.InitBuffer(tableBuf, 24 * rowAligned * sizeof(float));
        pipe.InitBuffer(gatherBuf, 2 * rowAligned * sizeof(float));
        table.Setup(tableBuf, rowAligned);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = pBegin; p < pEnd; ++p) {
            float t[6];
            uint32_t n = p / channels;
            for (int k = 0; k < 6; ++k) {
                t[k] = thGm.GetValue(n * 6 + k);
            }
            LoadPlane(p);
            for (uint32_t r = 0; r < height; ++r) {
                RowLine line;
                line.Build(t, r, height, width);
                table.Build(line, height, width);
                SampleRow();
                WriteRow(p, r);
            }
        }
    }

private:
    __aicore__ inline void LoadPlane(uint32_t p)
    {
        uint32_t cnt = height * width;
        AscendC::LocalTensor<T> raw = inQue.AllocTensor<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(raw, xGm[static_cast<uint64_t>(p) * cnt], cp, pad);
        inQue.EnQue(raw);
        raw = inQue.DeQue<T>();
        AscendC::LocalTensor<float> plane = planeBuf.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::DataCopy(plane, raw, planeAligned);
        } else {
            AscendC::Cast(plane, raw, AscendC::RoundMode::CAST_NONE, planeAligned);
        }
        inQue.FreeTensor(raw);
    }

    __aicore__ inline void SampleRow()
    {
        AscendC::LocalTensor<float> plane = planeBuf.Get<float>();
        AscendC::LocalTensor<float> g = gatherBuf.Get<float>();
        AscendC::LocalTensor<float> acc = g;
        AscendC::LocalTensor<float> tap = g[rowAligned];
        AscendC::Duplicate(acc, 0.0f, rowAligned);
        for (int c = 0; c < 4; ++c) {
            AscendC::Gather(tap, plane, table.off[c].ReinterpretCast<uint32_t>(), 0u, width);
            AscendC::Mul(tap, tap, table.wgt[c], width);
            AscendC::Add(acc, acc, tap, width);
        }
    }

    __aicore__ inline void WriteRow(uint32_t p, uint32_t r)
    {
        AscendC::LocalTensor<float> acc = gatherBuf.Get<float>();
        AscendC::LocalTensor<T> o = outQue.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::DataCopy(o, acc, rowAligned);
        } else {
            AscendC::Cast(o, acc, AscendC::RoundMode::CAST_ROUND, rowAligned);
        }
        outQue.EnQue(o);
        o = outQue.DeQue<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(width * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[(static_cast<uint64_t>(p) * height + r) * width], o, cp);
        outQue.FreeTensor(o);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> planeBuf, tableBuf, gatherBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    AscendC::GlobalTensor<float> thGm;
    CornerTable table;
    uint32_t channels, height, width, planeAligned, rowAligned, pBegin, pEnd;
};

extern "C" __global__ __aicore__ void affine_warp_bilinear_custom(GM_ADDR x, GM_ADDR theta, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    AffineWarpBilinear<DTYPE_X> op;
    op.Init(x, theta, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// affine_grid + grid_sample(bilinear, zeros, align_corners=False) in one pass; the grid is never materialised.
at::Tensor affine_warp_bilinear_impl_npu(const at::Tensor& x, const at::Tensor& theta)
{
    TORCH_CHECK(x.dim() == 4, "x must be NCHW");
    TORCH_CHECK(theta.dim() == 3 && theta.size(0) == x.size(0) && theta.size(1) == 2 && theta.size(2) == 3,
                "theta must be (N, 2, 3)");
    at::Tensor xc = x.contiguous();
    at::Tensor th = theta.to(at::kFloat).contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnAffineWarpBilinearCustom, xc, th, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("affine_warp_bilinear_custom", &affine_warp_bilinear_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("affine_warp_bilinear_custom", &affine_warp_bilinear_impl_npu, "affine bilinear warp");
}
"""
