project_json_src='''
[
    {
        "op": "BilinearGridWarpCustom",
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
BEGIN_TILING_DATA_DEF(BilinearGridWarpCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, inWAlign);     // inW rounded up to 8 floats (32B)
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);    // outW rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);    // batch * outH output rows
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, bandCap);      // max input rows that can be staged in UB per channel
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BilinearGridWarpCustom, BilinearGridWarpCustomTilingData)
}
"""

host_operator_src="""
#include "bilinear_grid_warp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// UB bytes we allow for the staged input band (all channels together).
constexpr uint32_t BAND_BUDGET_BYTES = 112 * 1024;

static inline uint32_t AlignUp8(uint32_t v) { return (v + 7U) / 8U * 8U; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    BilinearGridWarpCustomTilingData tiling;
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& gs = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || gs.GetDimNum() != 4 || gs.GetDim(3) != 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t c = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t h = static_cast<uint32_t>(xs.GetDim(2));
    uint32_t w = static_cast<uint32_t>(xs.GetDim(3));
    uint32_t oh = static_cast<uint32_t>(gs.GetDim(1));
    uint32_t ow = static_cast<uint32_t>(gs.GetDim(2));

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t totalRows = n * oh;
    uint32_t used = totalRows < coreNum ? totalRows : coreNum;
    if (used == 0) {
        used = 1;
    }
    uint32_t rowsPerCore = (totalRows + used - 1) / used;
    used = (totalRows + rowsPerCore - 1) / rowsPerCore;

    uint32_t wAlign = AlignUp8(w);
    uint32_t bandCap = BAND_BUDGET_BYTES / (c * wAlign * sizeof(float));
    if (bandCap > h) {
        bandCap = h;
    }

    tiling.set_batch(n);
    tiling.set_channels(c);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_inWAlign(wAlign);
    tiling.set_outWAlign(AlignUp8(ow));
    tiling.set_totalRows(totalRows);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_bandCap(bandCap);

    context->SetBlockDim(used);
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
class BilinearGridWarpCustom : public OpDef {
public:
    explicit BilinearGridWarpCustom(const char* name) : OpDef(name)
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

OP_ADD(BilinearGridWarpCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

// Simple helper: make pipe DST wait for everything SRC has issued so far.
template <HardEvent EV>
__aicore__ inline void PipeHandoff()
{
    event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(EV));
    SetFlag<EV>(id);
    WaitFlag<EV>(id);
}

// Bilinear sampling with zero padding and align_corners = false.
// One output row (n, oh) at a time: the grid row is decoded on the scalar unit,
// the band of input rows it touches is staged in UB for every channel, and the
// C output rows are written back with a single strided DMA.
class BilinearGridWarpKernel {
public:
    __aicore__ inline BilinearGridWarpKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR grid, GM_ADDR y,
                                uint32_t batch, uint32_t channels, uint32_t inH, uint32_t inW,
                                uint32_t outH, uint32_t outW, uint32_t inWAlign, uint32_t outWAlign,
                                uint32_t totalRows, uint32_t rowsPerCore, uint32_t bandCap)
    {
        C = channels;
        H = inH;
        W = inW;
        OH = outH;
        OW = outW;
        wAl = inWAlign;
        owAl = outWAlign;
        cap = bandCap;

        rowBegin = GetBlockIdx() * rowsPerCore;
        rowEnd = rowBegin + rowsPerCore;
        if (rowEnd > totalRows) {
            rowEnd = totalRows;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(batch) * C * H * W);
        gridGm.SetGlobalBuffer((__gm__ float*)grid, static_cast<uint64_t>(batch) * OH * OW * 2);
        yGm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(batch) * C * OH * OW);

        pipe.InitBuffer(gridBuf, owAl * 2 * sizeof(float));
        pipe.InitBuffer(colBuf, owAl * sizeof(int32_t));
        pipe.InitBuffer(rowBuf, owAl * sizeof(int32_t));
        pipe.InitBuffer(fxBuf, owAl * sizeof(float));
        pipe.InitBuffer(fyBuf, owAl * sizeof(float));
        pipe.InitBuffer(outBuf, C * owAl * sizeof(float));
        uint32_t bandElems = (cap > 0 ? cap : 1) * C * wAl;
        pipe.InitBuffer(bandBuf, bandElems * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowBegin; r < rowEnd; ++r) {
            DoRow(r);
        }
    }

private:
    __aicore__ inline int32_t FloorToInt(float v)
    {
        int32_t t = static_cast<int32_t>(v);
        if (static_cast<float>(t) > v) {
            t -= 1;
        }
        return t;
    }

    __aicore__ inline void DoRow(uint32_t row)
    {
        uint32_t n = row / OH;
        uint32_t oh = row - n * OH;

        // Nothing from the previous row may still be in flight.
        PipeBarrier<PIPE_ALL>();

        LocalTensor<float> g = gridBuf.Get<float>();
        DataCopyExtParams gp{1, static_cast<uint32_t>(OW * 2 * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        DataCopyPad(g, gridGm[static_cast<uint64_t>(row) * OW * 2], gp, noPad);
        PipeHandoff<HardEvent::MTE2_S>();

        // Decode normalised coordinates into pixel space.
        LocalTensor<int32_t> col0 = colBuf.Get<int32_t>();
        LocalTensor<int32_t> row0 = rowBuf.Get<int32_t>();
        LocalTensor<float> fx = fxBuf.Get<float>();
        LocalTensor<float> fy = fyBuf.Get<float>();
        int32_t yLo = static_cast<int32_t>(H);
        int32_t yHi = -1;
        float fW = static_cast<float>(W);
        float fH = static_cast<float>(H);
        for (uint32_t j = 0; j < OW; ++j) {
            float gx = g.GetValue(2 * j);
            float gy = g.GetValue(2 * j + 1);
            float ix = ((gx + 1.0f) * fW - 1.0f) * 0.5f;
            float iy = ((gy + 1.0f) * fH - 1.0f) * 0.5f;
            int32_t x0 = FloorToInt(ix);
            int32_t y0 = FloorToInt(iy);
            col0.SetValue(j, x0);
            row0.SetValue(j, y0);
            fx.SetValue(j, ix - static_cast<float>(x0));
            fy.SetValue(j, iy - static_cast<float>(y0));
            if (y0 < yLo) {
                yLo = y0;
            }
            if (y0 + 1 > yHi) {
                yHi = y0 + 1;
            }
        }
        if (yLo < 0) {
            yLo = 0;
        }
        if (yHi > static_cast<int32_t>(H) - 1) {
            yHi = static_cast<int32_t>(H) - 1;
        }
        int32_t bandRows = yHi - yLo + 1;
        bool staged = (bandRows > 0) && (static_cast<uint32_t>(bandRows) <= cap);

        LocalTensor<float> band = bandBuf.Get<float>();
        uint64_t planeBase = static_cast<uint64_t>(n) * C * H * W;
        if (staged) {
            DataCopyExtParams bp{static_cast<uint16_t>(bandRows), static_cast<uint32_t>(W * sizeof(float)), 0, 0, 0};
            for (uint32_t c = 0; c < C; ++c) {
                uint64_t src = planeBase + static_cast<uint64_t>(c) * H * W + static_cast<uint64_t>(yLo) * W;
                DataCopyPad(band[c * cap * wAl], xGm[src], bp, noPad);
            }
            PipeHandoff<HardEvent::MTE2_S>();
        }

        LocalTensor<float> out = outBuf.Get<float>();
        int32_t iW = static_cast<int32_t>(W);
        int32_t iH = static_cast<int32_t>(H);
        for (uint32_t j = 0; j < OW; ++j) {
            int32_t x0 = col0.GetValue(j);
            int32_t y0 = row0.GetValue(j);
            float ax = fx.GetValue(j);
            float ay = fy.GetValue(j);
            float w00 = (1.0f - ax) * (1.0f - ay);
            float w01 = ax * (1.0f - ay);
            float w10 = (1.0f - ax) * ay;
            float w11 = ax * ay;
            bool cx0 = (x0 >= 0) && (x0 < iW);
            bool cx1 = (x0 + 1 >= 0) && (x0 + 1 < iW);
            bool cy0 = (y0 >= 0) && (y0 < iH);
            bool cy1 = (y0 + 1 >= 0) && (y0 + 1 < iH);
            for (uint32_t c = 0; c < C; ++c) {
                float acc = 0.0f;
                if (staged) {
                    uint32_t base = c * cap * wAl;
                    if (cy0) {
                        uint32_t rOff = base + static_cast<uint32_t>(y0 - yLo) * wAl;
                        if (cx0) acc += w00 * band.GetValue(rOff + x0);
                        if (cx1) acc += w01 * band.GetValue(rOff + x0 + 1);
                    }
                    if (cy1) {
                        uint32_t rOff = base + static_cast<uint32_t>(y0 + 1 - yLo) * wAl;
                        if (cx0) acc += w10 * band.GetValue(rOff + x0);
                        if (cx1) acc += w11 * band.GetValue(rOff + x0 + 1);
                    }
                } else {
                    // Band too tall for UB: fall back to direct scalar reads from GM.
                    uint64_t base = planeBase + static_cast<uint64_t>(c) * H * W;
                    if (cy0) {
                        uint64_t rOff = base + static_cast<uint64_t>(y0) * W;
                        if (cx0) acc += w00 * xGm.GetValue(rOff + x0);
                        if (cx1) acc += w01 * xGm.GetValue(rOff + x0 + 1);
                    }
                    if (cy1) {
                        uint64_t rOff = base + static_cast<uint64_t>(y0 + 1) * W;
                        if (cx0) acc += w10 * xGm.GetValue(rOff + x0);
                        if (cx1) acc += w11 * xGm.GetValue(rOff + x0 + 1);
                    }
                }
                out.SetValue(c * owAl + j, acc);
            }
        }
        PipeHandoff<HardEvent::S_MTE3>();

        // C rows of length OW, each landing OH*OW floats apart in GM.
        DataCopyExtParams op{static_cast<uint16_t>(C), static_cast<uint32_t>(OW * sizeof(float)), 0,
                             static_cast<uint32_t>((OH * OW - OW) * sizeof(float)), 0};
        uint64_t dst = static_cast<uint64_t>(n) * C * OH * OW + static_cast<uint64_t>(oh) * OW;
        DataCopyPad(yGm[dst], out, op);
        PipeHandoff<HardEvent::MTE3_S>();
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> gridBuf, colBuf, rowBuf, fxBuf, fyBuf, outBuf, bandBuf;
    GlobalTensor<float> xGm, gridGm, yGm;
    uint32_t C, H, W, OH, OW, wAl, owAl, cap;
    uint32_t rowBegin, rowEnd;
};

extern "C" __global__ __aicore__ void bilinear_grid_warp_custom(GM_ADDR x, GM_ADDR grid, GM_ADDR y,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    BilinearGridWarpKernel op;
    op.Init(x, grid, y, td.batch, td.channels, td.inH, td.inW, td.outH, td.outW,
            td.inWAlign, td.outWAlign, td.totalRows, td.rowsPerCore, td.bandCap);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Bilinear resampling of x (N, C, H, W) at the normalised positions in grid (N, Ho, Wo, 2).
at::Tensor bilinear_grid_warp_impl_npu(const at::Tensor& x, const at::Tensor& grid)
{
    TORCH_CHECK(x.dim() == 4, "x must be NCHW");
    TORCH_CHECK(grid.dim() == 4 && grid.size(3) == 2, "grid must be (N, Ho, Wo, 2)");
    TORCH_CHECK(x.size(0) == grid.size(0), "batch mismatch between x and grid");
    at::Tensor xc = x.contiguous();
    at::Tensor gc = grid.contiguous();
    at::Tensor y = at::empty({x.size(0), x.size(1), grid.size(1), grid.size(2)}, x.options());
    EXEC_NPU_CMD(aclnnBilinearGridWarpCustom, xc, gc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("bilinear_grid_warp_custom", &bilinear_grid_warp_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("bilinear_grid_warp_custom", &bilinear_grid_warp_impl_npu, "bilinear grid warp, zero padding");
}
"""
