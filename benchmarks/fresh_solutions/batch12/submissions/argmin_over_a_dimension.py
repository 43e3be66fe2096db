project_json_src='''
[
    {
        "op": "AxisMinimumIndexCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "indices", "param_type": "required", "format": ["ND", "ND"], "type": ["int64", "int64"]}
        ],
        "attr": [
            {"name": "dim", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AxisMinimumIndexTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);      // product of dims before `dim`
  TILING_DATA_FIELD_DEF(uint32_t, reduce);     // size of `dim`
  TILING_DATA_FIELD_DEF(uint32_t, inner);      // product of dims after `dim`
  TILING_DATA_FIELD_DEF(uint32_t, colTile);    // inner columns per unit, multiple of 64
  TILING_DATA_FIELD_DEF(uint32_t, rowBlock);   // reduce rows fetched per DMA
  TILING_DATA_FIELD_DEF(uint32_t, colTiles);
  TILING_DATA_FIELD_DEF(uint32_t, units);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AxisMinimumIndexCustom, AxisMinimumIndexTilingData)
}
"""

host_operator_src="""
#include "axis_minimum_index_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MAX_COL_TILE = 1024;

struct ReduceView {
    uint64_t outer = 1, reduce = 1, inner = 1;
};

ReduceView Collapse(const gert::Shape& s, int64_t dim)
{
    ReduceView v;
    int64_t rank = static_cast<int64_t>(s.GetDimNum());
    for (int64_t i = 0; i < rank; ++i) {
        if (i < dim) v.outer *= s.GetDim(i);
        else if (i == dim) v.reduce = s.GetDim(i);
        else v.inner *= s.GetDim(i);
    }
    return v;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const gert::Shape& s = context->GetInputShape(0)->GetStorageShape();
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t rank = static_cast<int64_t>(s.GetDimNum());
    if (dim < 0) dim += rank;
    if (dim < 0 || dim >= rank) {
        return ge::GRAPH_FAILED;
    }
    ReduceView v = Collapse(s, dim);
    auto dt = context->GetInputDesc(0)->GetDataType();
    uint32_t esz = dt == ge::DT_FLOAT16 ? 2 : 4;

    uint32_t colTile = static_cast<uint32_t>((v.inner + 63) / 64 * 64);
    colTile = colTile > MAX_COL_TILE ? MAX_COL_TILE : colTile;
    // UB: 2 input blocks of rowBlock x colTile, an fp32 copy for half, and ~6 fp32 vectors of colTile
    uint64_t fixed = (uint64_t)colTile * (4 * 4 + 8 * 2) + 8 * 1024;
    uint64_t perRow = (uint64_t)colTile * (2 * esz + (esz == 2 ? 4 : 0));
    uint64_t rows = (ub - fixed) / perRow;
    rows = rows > v.reduce ? v.reduce : rows;
    rows = rows > 64 ? 64 : rows;
    if (rows == 0) rows = 1;

    AxisMinimumIndexTilingData td;
    td.set_outer(v.outer);
    td.set_reduce(v.reduce);
    td.set_inner(v.inner);
    td.set_colTile(colTile);
    td.set_rowBlock(static_cast<uint32_t>(rows));
    uint32_t colTiles = static_cast<uint32_t>((v.inner + colTile - 1) / colTile);
    td.set_colTiles(colTiles);
    uint32_t units = static_cast<uint32_t>(v.outer) * colTiles;
    td.set_units(units);

    uint32_t cores = plat.GetCoreNumAiv();
    context->SetBlockDim(units < cores ? units : cores);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 2 : 1);
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
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t rank = static_cast<int64_t>(x->GetDimNum());
    if (dim < 0) dim += rank;
    y->SetDimNum(rank - 1);
    int64_t o = 0;
    for (int64_t i = 0; i < rank; ++i) {
        if (i != dim) {
            y->SetDim(o++, x->GetDim(i));
        }
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, ge::DT_INT64);
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class AxisMinimumIndexCustom : public OpDef {
public:
    explicit AxisMinimumIndexCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("indices").ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").Int();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(AxisMinimumIndexCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Running (min, argmin) over rows of a [reduce x colTile] strip. Indices are carried as fp32
// (exact up to 2^24) so Select can update them lane-wise; strict '<' keeps the first minimum.
class RunningArgMin {
public:
    __aicore__ inline void Bind(const LocalTensor<float>& minV, const LocalTensor<float>& idx,
                                const LocalTensor<uint8_t>& mask, uint32_t n)
    {
        minVals = minV; idxVals = idx; keepMask = mask; lanes = n;
    }
    __aicore__ inline void Reset()
    {
        Duplicate(minVals, 3.402823466e+38f, lanes);
        Duplicate(idxVals, 0.0f, lanes);
    }
    __aicore__ inline void Update(const LocalTensor<float>& row, float rowIdx)
    {
        // keep old index where row >= current min
        Compare(keepMask, row, minVals, CMPMODE::GE, lanes);
        PipeBarrier<PIPE_V>();
        Select(idxVals, keepMask, idxVals, rowIdx, SELMODE::VSEL_TENSOR_SCALAR_MODE, lanes);
        Min(minVals, minVals, row, lanes);
        PipeBarrier<PIPE_V>();
    }

private:
    LocalTensor<float> minVals, idxVals;
    LocalTensor<uint8_t> keepMask;
    uint32_t lanes = 0;
};

template <typename T>
class AxisMinimumIndexKernel {
public:
    __aicore__ inline AxisMinimumIndexKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR out, const AxisMinimumIndexTilingData& td)
    {
        outer = td.outer; R = td.reduce; inner = td.inner;
        colTile = td.colTile; rowBlock = td.rowBlock; colTiles = td.colTiles; units = td.units;

        xGm.SetGlobalBuffer((__gm__ T*)x, (uint64_t)outer * R * inner);
        outGm.SetGlobalBuffer((__gm__ int64_t*)out, (uint64_t)outer * inner);

        pipe.InitBuffer(inQ, BUFFER_NUM, rowBlock * colTile * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, colTile * sizeof(int64_t));
        pipe.InitBuffer(minBuf, colTile * sizeof(float));
        pipe.InitBuffer(idxBuf, colTile * sizeof(float));
        pipe.InitBuffer(idxI32Buf, colTile * sizeof(int32_t));
        pipe.InitBuffer(maskBuf, (colTile / 8 + 31) / 32 * 32);
        if constexpr (!IsSameType<T, float>::value) {
            pipe.InitBuffer(rowF32Buf, rowBlock * colTile * sizeof(float));
        }
        tracker.Bind(minBuf.Get<float>(), idxBuf.Get<float>(), maskBuf.Get<uint8_t>(), colTile);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = GetBlockIdx(); u < units; u += GetBlockNum()) {
            uint32_t o = u / colTiles;
            uint32_t c0 = (u % colTiles) * colTile;
            uint32_t cols = (inner - c0) < colTile ? (inner - c0) : colTile;
            tracker.Reset();
            for (uint32_t r0 = 0; r0 < R; r0 += rowBlock) {
                uint32_t rows = (R - r0) < rowBlock ? (R - r0) : rowBlock;
                CopyIn(o, r0, rows, c0, cols);
                Scan(r0, rows);
            }
            Emit(o, c0, cols);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t o, uint32_t r0, uint32_t rows, uint32_t c0, uint32_t cols)
    {
        LocalTensor<T> blk = inQ.AllocTensor<T>();
        constexpr uint32_t perBlock = 32 / sizeof(T);
        uint32_t colsAligned = (cols + perBlock - 1) / perBlock * perBlock;
        // rows are `inner` apart in GM and colTile apart in UB
        DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                             static_cast<uint32_t>((inner - cols) * sizeof(T)),
                             static_cast<uint32_t>((colTile - colsAligned) / perBlock), 0};
        DataCopyPad(blk, xGm[((uint64_t)o * R + r0) * inner + c0], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQ.EnQue(blk);
    }

    __aicore__ inline void Scan(uint32_t r0, uint32_t rows)
    {
        LocalTensor<T> blk = inQ.DeQue<T>();
        LocalTensor<float> vals;
        if constexpr (IsSameType<T, float>::value) {
            vals = blk;
        } else {
            vals = rowF32Buf.Get<float>();
            Cast(vals, blk, RoundMode::CAST_NONE, rows * colTile);
            PipeBarrier<PIPE_V>();
        }
        // lanes past `cols` hold stale data; their results are never written out
        for (uint32_t r = 0; r < rows; ++r) {
            tracker.Update(vals[r * colTile], static_cast<float>(r0 + r));
        }
        inQ.FreeTensor(blk);
    }

    __aicore__ inline void Emit(uint32_t o, uint32_t c0, uint32_t cols)
    {
        LocalTensor<float> idx = idxBuf.Get<float>();
        LocalTensor<int32_t> i32 = idxI32Buf.Get<int32_t>();
        LocalTensor<int64_t> res = outQ.AllocTensor<int64_t>();
        Cast(i32, idx, RoundMode::CAST_RINT, colTile);
        PipeBarrier<PIPE_V>();
        Cast(res, i32, RoundMode::CAST_NONE, colTile);
        outQ.EnQue(res);

        LocalTensor<int64_t> ready = outQ.DeQue<int64_t>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cols * sizeof(int64_t)), 0, 0, 0};
        DataCopyPad(outGm[(uint64_t)o * inner + c0], ready, cp);
        outQ.FreeTensor(ready);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> minBuf, idxBuf, idxI32Buf, maskBuf, rowF32Buf;
    GlobalTensor<T> xGm;
    GlobalTensor<int64_t> outGm;
    RunningArgMin tracker;
    uint32_t outer, R, inner, colTile, rowBlock, colTiles, units;
};

extern "C" __global__ __aicore__ void axis_minimum_index_custom(GM_ADDR x, GM_ADDR indices, GM_ADDR workspace,
                                                                GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        AxisMinimumIndexKernel<float> op;
        op.Init(x, indices, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        AxisMinimumIndexKernel<half> op;
        op.Init(x, indices, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

at::Tensor axis_minimum_index_impl_npu(const at::Tensor& x, int64_t dim)
{
    int64_t rank = x.dim();
    int64_t d = dim < 0 ? dim + rank : dim;
    TORCH_CHECK(d >= 0 && d < rank, "dim out of range");
    TORCH_CHECK(x.size(d) <= (1 << 24), "reduced extent must fit fp32 index tracking");
    std::vector<int64_t> outShape;
    for (int64_t i = 0; i < rank; ++i) {
        if (i != d) {
            outShape.push_back(x.size(i));
        }
    }
    at::Tensor xc = x.contiguous();
    at::Tensor out = at::empty(outShape, x.options().dtype(at::kLong));
    EXEC_NPU_CMD(aclnnAxisMinimumIndexCustom, xc, d, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("axis_minimum_index_custom", &axis_minimum_index_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("axis_minimum_index_custom", &axis_minimum_index_impl_npu, "argmin along one dimension");
}
"""
