project_json_src='''
[
    {
        "op": "MeanCosineDistanceCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "a",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "b",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "output_desc": [
            {
                "name": "loss",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MeanCosineDistanceTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);         // batch dimension
  TILING_DATA_FIELD_DEF(uint32_t, cols);         // reduction dimension (dim=1)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // base rows per core
  TILING_DATA_FIELD_DEF(uint32_t, rowsTail);     // first rowsTail cores take one extra row
  TILING_DATA_FIELD_DEF(uint32_t, tileCols);     // columns per UB tile
  TILING_DATA_FIELD_DEF(float, invRows);         // 1 / rows, for the mean
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MeanCosineDistanceCustom, MeanCosineDistanceTilingData)
}
"""

host_operator_src="""
#include "mean_cosine_distance_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t COL_ALIGN = 64;        // multiple of one repeat for fp32 and 32B for fp16
constexpr uint32_t MAX_TILE_COLS = 4096;

static uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static void SplitRows(uint32_t rows, uint32_t cores, uint32_t& used, uint32_t& base, uint32_t& tail)
{
    used = rows < cores ? rows : cores;
    if (used == 0) {
        used = 1;
    }
    base = rows / used;
    tail = rows % used;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MeanCosineDistanceTilingData tiling;
    const gert::Shape& shp = context->GetInputShape(0)->GetStorageShape();
    if (shp.GetDimNum() < 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = static_cast<uint32_t>(shp.GetDim(0));
    uint32_t cols = static_cast<uint32_t>(shp.GetShapeSize() / shp.GetDim(0));

    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t used, base, tail;
    SplitRows(rows, ascendc.GetCoreNumAiv(), used, base, tail);

    uint32_t tileCols = AlignUp(cols, COL_ALIGN);
    if (tileCols > MAX_TILE_COLS) {
        tileCols = MAX_TILE_COLS;
    }

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(used);

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_rowsPerCore(base);
    tiling.set_rowsTail(tail);
    tiling.set_tileCols(tileCols);
    tiling.set_invRows(rows > 0 ? 1.0f / static_cast<float>(rows) : 0.0f);
    tiling.set_eps(1e-8f);
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
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(0);   // scalar
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, ge::DT_FLOAT);
    return GRAPH_SUCCESS;
}
}

namespace ops {
class MeanCosineDistanceCustom : public OpDef {
public:
    explicit MeanCosineDistanceCustom(const char* name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("loss")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MeanCosineDistanceCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t STAT_CAP = 256;   // rows whose (dot, |a|^2, |b|^2) are buffered before folding

// Squared norms and dot product accumulated lane-wise in fp32, reduced once per row.
struct RowAccumulators {
    LocalTensor<float> ab, aa, bb;
    __aicore__ inline void Reset(uint32_t n)
    {
        Duplicate(ab, 0.0f, n);
        Duplicate(aa, 0.0f, n);
        Duplicate(bb, 0.0f, n);
    }
    __aicore__ inline void Accumulate(const LocalTensor<float>& a, const LocalTensor<float>& b,
                                      const LocalTensor<float>& tmp, uint32_t n)
    {
        Mul(tmp, a, b, n);
        Add(ab, ab, tmp, n);
        Mul(tmp, a, a, n);
        Add(aa, aa, tmp, n);
        Mul(tmp, b, b, n);
        Add(bb, bb, tmp, n);
    }
};

template <typename T>
class MeanCosineDistanceKernel {
public:
    __aicore__ inline MeanCosineDistanceKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR loss, const MeanCosineDistanceTilingData& td)
    {
        cols = td.cols;
        tileCols = td.tileCols;
        invRows = td.invRows;
        eps = td.eps;
        uint32_t idx = GetBlockIdx();
        myRows = td.rowsPerCore + (idx < td.rowsTail ? 1 : 0);
        uint32_t firstRow = idx * td.rowsPerCore + (idx < td.rowsTail ? idx : td.rowsTail);

        aGm.SetGlobalBuffer((__gm__ T*)a + (uint64_t)firstRow * cols, (uint64_t)myRows * cols);
        bGm.SetGlobalBuffer((__gm__ T*)b + (uint64_t)firstRow * cols, (uint64_t)myRows * cols);
        lossGm.SetGlobalBuffer((__gm__ float*)loss, 1);

        pipe.InitBuffer(aQ, BUFFER_NUM, tileCols * sizeof(T));
        pipe.InitBuffer(bQ, BUFFER_NUM, tileCols * sizeof(T));
        pipe.InitBuffer(accBuf, 3 * tileCols * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileCols * sizeof(float));
        pipe.InitBuffer(workBuf, tileCols * sizeof(float));
        if constexpr (sizeof(T) == 2) {
            pipe.InitBuffer(castBuf, 2 * tileCols * sizeof(float));
        }
        pipe.InitBuffer(statBuf, 3 * STAT_CAP * sizeof(float));
        pipe.InitBuffer(outQ, 1, 8 * sizeof(float));

        LocalTensor<float> acc = accBuf.Get<float>();
        accs.ab = acc;
        accs.aa = acc[tileCols];
        accs.bb = acc[2 * tileCols];
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> stats = statBuf.Get<float>();
        LocalTensor<float> sDot = stats;
        LocalTensor<float> sA = stats[STAT_CAP];
        LocalTensor<float> sB = stats[2 * STAT_CAP];
        LocalTensor<float> work = workBuf.Get<float>();
        float partial = 0.0f;

        for (uint32_t g = 0; g < myRows; g += STAT_CAP) {
            uint32_t groupRows = (myRows - g) < STAT_CAP ? (myRows - g) : STAT_CAP;
            for (uint32_t r = 0; r < groupRows; ++r) {
                RowStats(g + r, work, sDot, sA, sB, r);
            }
            partial += FoldGroup(sDot, sA, sB, work, groupRows);
        }
        WriteOut(partial * invRows);
    }

private:
    __aicore__ inline void RowStats(uint32_t row, LocalTensor<float>& work, LocalTensor<float>& sDot,
                                    LocalTensor<float>& sA, LocalTensor<float>& sB, uint32_t slot)
    {
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        accs.Reset(tileCols);
        uint64_t rowOff = (uint64_t)row * cols;
        for (uint32_t c = 0; c < cols; c += tileCols) {
            uint32_t n = (cols - c) < tileCols ? (cols - c) : tileCols;
            CopyIn(rowOff + c, n);
            LocalTensor<T> at = aQ.DeQue<T>();
            LocalTensor<T> bt = bQ.DeQue<T>();
            if constexpr (sizeof(T) == 2) {
                LocalTensor<float> cf = castBuf.Get<float>();
                LocalTensor<float> af = cf;
                LocalTensor<float> bf = cf[tileCols];
                Cast(af, at, RoundMode::CAST_NONE, n);
                Cast(bf, bt, RoundMode::CAST_NONE, n);
                accs.Accumulate(af, bf, tmp, n);
            } else {
                accs.Accumulate(at, bt, tmp, n);
            }
            aQ.FreeTensor(at);
            bQ.FreeTensor(bt);
        }
        // lane-wise partials -> scalars
        ReduceSum(tmp, accs.ab, work, tileCols);
        ReduceSum(tmp[8], accs.aa, work, tileCols);
        ReduceSum(tmp[16], accs.bb, work, tileCols);
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        sDot.SetValue(slot, tmp.GetValue(0));
        sA.SetValue(slot, tmp.GetValue(8));
        sB.SetValue(slot, tmp.GetValue(16));
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
    }

    // sum over the group of (1 - dot / max(|a||b|, eps))
    __aicore__ inline float FoldGroup(LocalTensor<float>& sDot, LocalTensor<float>& sA, LocalTensor<float>& sB,
                                      LocalTensor<float>& work, uint32_t n)
    {
        Mul(sA, sA, sB, n);
        Sqrt(sA, sA, n);
        Maxs(sA, sA, eps, n);
        Div(sDot, sDot, sA, n);
        ReduceSum(sB, sDot, work, n);
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float cosSum = sB.GetValue(0);
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        return static_cast<float>(n) - cosSum;
    }

    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        LocalTensor<T> at = aQ.AllocTensor<T>();
        LocalTensor<T> bt = bQ.AllocTensor<T>();
        DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(at, aGm[off], p, pad);
        DataCopyPad(bt, bGm[off], p, pad);
        aQ.EnQue(at);
        bQ.EnQue(bt);
    }

    // cores contribute their share of the mean through atomic add; host zero-fills loss
    __aicore__ inline void WriteOut(float v)
    {
        LocalTensor<float> o = outQ.AllocTensor<float>();
        Duplicate(o, 0.0f, 8);
        event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        o.SetValue(0, v);
        outQ.EnQue(o);
        o = outQ.DeQue<float>();
        SetAtomicAdd<float>();
        DataCopyExtParams p{1, static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(lossGm, o, p);
        SetAtomicNone();
        outQ.FreeTensor(o);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> aQ, bQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> accBuf, tmpBuf, workBuf, castBuf, statBuf;
    GlobalTensor<T> aGm, bGm;
    GlobalTensor<float> lossGm;
    RowAccumulators accs;
    uint32_t cols = 0, tileCols = 0, myRows = 0;
    float invRows = 0.0f, eps = 1e-8f;
};

extern "C" __global__ __aicore__ void mean_cosine_distance_custom(GM_ADDR a, GM_ADDR b, GM_ADDR loss,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        MeanCosineDistanceKernel<float> op;
        op.Init(a, b, loss, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        MeanCosineDistanceKernel<half> op;
        op.Init(a, b, loss, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor mean_cosine_distance_impl_npu(const at::Tensor& a, const at::Tensor& b)
{
    TORCH_CHECK(a.sizes() == b.sizes(), "a and b must have the same shape");
    at::Tensor ac = a.contiguous();
    at::Tensor bc = b.contiguous();
    // accumulated with atomic add, so start from zero
    at::Tensor loss = at::zeros({}, a.options().dtype(at::kFloat));
    EXEC_NPU_CMD(aclnnMeanCosineDistanceCustom, ac, bc, loss);
    return loss.to(a.scalar_type());
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("mean_cosine_distance_custom", &mean_cosine_distance_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("mean_cosine_distance_custom", &mean_cosine_distance_impl_npu, "mean(1 - cos(a, b)) over dim 1");
}
"""
