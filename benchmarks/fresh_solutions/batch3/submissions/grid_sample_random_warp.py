project_json_src='''
[
    {
        "op": "GridSampleRandomWarpCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "grid",
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
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GridSampleRandomWarpCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);
  TILING_DATA_FIELD_DEF(uint32_t, maxBand);
  TILING_DATA_FIELD_DEF(uint32_t, bandStride);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GridSampleRandomWarpCustom, GridSampleRandomWarpCustomTilingData)
}
"""

host_operator_src="""
#include "grid_sample_random_warp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t UB_BAND_BYTES = 64 * 1024;   // budget for the cached input band

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GridSampleRandomWarpCustomTilingData tiling;
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto gShape = context->GetInputShape(1)->GetStorageShape();
    uint32_t n = xShape.GetDim(0);
    uint32_t c = xShape.GetDim(1);
    uint32_t h = xShape.GetDim(2);
    uint32_t w = xShape.GetDim(3);
    uint32_t ho = gShape.GetDim(1);
    uint32_t wo = gShape.GetDim(2);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    if (coreNum == 0) coreNum = 1;

    uint32_t totalRows = n * ho;
    uint32_t rowsPerCore = (totalRows + coreNum - 1) / coreNum;
    uint32_t usedCores = (totalRows + rowsPerCore - 1) / rowsPerCore;

    // band row = 8 zero floats | W data | 8 zero floats
    uint32_t bandStride = ((w + 7) / 8) * 8 + 16;
    uint32_t maxBand = UB_BAND_BYTES / (bandStride * sizeof(float));
    if (maxBand > h + 2) maxBand = h + 2;

    tiling.set_batch(n);
    tiling.set_channels(c);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_outH(ho);
    tiling.set_outW(wo);
    tiling.set_outWAlign(((wo + 63) / 64) * 64);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_totalRows(totalRows);
    tiling.set_maxBand(maxBand);
    tiling.set_bandStride(bandStride);

    context->SetBlockDim(usedCores);
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
    const gert::Shape* gs = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, xs->GetDim(1));
    ys->SetDim(2, gs->GetDim(1));
    ys->SetDim(3, gs->GetDim(2));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GridSampleRandomWarpCustom : public OpDef {
public:
    explicit GridSampleRandomWarpCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("grid")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(GridSampleRandomWarpCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t PAD_L = 8;

// bilinear, zeros padding, align_corners=False
class KernelGridSampleWarp {
public:
    __aicore__ inline KernelGridSampleWarp() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR grid, GM_ADDR y,
                                uint32_t n, uint32_t c, uint32_t h, uint32_t w,
                                uint32_t ho, uint32_t wo, uint32_t woAlign,
                                uint32_t rowsPerCore, uint32_t totalRows,
                                uint32_t maxBand, uint32_t bandStride)
    {
        this->N = n; this->C = c; this->H = h; this->W = w;
        this->Ho = ho; this->Wo = wo; this->WoA = woAlign;
        this->maxBand = maxBand; this->bandStride = bandStride;

        rowStart = GetBlockIdx() * rowsPerCore;
        rowEnd = rowStart + rowsPerCore;
        if (rowEnd > totalRows) rowEnd = totalRows;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)n * c * h * w);
        gridGm.SetGlobalBuffer((__gm__ float*)grid, (uint64_t)n * ho * wo * 2);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)n * c * ho * wo);

        pipe.InitBuffer(gridQue, 1, WoA * 2 * sizeof(float));
        pipe.InitBuffer(outQue, BUFFER_NUM, WoA * sizeof(float));
        pipe.InitBuffer(bandBuf, maxBand * bandStride * sizeof(float));
        // gx gy | wx0 wx1 wy0 wy1 | off00 off01 off10 off11 | tmp x4
        pipe.InitBuffer(calcBuf, WoA * 16 * sizeof(float));
        pipe.InitBuffer(redBuf, 256 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> band = bandBuf.Get<float>();
        Duplicate(band, 0.0f, maxBand * bandStride);
        PipeBarrier<PIPE_ALL>();
        for (uint32_t r = rowStart; r < rowEnd; r++) {
            DoRow(r);
        }
    }

private:
    __aicore__ inline void DoRow(uint32_t row)
    {
        uint32_t nIdx = row / Ho;
        uint32_t hoIdx = row % Ho;

        LocalTensor<float> gIn = gridQue.AllocTensor<float>();
        DataCopy(gIn, gridGm[(uint64_t)row * Wo * 2], Wo * 2);
        gridQue.EnQue(gIn);
        gIn = gridQue.DeQue<float>();

        LocalTensor<float> calc = calcBuf.Get<float>();
        LocalTensor<float> gx = calc;
        LocalTensor<float> gy = calc[WoA];
        LocalTensor<float> wx0 = calc[WoA * 2];
        LocalTensor<float> wx1 = calc[WoA * 3];
        LocalTensor<float> wy0 = calc[WoA * 4];
        LocalTensor<float> wy1 = calc[WoA * 5];
        LocalTensor<float> x0c = calc[WoA * 6];
        LocalTensor<float> x1c = calc[WoA * 7];
        LocalTensor<float> y0c = calc[WoA * 8];
        LocalTensor<float> y1c = calc[WoA * 9];
        LocalTensor<float> t0 = calc[WoA * 10];
        LocalTensor<float> t1 = calc[WoA * 11];
        LocalTensor<float> v00 = calc[WoA * 12];
        LocalTensor<float> v01 = calc[WoA * 13];
        LocalTensor<float> v10 = calc[WoA * 14];
        LocalTensor<float> v11 = calc[WoA * 15];
        LocalTensor<int32_t> ti = t1.ReinterpretCast<int32_t>();

        // split interleaved (x, y) pairs
        uint64_t rsvd = 0;
        GatherMask(gx, gIn, 1, true, Wo * 2, {1, 1, 8, 0}, rsvd);
        GatherMask(gy, gIn, 2, true, Wo * 2, {1, 1, 8, 0}, rsvd);
        gridQue.FreeTensor(gIn);

        // unnormalize: ((g + 1) * size - 1) / 2
        Muls(gx, gx, (float)W * 0.5f, Wo);
        Adds(gx, gx, ((float)W - 1.0f) * 0.5f, Wo);
        Muls(gy, gy, (float)H * 0.5f, Wo);
        Adds(gy, gy, ((float)H - 1.0f) * 0.5f, Wo);

        // floor and fractional weights
        Cast(ti, gx, RoundMode::CAST_FLOOR, Wo);
        Cast(t0, ti, RoundMode::CAST_NONE, Wo);
        Sub(wx1, gx, t0, Wo);
        Duplicate(wx0, 1.0f, Wo);
        Sub(wx0, wx0, wx1, Wo);
        Maxs(x0c, t0, -1.0f, Wo);
        Mins(x0c, x0c, (float)W, Wo);
        Adds(x1c, t0, 1.0f, Wo);
        Maxs(x1c, x1c, -1.0f, Wo);
        Mins(x1c, x1c, (float)W, Wo);

        Cast(ti, gy, RoundMode::CAST_FLOOR, Wo);
        Cast(t0, ti, RoundMode::CAST_NONE, Wo);
        Sub(wy1, gy, t0, Wo);
        Duplicate(wy0, 1.0f, Wo);
        Sub(wy0, wy0, wy1, Wo);
        Maxs(y0c, t0, -1.0f, Wo);
        Mins(y0c, y0c, (float)H, Wo);
        Adds(y1c, t0, 1.0f, Wo);
        Maxs(y1c, y1c, -1.0f, Wo);
        Mins(y1c, y1c, (float)H, Wo);

        // rows touched by this output row
        LocalTensor<float> red = redBuf.Get<float>();
        ReduceMin(red, y0c, t0, Wo, false);
        ReduceMax(red[8], y1c, t0, Wo, false);
        event_t evVS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        int32_t bandLo = (int32_t)red.GetValue(0);
        int32_t bandHi = (int32_t)red.GetValue(8);
        int32_t bandRows = bandHi - bandLo + 1;

        if (bandRows > (int32_t)maxBand) {
            ScalarRow(nIdx, hoIdx, gx, gy);
            return;
        }

        // byte offsets into band for the 4 taps (shared by all channels)
        Adds(y0c, y0c, (float)(-bandLo), Wo);
        Adds(y1c, y1c, (float)(-bandLo), Wo);
        Muls(y0c, y0c, (float)bandStride, Wo);
        Muls(y1c, y1c, (float)bandStride, Wo);
        Adds(x0c, x0c, (float)PAD_L, Wo);
        Adds(x1c, x1c, (float)PAD_L, Wo);
        LocalTensor<int32_t> off00 = gx.ReinterpretCast<int32_t>();
        LocalTensor<int32_t> off01 = gy.ReinterpretCast<int32_t>();
        LocalTensor<int32_t> off10 = t0.ReinterpretCast<int32_t>();
        LocalTensor<int32_t> off11 = ti;
        Add(v00, y0c, x0c, Wo); Muls(v00, v00, 4.0f, Wo); Cast(off00, v00, RoundMode::CAST_RINT, Wo);
        Add(v01, y0c, x1c, Wo); Muls(v01, v01, 4.0f, Wo); Cast(off01, v01, RoundMode::CAST_RINT, Wo);
        Add(v10, y1c, x0c, Wo); Muls(v10, v10, 4.0f, Wo); Cast(off10, v10, RoundMode::CAST_RINT, Wo);
        Add(v11, y1c, x1c, Wo); Muls(v11, v11, 4.0f, Wo); Cast(off11, v11, RoundMode::CAST_RINT, Wo);
        // fold the y weights into the x weights: 4 combined weights
        Mul(x0c, wx0, wy0, Wo);  // w00
        Mul(x1c, wx1, wy0, Wo);  // w01
        Mul(y0c, wx0, wy1, Wo);  // w10
        Mul(y1c, wx1, wy1, Wo);  // w11

        LocalTensor<float> band = bandBuf.Get<float>();
        for (uint32_t ch = 0; ch < C; ch++) {
            PipeBarrier<PIPE_ALL>();
            uint64_t plane = ((uint64_t)nIdx * C + ch) * H * W;
            for (int32_t r = 0; r < bandRows; r++) {
                int32_t iy = bandLo + r;
                if (iy < 0 || iy >= (int32_t)H) {
                    continue;   // stays zero (band is reset below)
                }
                DataCopy(band[r * bandStride + PAD_L], xGm[plane + (uint64_t)iy * W], W);
            }
            event_t evMV = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
            SetFlag<HardEvent::MTE2_V>(evMV);
            WaitFlag<HardEvent::MTE2_V>(evMV);

            Gather(v00, band, off00.ReinterpretCast<uint32_t>(), 0, Wo);
            Gather(v01, band, off01.ReinterpretCast<uint32_t>(), 0, Wo);
            Gather(v10, band, off10.ReinterpretCast<uint32_t>(), 0, Wo);
            Gather(v11, band, off11.ReinterpretCast<uint32_t>(), 0, Wo);

            LocalTensor<float> yOut = outQue.AllocTensor<float>();
            Mul(yOut, v00, x0c, Wo);
            Mul(v01, v01, x1c, Wo);
            Add(yOut, yOut, v01, Wo);
            Mul(v10, v10, y0c, Wo);
            Add(yOut, yOut, v10, Wo);
            Mul(v11, v11, y1c, Wo);
            Add(yOut, yOut, v11, Wo);
            outQue.EnQue(yOut);

            yOut = outQue.DeQue<float>();
            DataCopy(yGm[(((uint64_t)nIdx * C + ch) * Ho + hoIdx) * Wo], yOut, Wo);
            outQue.FreeTensor(yOut);
        }
        // clear rows that were written so out-of-image rows read zero next time
        PipeBarrier<PIPE_ALL>();
        Duplicate(band, 0.0f, bandRows * bandStride);
        PipeBarrier<PIPE_ALL>();
    }

    // slow path for very distorted rows: read taps straight from GM
    __aicore__ inline void ScalarRow(uint32_t nIdx, uint32_t hoIdx, LocalTensor<float>& ix, LocalTensor<float>& iy)
    {
        for (uint32_t ch = 0; ch < C; ch++) {
            uint64_t plane = ((uint64_t)nIdx * C + ch) * H * W;
            LocalTensor<float> yOut = outQue.AllocTensor<float>();
            for (uint32_t j = 0; j < Wo; j++) {
                float fx = ix.GetValue(j);
                float fy = iy.GetValue(j);
                int32_t xi = (int32_t)fx; if ((float)xi > fx) xi--;
                int32_t yi = (int32_t)fy; if ((float)yi > fy) yi--;
                float ax = fx - (float)xi, ay = fy - (float)yi;
                float acc = 0.0f;
                for (int32_t dy = 0; dy < 2; dy++) {
                    int32_t yy = yi + dy;
                    if (yy < 0 || yy >= (int32_t)H) continue;
                    float wy = dy ? ay : 1.0f - ay;
                    for (int32_t dx = 0; dx < 2; dx++) {
                        int32_t xx = xi + dx;
                        if (xx < 0 || xx >= (int32_t)W) continue;
                        float wx = dx ? ax : 1.0f - ax;
                        acc += wx * wy * xGm.GetValue(plane + (uint64_t)yy * W + xx);
                    }
                }
                yOut.SetValue(j, acc);
            }
            event_t evSM = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
            SetFlag<HardEvent::S_MTE3>(evSM);
            WaitFlag<HardEvent::S_MTE3>(evSM);
            DataCopy(yGm[(((uint64_t)nIdx * C + ch) * Ho + hoIdx) * Wo], yOut, Wo);
            outQue.FreeTensor(yOut);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> gridQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<TPosition::VECCALC> bandBuf, calcBuf, redBuf;
    GlobalTensor<float> xGm, gridGm, yGm;
    uint32_t N, C, H, W, Ho, Wo, WoA;
    uint32_t maxBand, bandStride;
    uint32_t rowStart, rowEnd;
};

extern "C" __global__ __aicore__ void grid_sample_random_warp_custom(GM_ADDR x, GM_ADDR grid, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelGridSampleWarp op;
    op.Init(x, grid, y, t.batch, t.channels, t.inH, t.inW, t.outH, t.outW, t.outWAlign,
            t.rowsPerCore, t.totalRows, t.maxBand, t.bandStride);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor grid_sample_random_warp_custom_impl_npu(const at::Tensor& x, const at::Tensor& grid)
{
    TORCH_CHECK(x.dim() == 4 && grid.dim() == 4 && grid.size(3) == 2, "expect NCHW input and NHW2 grid");
    at::Tensor y = at::empty({x.size(0), x.size(1), grid.size(1), grid.size(2)}, x.options());
    EXEC_NPU_CMD(aclnnGridSampleRandomWarpCustom, x, grid, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("grid_sample_random_warp_custom", &grid_sample_random_warp_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("grid_sample_random_warp_custom", &grid_sample_random_warp_custom_impl_npu, "grid_sample bilinear, zeros, align_corners=False");
}
"""
