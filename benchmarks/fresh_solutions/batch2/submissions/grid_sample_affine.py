project_json_src='''
[
    {
        "op": "GridSampleAffineCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "theta",
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
BEGIN_TILING_DATA_DEF(GridSampleAffineCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerChunk);   // output rows handled per inner iteration
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);       // rowsPerChunk * outW rounded up to 64
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GridSampleAffineCustom, GridSampleAffineCustomTilingData)
}
"""

host_operator_src="""
#include "grid_sample_affine_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t PLANE_LIMIT_BYTES = 80 * 1024;   // a whole input plane must sit in UB
constexpr uint32_t TARGET_CHUNK = 1024;             // output pixels per chunk

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GridSampleAffineCustomTilingData tiling;
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    uint32_t n = xs.GetDim(0);
    uint32_t c = xs.GetDim(1);
    uint32_t h = xs.GetDim(2);
    uint32_t w = xs.GetDim(3);
    if (static_cast<uint64_t>(h) * w * sizeof(float) > PLANE_LIMIT_BYTES) {
        return ge::GRAPH_FAILED;
    }
    // affine_grid(theta, x.size()) -> output spatial size equals the input size
    uint32_t oh = h;
    uint32_t ow = w;

    uint32_t rows = TARGET_CHUNK / ow;
    if (rows == 0) rows = 1;
    if (rows > oh) rows = oh;
    uint32_t chunkLen = (rows * ow + 63) / 64 * 64;

    uint32_t planes = n * c;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > planes) cores = planes;
    if (cores == 0) cores = 1;

    tiling.set_batch(n);
    tiling.set_channels(c);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_rowsPerChunk(rows);
    tiling.set_chunkLen(chunkLen);
    tiling.set_coreNum(cores);

    context->SetBlockDim(cores);
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
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GridSampleAffineCustom : public OpDef {
public:
    explicit GridSampleAffineCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("theta")
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

OP_ADD(GridSampleAffineCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

// Fused affine_grid + grid_sample (bilinear, zeros padding, align_corners=False).
//
// For output pixel (h, w) of sample n the source coordinate in input pixel space is
//   ix = w * ax + h * bx + cx,   iy = w * ay + h * by + cy
// where the coefficients fold the normalisation of affine_grid and the
// un-normalisation of grid_sample together with theta[n].
//
// One work unit = one (n, c) plane. The plane is kept in UB and the output is
// produced in chunks of rowsPerChunk rows: sampling offsets / weights are computed
// with vector ops, the four neighbours are fetched with Gather.
class KernelGridSampleAffine {
public:
    __aicore__ inline KernelGridSampleAffine() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR theta, GM_ADDR y, const GridSampleAffineCustomTilingData& td)
    {
        N = td.batch; C = td.channels;
        H = td.inH; W = td.inW;
        OH = td.outH; OW = td.outW;
        rowsPerChunk = td.rowsPerChunk;
        P = td.chunkLen;
        coreNum = td.coreNum;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        thetaGm.SetGlobalBuffer((__gm__ float*)theta, N * 6);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        uint32_t planeFloats = (H * W + 7) / 8 * 8;
        pipe.InitBuffer(planeQ, 1, planeFloats * sizeof(float));
        pipe.InitBuffer(outQ, 2, P * sizeof(float));
        pipe.InitBuffer(calcBuf, NUM_SLOTS * P * sizeof(float));

        BuildPixelIndex();
    }

    __aicore__ inline void Process()
    {
        uint32_t planes = N * C;
        for (uint32_t p = GetBlockIdx(); p < planes; p += coreNum) {
            uint32_t n = p / C;
            LoadCoefficients(n);
            LoadPlane(p);
            LocalTensor<float> plane = planeQ.DeQue<float>();
            for (uint32_t h0 = 0; h0 < OH; h0 += rowsPerChunk) {
                uint32_t rows = (h0 + rowsPerChunk <= OH) ? rowsPerChunk : (OH - h0);
                SampleChunk(plane, h0);
                StoreChunk(p, h0, rows);
            }
            planeQ.FreeTensor(plane);
        }
    }

private:
    // calcBuf slots (each P floats)
    static constexpr uint32_t S_WIDX = 0;   // w of each pixel in the chunk
    static constexpr uint32_t S_HLOC = 1;   // row offset inside the chunk
    static constexpr uint32_t S_X0 = 2;
    static constexpr uint32_t S_X1 = 3;
    static constexpr uint32_t S_WX0 = 4;
    static constexpr uint32_t S_WX1 = 5;
    static constexpr uint32_t S_Y0 = 6;
    static constexpr uint32_t S_Y1 = 7;
    static constexpr uint32_t S_WY0 = 8;
    static constexpr uint32_t S_WY1 = 9;
    static constexpr uint32_t S_T1 = 10;
    static constexpr uint32_t S_T2 = 11;
    static constexpr uint32_t S_G = 12;
    static constexpr uint32_t S_OFF = 13;   // int32 offsets
    static constexpr uint32_t NUM_SLOTS = 14;

    __aicore__ inline LocalTensor<float> Slot(uint32_t i)
    {
        return calcBuf.Get<float>()[i * P];
    }

    __aicore__ inline void BuildPixelIndex()
    {
        LocalTensor<float> widx = Slot(S_WIDX);
        LocalTensor<float> hloc = Slot(S_HLOC);
        for (uint32_t i = 0; i < P; ++i) {
            widx.SetValue(i, static_cast<float>(i % OW));
            hloc.SetValue(i, static_cast<float>(i / OW));
        }
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    __aicore__ inline void LoadCoefficients(uint32_t n)
    {
        float t00 = thetaGm.GetValue(n * 6 + 0);
        float t01 = thetaGm.GetValue(n * 6 + 1);
        float t02 = thetaGm.GetValue(n * 6 + 2);
        float t10 = thetaGm.GetValue(n * 6 + 3);
        float t11 = thetaGm.GetValue(n * 6 + 4);
        float t12 = thetaGm.GetValue(n * 6 + 5);
        float fW = static_cast<float>(W), fH = static_cast<float>(H);
        float fOW = static_cast<float>(OW), fOH = static_cast<float>(OH);
        // normalised base grid: xn = (2w + 1) / OW - 1, yn = (2h + 1) / OH - 1
        float xnScale = 2.0f / fOW, xnShift = 1.0f / fOW - 1.0f;
        float ynScale = 2.0f / fOH, ynShift = 1.0f / fOH - 1.0f;
        // grid_sample (align_corners=False): ix = ((gx + 1) * W - 1) / 2
        float hx = 0.5f * fW, hy = 0.5f * fH;
        ax = hx * t00 * xnScale;
        bx = hx * t01 * ynScale;
        cx = hx * (t00 * xnShift + t01 * ynShift + t02) + 0.5f * (fW - 1.0f);
        ay = hy * t10 * xnScale;
        by = hy * t11 * ynScale;
        cy = hy * (t10 * xnShift + t11 * ynShift + t12) + 0.5f * (fH - 1.0f);
    }

    __aicore__ inline void LoadPlane(uint32_t p)
    {
        LocalTensor<float> plane = planeQ.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(H * W * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(plane, xGm[static_cast<uint64_t>(p) * H * W], cp, pad);
        planeQ.EnQue(plane);
    }

    // Given coordinate in T1, produce clamped neighbour indices (lo, hi) and
    // their weights, zeroing the weight of any neighbour outside [0, limit-1].
    __aicore__ inline void Axis(uint32_t sLo, uint32_t sHi, uint32_t sWLo, uint32_t sWHi, float limit)
    {
        LocalTensor<float> coord = Slot(S_T1);
        LocalTensor<float> tmp = Slot(S_T2);
        LocalTensor<float> lo = Slot(sLo);
        LocalTensor<float> hi = Slot(sHi);
        LocalTensor<float> wLo = Slot(sWLo);
        LocalTensor<float> wHi = Slot(sWHi);
        LocalTensor<int32_t> iTmp = Slot(S_OFF).ReinterpretCast<int32_t>();

        Cast(iTmp, coord, RoundMode::CAST_FLOOR, P);
        PipeBarrier<PIPE_V>();
        Cast(lo, iTmp, RoundMode::CAST_NONE, P);          // floor(coord)
        PipeBarrier<PIPE_V>();
        Sub(wHi, coord, lo, P);                            // frac
        Adds(hi, lo, 1.0f, P);
        PipeBarrier<PIPE_V>();
        Muls(wLo, wHi, -1.0f, P);
        PipeBarrier<PIPE_V>();
        Adds(wLo, wLo, 1.0f, P);                           // 1 - frac
        PipeBarrier<PIPE_V>();

        ClampAndMask(lo, wLo, tmp, coord, limit);
        ClampAndMask(hi, wHi, tmp, coord, limit);
    }

    // idx <- clamp(idx, 0, limit-1); weight *= (idx was inside ? 1 : 0)
    // idx is integer valued, so |idx - clamp(idx)| is 0 inside and >= 1 outside.
    __aicore__ inline void ClampAndMask(LocalTensor<float>& idx, LocalTensor<float>& weight,
                                        LocalTensor<float>& clamped, LocalTensor<float>& scratch, float limit)
    {
        Maxs(clamped, idx, 0.0f, P);
        PipeBarrier<PIPE_V>();
        Mins(clamped, clamped, limit - 1.0f, P);
        PipeBarrier<PIPE_V>();
        Sub(scratch, idx, clamped, P);
        PipeBarrier<PIPE_V>();
        Abs(scratch, scratch, P);
        PipeBarrier<PIPE_V>();
        Mins(scratch, scratch, 1.0f, P);
        PipeBarrier<PIPE_V>();
        Muls(scratch, scratch, -1.0f, P);
        PipeBarrier<PIPE_V>();
        Adds(scratch, scratch, 1.0f, P);
        PipeBarrier<PIPE_V>();
        Mul(weight, weight, scratch, P);
        Adds(idx, clamped, 0.0f, P);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Corner(const LocalTensor<float>& plane, LocalTensor<float>& acc,
                                  uint32_t sY, uint32_t sX, uint32_t sWY, uint32_t sWX, bool first)
    {
        LocalTensor<float> t1 = Slot(S_T1);
        LocalTensor<float> t2 = Slot(S_T2);
        LocalTensor<float> g = Slot(S_G);
        LocalTensor<int32_t> off = Slot(S_OFF).ReinterpretCast<int32_t>();

        // byte offset = (y * W + x) * 4
        Muls(t1, Slot(sY), static_cast<float>(W), P);
        PipeBarrier<PIPE_V>();
        Add(t1, t1, Slot(sX), P);
        PipeBarrier<PIPE_V>();
        Muls(t1, t1, 4.0f, P);
        PipeBarrier<PIPE_V>();
        Cast(off, t1, RoundMode::CAST_RINT, P);
        Mul(t2, Slot(sWY), Slot(sWX), P);
        PipeBarrier<PIPE_V>();
        Gather(g, plane, off.ReinterpretCast<uint32_t>(), static_cast<uint32_t>(0), P);
        PipeBarrier<PIPE_V>();
        if (first) {
            Mul(acc, g, t2, P);
        } else {
            Mul(g, g, t2, P);
            PipeBarrier<PIPE_V>();
            Add(acc, acc, g, P);
        }
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void SampleChunk(const LocalTensor<float>& plane, uint32_t h0)
    {
        LocalTensor<float> coord = Slot(S_T1);
        LocalTensor<float> widx = Slot(S_WIDX);
        LocalTensor<float> hloc = Slot(S_HLOC);
        float fh0 = static_cast<float>(h0);

        // x axis
        Muls(coord, widx, ax, P);
        PipeBarrier<PIPE_V>();
        Axpy(coord, hloc, bx, P);
        PipeBarrier<PIPE_V>();
        Adds(coord, coord, cx + fh0 * bx, P);
        PipeBarrier<PIPE_V>();
        Axis(S_X0, S_X1, S_WX0, S_WX1, static_cast<float>(W));

        // y axis
        Muls(coord, widx, ay, P);
        PipeBarrier<PIPE_V>();
        Axpy(coord, hloc, by, P);
        PipeBarrier<PIPE_V>();
        Adds(coord, coord, cy + fh0 * by, P);
        PipeBarrier<PIPE_V>();
        Axis(S_Y0, S_Y1, S_WY0, S_WY1, static_cast<float>(H));

        LocalTensor<float> acc = outQ.AllocTensor<float>();
        Corner(plane, acc, S_Y0, S_X0, S_WY0, S_WX0, true);
        Corner(plane, acc, S_Y0, S_X1, S_WY0, S_WX1, false);
        Corner(plane, acc, S_Y1, S_X0, S_WY1, S_WX0, false);
        Corner(plane, acc, S_Y1, S_X1, S_WY1, S_WX1, false);
        outQ.EnQue(acc);
    }

    __aicore__ inline void StoreChunk(uint32_t p, uint32_t h0, uint32_t rows)
    {
        LocalTensor<float> res = outQ.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(rows * OW * sizeof(float)), 0, 0, 0};
        uint64_t off = static_cast<uint64_t>(p) * OH * OW + static_cast<uint64_t>(h0) * OW;
        DataCopyPad(yGm[off], res, cp);
        outQ.FreeTensor(res);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> planeQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> calcBuf;
    GlobalTensor<float> xGm, thetaGm, yGm;

    uint32_t N, C, H, W, OH, OW, rowsPerChunk, P, coreNum;
    float ax, bx, cx, ay, by, cy;
};

extern "C" __global__ __aicore__ void grid_sample_affine_custom(GM_ADDR x, GM_ADDR theta, GM_ADDR y,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelGridSampleAffine op;
    op.Init(x, theta, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor grid_sample_affine_custom_impl_npu(const at::Tensor& x, const at::Tensor& theta)
{
    TORCH_CHECK(x.dim() == 4, "expected NCHW input");
    TORCH_CHECK(theta.dim() == 3 && theta.size(1) == 2 && theta.size(2) == 3, "theta must be [N, 2, 3]");
    at::Tensor xc = x.contiguous();
    at::Tensor th = theta.to(x.device(), at::kFloat).contiguous();
    at::Tensor result = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnGridSampleAffineCustom, xc, th, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("grid_sample_affine_custom", &grid_sample_affine_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("grid_sample_affine_custom", &grid_sample_affine_custom_impl_npu,
          "affine_grid + bilinear grid_sample (zeros padding, align_corners=False)");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def forward(self, x, theta):
        return custom_ops_lib.grid_sample_affine_custom(x, theta)
'''
