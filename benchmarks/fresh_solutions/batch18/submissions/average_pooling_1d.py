project_json_src='''
[
    {
        "op": "SlidingWindowMeanCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "kernel_size", "param_type": "required", "type": "int"},
            {"name": "stride", "param_type": "required", "type": "int"},
            {"name": "padding", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SlidingWindowMeanTiling)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // N * C
  TILING_DATA_FIELD_DEF(uint32_t, inLen);
  TILING_DATA_FIELD_DEF(uint32_t, outLen);
  TILING_DATA_FIELD_DEF(uint32_t, window);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, front);         // zero lead-in in the staged window, >= pad, 16-aligned
  TILING_DATA_FIELD_DEF(uint32_t, tileOut);       // outputs per tile
  TILING_DATA_FIELD_DEF(uint32_t, stageLen);      // fp32 elements in the staged window
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerRow);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SlidingWindowMeanCustom, SlidingWindowMeanTiling)
}
"""

host_operator_src="""
#include "sliding_window_mean_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
inline uint32_t Align16(uint32_t v) { return (v + 15) / 16 * 16; }

struct PoolPlan {
    uint32_t tileOut, span, stageLen, front;
};

// bytes per output element: in queue (2 x stride x T), fp32 stage, offsets, acc, tap, out queue (2 x T)
PoolPlan PlanTile(uint64_t ub, uint32_t outLen, uint32_t k, uint32_t s, uint32_t p, uint32_t elem)
{
    PoolPlan pl;
    pl.front = Align16(p);
    uint64_t perOut = 2ULL * s * elem + 4ULL * s + 4 + 4 + 4 + 2ULL * elem;
    uint64_t budget = ub - 16 * 1024;
    uint64_t t = budget / perOut;
    if (t > 8192) t = 8192;
    t = t / 64 * 64;
    if (t < 64) t = 64;
    if (t > Align16(outLen)) t = Align16(outLen);
    pl.tileOut = static_cast<uint32_t>(t);
    pl.span = (pl.tileOut - 1) * s + k;
    pl.stageLen = Align16(pl.front + pl.span + 16);
    return pl;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto shape = context->GetInputShape(0)->GetStorageShape();
    size_t rank = shape.GetDimNum();
    uint32_t inLen = shape.GetDim(rank - 1);
    uint32_t rows = 1;
    for (size_t i = 0; i + 1 < rank; ++i) rows *= shape.GetDim(i);
    const auto *attrs = context->GetAttrs();
    uint32_t k = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t s = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t p = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));
    uint32_t outLen = (inLen + 2 * p - k) / s + 1;

    auto dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t elem = dtype == ge::DT_FLOAT16 ? 2 : 4;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();

    PoolPlan pl = PlanTile(ub, outLen, k, s, p, elem);
    uint32_t tilesPerRow = (outLen + pl.tileOut - 1) / pl.tileOut;
    uint32_t units = rows * tilesPerRow;
    uint32_t per = (units + cores - 1) / cores;

    SlidingWindowMeanTiling t;
    t.set_rows(rows);
    t.set_inLen(inLen);
    t.set_outLen(outLen);
    t.set_window(k);
    t.set_stride(s);
    t.set_pad(p);
    t.set_front(pl.front);
    t.set_tileOut(pl.tileOut);
    t.set_stageLen(pl.stageLen);
    t.set_tilesPerRow(tilesPerRow);
    t.set_unitsPerCore(per);
    t.set_totalUnits(units);

    context->SetBlockDim((units + per - 1) / per);
    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 1 : 0);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const auto *attrs = context->GetAttrs();
    int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    int64_t s = *attrs->GetAttrPointer<int64_t>(1);
    int64_t p = *attrs->GetAttrPointer<int64_t>(2);
    gert::Shape *y = context->GetOutputShape(0);
    *y = *x;
    size_t last = x->GetDimNum() - 1;
    y->SetDim(last, (x->GetDim(last) + 2 * p - k) / s + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class SlidingWindowMeanCustom : public OpDef {
public:
    explicit SlidingWindowMeanCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("kernel_size").Int();
        this->Attr("stride").Int();
        this->Attr("padding").Int();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SlidingWindowMeanCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Location of one output tile inside its row and the input span it reads.
struct TileWindow {
    uint32_t row;
    uint32_t out0;
    uint32_t outCnt;
    int64_t winStart;   // may be negative (left padding)
    uint32_t copyStart; // first valid input element
    uint32_t copyCnt;

    __aicore__ inline void Resolve(uint32_t unit, const SlidingWindowMeanTiling &t)
    {
        row = unit / t.tilesPerRow;
        out0 = (unit % t.tilesPerRow) * t.tileOut;
        outCnt = t.outLen - out0 < t.tileOut ? t.outLen - out0 : t.tileOut;
        winStart = (int64_t)out0 * t.stride - (int64_t)t.pad;
        int64_t winEnd = winStart + (int64_t)(outCnt - 1) * t.stride + t.window;
        int64_t lo = winStart < 0 ? 0 : winStart;
        int64_t hi = winEnd > (int64_t)t.inLen ? (int64_t)t.inLen : winEnd;
        copyStart = static_cast<uint32_t>(lo);
        copyCnt = hi > lo ? static_cast<uint32_t>(hi - lo) : 0;
    }
};

template <typename T>
class SlidingWindowMean {
public:
    __aicore__ inline SlidingWindowMean() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SlidingWindowMeanTiling &t)
    {
        tl = t;
        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        unitBegin = GetBlockIdx() * tl.unitsPerCore;
        unitEnd = unitBegin + tl.unitsPerCore;
        if (unitEnd > tl.totalUnits) unitEnd = tl.totalUnits;

        uint32_t spanMax = tl.stageLen - tl.front;
        pipe.InitBuffer(inQ, BUFFER_NUM, spanMax * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tl.tileOut * sizeof(T));
        pipe.InitBuffer(stageBuf, tl.stageLen * sizeof(float));
        pipe.InitBuffer(offBuf, tl.tileOut * sizeof(int32_t));
        pipe.InitBuffer(accBuf, tl.tileOut * sizeof(float));
        pipe.InitBuffer(tapBuf, tl.tileOut * sizeof(float));

        // offsets[j] = j * stride * 4 bytes, shared by every tap
        LocalTensor<int32_t> off = offBuf.Get<int32_t>();
        CreateVecIndex(off, (int32_t)0, tl.tileOut);
        PipeBarrier<PIPE_V>();
        Muls(off, off, (int32_t)(tl.stride * sizeof(float)), tl.tileOut);
        PipeBarrier<PIPE_V>();
        invWindow = 1.0f / static_cast<float>(tl.window);
    }

    __aicore__ inline void Process()
    {
        TileWindow w;
        for (uint32_t u = unitBegin; u < unitEnd; ++u) {
            w.Resolve(u, tl);
            CopyIn(w);
            Compute(w);
            CopyOut(w);
        }
    }

private:
    __aicore__ inline void CopyIn(const TileWindow &w)
    {
        LocalTensor<T> xl = inQ.AllocTensor<T>();
        if (w.copyCnt > 0) {
            DataCopyExtParams cp{1, static_cast<uint32_t>(w.copyCnt * sizeof(T)), 0, 0, 0};
            DataCopyPad(xl, xGm[(uint64_t)w.row * tl.inLen + w.copyStart], cp,
                        DataCopyPadExtParams<T>{false, 0, 0, static_cast<T>(0)});
        }
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(const TileWindow &w)
    {
        LocalTensor<T> xl = inQ.DeQue<T>();
        LocalTensor<float> stage = stageBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> tap = tapBuf.Get<float>();
        LocalTensor<uint32_t> off = offBuf.Get<int32_t>().ReinterpretCast<uint32_t>();

        // zero lead-in/tail realise count_include_pad semantics
        Duplicate(stage, 0.0f, tl.stageLen);
        PipeBarrier<PIPE_V>();
        if (w.copyCnt > 0) {
            if constexpr (std::is_same<T, float>::value) {
                Adds(stage[tl.front], xl, 0.0f, w.copyCnt);
            } else {
                Cast(stage[tl.front], xl, RoundMode::CAST_NONE, w.copyCnt);
            }
        }
        inQ.FreeTensor(xl);
        PipeBarrier<PIPE_V>();

        // stage index of window element 0 for output out0
        uint32_t lead = static_cast<uint32_t>((int64_t)tl.front + w.winStart - (int64_t)w.copyStart);
        Gather(acc, stage, off, lead * (uint32_t)sizeof(float), w.outCnt);
        for (uint32_t t = 1; t < tl.window; ++t) {
            PipeBarrier<PIPE_V>();
            Gather(tap, stage, off, (lead + t) * (uint32_t)sizeof(float), w.outCnt);
            PipeBarrier<PIPE_V>();
            Add(acc, acc, tap, w.outCnt);
        }
        PipeBarrier<PIPE_V>();
        Muls(acc, acc, invWindow, w.outCnt);
        PipeBarrier<PIPE_V>();

        LocalTensor<T> yl = outQ.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            Adds(yl, acc, 0.0f, w.outCnt);
        } else {
            Cast(yl, acc, RoundMode::CAST_RINT, w.outCnt);
        }
        outQ.EnQue(yl);
    }

    __aicore__ inline void CopyOut(const TileWindow &w)
    {
        LocalTensor<T> yl = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(w.outCnt * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[(uint64_t)w.row * tl.outLen + w.out0], yl, cp);
        outQ.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> stageBuf, offBuf, accBuf, tapBuf;
    GlobalTensor<T> xGm, yGm;
    SlidingWindowMeanTiling tl;
    uint32_t unitBegin = 0, unitEnd = 0;
    float invWindow = 1.0f;
};

extern "C" __global__ __aicore__ void sliding_window_mean_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        SlidingWindowMean<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        SlidingWindowMean<half> op;
        op.Init(x, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// AvgPool1d(kernel_size, stride, padding), count_include_pad=True, ceil_mode=False
at::Tensor sliding_window_mean_impl_npu(const at::Tensor &x, int64_t kernel_size, int64_t stride, int64_t padding)
{
    TORCH_CHECK(x.dim() >= 2, "expected (N, C, L) or (C, L)");
    TORCH_CHECK(padding <= kernel_size / 2, "padding should be at most half of kernel size");
    std::vector<int64_t> outShape(x.sizes().begin(), x.sizes().end());
    outShape.back() = (x.size(-1) + 2 * padding - kernel_size) / stride + 1;
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty(outShape, x.options());
    EXEC_NPU_CMD(aclnnSlidingWindowMeanCustom, xc, kernel_size, stride, padding, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("sliding_window_mean_custom", &sliding_window_mean_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("sliding_window_mean_custom", &sliding_window_mean_impl_npu, "1D average pooling");
}
"""
