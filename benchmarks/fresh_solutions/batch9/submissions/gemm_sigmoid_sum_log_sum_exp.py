project_json_src='''
[
    {
        "op": "RowwiseLogSumExpCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "logits",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "output_desc": [
            {
                "name": "lse",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowwiseLogSumExpTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, remRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RowwiseLogSumExpCustom, RowwiseLogSumExpTilingData)
}
"""

host_operator_src="""
#include "rowwise_log_sum_exp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_ROWS_PER_TILE = 64;

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// UB per tile: BUFFER_NUM input tiles + one fp32 working row + reduce scratch + small per-row vectors.
uint32_t RowsThatFit(uint64_t ub, uint32_t cols, uint32_t typeSize)
{
    uint64_t colsAligned = AlignUp(cols, 32 / typeSize);
    uint64_t fixed = AlignUp(cols, 8) * sizeof(float) * 2 + 4096;
    if (ub <= fixed) {
        return 1;
    }
    uint64_t perRow = colsAligned * typeSize * BUFFER_NUM + 3 * sizeof(float) * BUFFER_NUM;
    uint64_t r = (ub - fixed) / perRow;
    if (r > MAX_ROWS_PER_TILE) r = MAX_ROWS_PER_TILE;
    // keep per-row vectors 32B aligned in both dtypes
    r = r / 16 * 16;
    return r == 0 ? 1 : static_cast<uint32_t>(r);
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    RowwiseLogSumExpTilingData tiling;
    const auto& shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t dimNum = shape.GetDimNum();
    uint32_t cols = static_cast<uint32_t>(shape.GetDim(dimNum - 1));
    uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = dt == ge::DT_FLOAT16 ? 2 : 4;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > rows) cores = rows;
    if (cores == 0) cores = 1;

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_rowsPerCore(rows / cores);
    tiling.set_remRows(rows % cores);
    tiling.set_rowsPerTile(RowsThatFit(ub - 8 * 1024, cols, typeSize));

    context->SetBlockDim(cores);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
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
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    size_t n = in->GetDimNum();
    out->SetDimNum(n - 1);
    for (size_t i = 0; i + 1 < n; ++i) {
        out->SetDim(i, in->GetDim(i));
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
class RowwiseLogSumExpCustom : public OpDef {
public:
    explicit RowwiseLogSumExpCustom(const char* name) : OpDef(name)
    {
        this->Input("logits")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("lse")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RowwiseLogSumExpCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
__aicore__ inline uint32_t AlignTo32B(uint32_t n)
{
    constexpr uint32_t a = 32 / sizeof(T);
    return (n + a - 1) / a * a;
}

template <HardEvent EVT>
__aicore__ inline void WaitPipe()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(EVT));
    SetFlag<EVT>(e);
    WaitFlag<EVT>(e);
}

// Numerically stable log(sum(exp(v))) for one row already in fp32.
// Returns the row max; the sum of exp(v - max) is written to sumOut.
__aicore__ inline float StableExpSum(const LocalTensor<float>& row, const LocalTensor<float>& scratch,
                                     const LocalTensor<float>& scalarBuf, uint32_t cols, float& sumOut)
{
    ReduceMax<float>(scalarBuf, row, scratch, cols, false);
    WaitPipe<HardEvent::V_S>();
    float m = scalarBuf.GetValue(0);
    WaitPipe<HardEvent::S_V>();
    Adds(row, row, -m, cols);
    PipeBarrier<PIPE_V>();
    Exp(row, row, cols);
    PipeBarrier<PIPE_V>();
    ReduceSum<float>(scalarBuf, row, scratch, cols);
    WaitPipe<HardEvent::V_S>();
    sumOut = scalarBuf.GetValue(0);
    return m;
}

template <typename T>
class RowwiseLogSumExp {
public:
    __aicore__ inline RowwiseLogSumExp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols,
                                uint32_t rowsPerCore, uint32_t remRows, uint32_t rowsPerTile)
    {
        this->cols = cols;
        this->tileRows = rowsPerTile;
        colsPad = AlignTo32B<T>(cols);
        uint32_t idx = GetBlockIdx();
        myRows = rowsPerCore + (idx < remRows ? 1 : 0);
        rowBegin = idx * rowsPerCore + (idx < remRows ? idx : remRows);

        xGm.SetGlobalBuffer((__gm__ T*)x, (uint64_t)rows * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y, rows);

        pipe.InitBuffer(inQ, BUFFER_NUM, tileRows * colsPad * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileRows * sizeof(T) < 32 ? 32 : tileRows * sizeof(T));
        uint32_t colsF = AlignTo32B<float>(cols);
        pipe.InitBuffer(rowBuf, colsF * sizeof(float));       // fp32 copy of the active row
        pipe.InitBuffer(scratchBuf, colsF * sizeof(float));   // reduce scratch
        pipe.InitBuffer(scalarTmp, 32);
        pipe.InitBuffer(maxBuf, AlignTo32B<float>(tileRows) * sizeof(float));
        pipe.InitBuffer(sumBuf, AlignTo32B<float>(tileRows) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < myRows; done += tileRows) {
            uint32_t cnt = myRows - done < tileRows ? myRows - done : tileRows;
            CopyIn(rowBegin + done, cnt);
            Compute(cnt);
            CopyOut(rowBegin + done, cnt);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row0, uint32_t cnt)
    {
        LocalTensor<T> xl = inQ.AllocTensor<T>();
        DataCopyExtParams cp{static_cast<uint16_t>(cnt), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm[(uint64_t)row0 * cols], cp, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t cnt)
    {
        LocalTensor<T> xl = inQ.DeQue<T>();
        LocalTensor<T> yl = outQ.AllocTensor<T>();
        LocalTensor<float> row = rowBuf.Get<float>();
        LocalTensor<float> scratch = scratchBuf.Get<float>();
        LocalTensor<float> sc = scalarTmp.Get<float>();
        LocalTensor<float> maxes = maxBuf.Get<float>();
        LocalTensor<float> sums = sumBuf.Get<float>();

        for (uint32_t r = 0; r < cnt; ++r) {
            if constexpr (sizeof(T) == sizeof(float)) {
                DataCopy(row, xl[r * colsPad], AlignTo32B<float>(cols));
            } else {
                Cast(row, xl[r * colsPad], RoundMode::CAST_NONE, cols);
            }
            PipeBarrier<PIPE_V>();
            float s = 0.0f;
            float m = StableExpSum(row, scratch, sc, cols, s);
            maxes.SetValue(r, m);
            sums.SetValue(r, s);
        }
        WaitPipe<HardEvent::S_V>();
        // lse = max + ln(sum(exp(x - max)))
        Ln(sums, sums, cnt);
        PipeBarrier<PIPE_V>();
        Add(sums, sums, maxes, cnt);
        PipeBarrier<PIPE_V>();
        if constexpr (sizeof(T) == sizeof(float)) {
            DataCopy(yl, sums.template ReinterpretCast<T>(), AlignTo32B<float>(cnt));
        } else {
            Cast(yl, sums, RoundMode::CAST_ROUND, cnt);
        }
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint32_t row0, uint32_t cnt)
    {
        LocalTensor<T> yl = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[row0], yl, cp);
        outQ.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> rowBuf, scratchBuf, scalarTmp, maxBuf, sumBuf;
    GlobalTensor<T> xGm, yGm;
    uint32_t cols = 0, colsPad = 0, tileRows = 0;
    uint32_t myRows = 0, rowBegin = 0;
};

extern "C" __global__ __aicore__ void rowwise_log_sum_exp_custom(GM_ADDR logits, GM_ADDR lse, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        RowwiseLogSumExp<half> op;
        op.Init(logits, lse, td.rows, td.cols, td.rowsPerCore, td.remRows, td.rowsPerTile);
        op.Process();
    } else {
        RowwiseLogSumExp<float> op;
        op.Init(logits, lse, td.rows, td.cols, td.rowsPerCore, td.remRows, td.rowsPerTile);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor rowwise_log_sum_exp_npu(const at::Tensor& logits)
{
    at::Tensor in = logits.contiguous();
    auto sizes = in.sizes().vec();
    sizes.pop_back();
    at::Tensor out = at::empty(sizes, in.options());
    EXEC_NPU_CMD(aclnnRowwiseLogSumExpCustom, in, out);
    return out;
}

// linear -> sigmoid -> linear run on the stock matmul path, the feature reduction is custom
at::Tensor two_layer_sigmoid_lse_npu(const at::Tensor& x, const at::Tensor& w1, const at::Tensor& b1,
                                     const at::Tensor& w2, const at::Tensor& b2)
{
    at::Tensor hidden = at::addmm(b1, x, w1.t());
    hidden.sigmoid_();
    at::Tensor logits = at::addmm(b2, hidden, w2.t());
    return rowwise_log_sum_exp_npu(logits);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("rowwise_log_sum_exp_custom", &rowwise_log_sum_exp_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("rowwise_log_sum_exp_custom", &rowwise_log_sum_exp_npu, "logsumexp over the last dim");
    m.def("two_layer_sigmoid_lse", &two_layer_sigmoid_lse_npu, "addmm, sigmoid, addmm, logsumexp(dim=1)");
}
"""
