project_json_src='''
[
    {
        "op": "AxisAverageCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "attr": [
            {
                "name": "dim",
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
BEGIN_TILING_DATA_DEF(AxisAverageTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);        // product of dims before the reduced one
  TILING_DATA_FIELD_DEF(uint32_t, reduceLen);    // size of the reduced dim
  TILING_DATA_FIELD_DEF(uint32_t, inner);        // product of dims after the reduced one
  TILING_DATA_FIELD_DEF(uint32_t, chunk);        // inner columns handled per work item
  TILING_DATA_FIELD_DEF(uint32_t, chunksPerOuter);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerLoad);  // reduced-dim rows fetched per DataCopyPad
  TILING_DATA_FIELD_DEF(uint32_t, itemsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraItems);   // first extraItems cores take one more
  TILING_DATA_FIELD_DEF(uint32_t, contiguous);   // 1 when inner == 1
  TILING_DATA_FIELD_DEF(float, invCount);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AxisAverageCustom, AxisAverageTilingData)
}
"""

host_operator_src="""
#include "axis_average_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <algorithm>

namespace optiling {
namespace {
constexpr uint32_t MAX_CHUNK = 2048;
constexpr uint32_t MAX_BLOCK_COUNT = 4095;
constexpr uint32_t RESERVED_UB = 8 * 1024;

inline uint32_t AlignTo(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

struct ReduceLayout {
    uint32_t outer = 1;
    uint32_t reduceLen = 1;
    uint32_t inner = 1;
};

ReduceLayout Collapse(const gert::Shape& shape, int64_t dim)
{
    ReduceLayout l;
    int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    if (dim < 0) {
        dim += rank;
    }
    for (int64_t i = 0; i < rank; ++i) {
        uint32_t d = static_cast<uint32_t>(shape.GetDim(i));
        if (i < dim) {
            l.outer *= d;
        } else if (i == dim) {
            l.reduceLen = d;
        } else {
            l.inner *= d;
        }
    }
    return l;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubBytes = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);
    uint32_t coreNum = platform.GetCoreNumAiv();

    const int64_t* dimAttr = context->GetAttrs()->GetInt(0);
    ReduceLayout l = Collapse(context->GetInputShape(0)->GetStorageShape(), *dimAttr);

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t tBytes = (dt == ge::DT_FLOAT16) ? 2 : 4;
    uint32_t alignElems = 32 / tBytes;

    AxisAverageTilingData td;
    td.set_outer(l.outer);
    td.set_reduceLen(l.reduceLen);
    td.set_inner(l.inner);
    td.set_invCount(l.reduceLen == 0 ? 0.0f : 1.0f / static_cast<float>(l.reduceLen));

    uint32_t items;
    uint64_t budget = ubBytes - RESERVED_UB;
    if (l.inner == 1) {
        // each output is the mean of reduceLen contiguous values
        td.set_contiguous(1);
        uint32_t tile = AlignTo(std::min<uint32_t>(l.reduceLen, 8192), alignElems);
        td.set_chunk(tile);
        td.set_chunksPerOuter(1);
        td.set_rowsPerLoad(1);
        items = l.outer;
    } else {
        td.set_contiguous(0);
        uint32_t chunk = std::min<uint32_t>(AlignTo(l.inner, alignElems), MAX_CHUNK);
        // 2x input block, fp32 copy of the block, fp32 accumulator, 2x output tile
        uint64_t perRow = static_cast<uint64_t>(chunk) * (2 * tBytes + 4);
        uint64_t fixed = static_cast<uint64_t>(chunk) * (4 + 2 * tBytes);
        uint32_t rows = static_cast<uint32_t>((budget - fixed) / perRow);
        rows = std::max<uint32_t>(1, std::min<uint32_t>({rows, l.reduceLen, MAX_BLOCK_COUNT}));
        td.set_chunk(chunk);
        td.set_chunksPerOuter((l.inner + chunk - 1) / chunk);
        td.set_rowsPerLoad(rows);
        items = l.outer * td.get_chunksPerOuter();
    }

    uint32_t cores = std::max<uint32_t>(1, std::min<uint32_t>(coreNum, items));
    td.set_itemsPerCore(items / cores);
    td.set_extraItems(items % cores);

    context->SetBlockDim(cores);
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
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    int64_t rank = static_cast<int64_t>(in->GetDimNum());
    int64_t dim = *context->GetAttrs()->GetInt(0);
    if (dim < 0) {
        dim += rank;
    }
    out->SetDimNum(0);
    for (int64_t i = 0; i < rank; ++i) {
        if (i != dim) {
            out->AppendDim(in->GetDim(i));
        }
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
class AxisAverageCustom : public OpDef {
public:
    explicit AxisAverageCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AxisAverageCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t OUT_BATCH = 256;   // results buffered before a flush in contiguous mode

__aicore__ inline uint32_t CeilAlign(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

__aicore__ inline void VectorToScalarSync()
{
    event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(ev);
    WaitFlag<HardEvent::V_S>(ev);
}

// Casts a UB block to fp32 (no-op copy for fp32 input).
template <typename T>
__aicore__ inline void ToFloat(const LocalTensor<float>& dst, const LocalTensor<T>& src, uint32_t n)
{
    if constexpr (IsSameType<T, float>::value) {
        DataCopy(dst, src, CeilAlign(n, 8));
    } else {
        Cast(dst, src, RoundMode::CAST_NONE, n);
    }
}

template <typename T>
__aicore__ inline void FromFloat(const LocalTensor<T>& dst, const LocalTensor<float>& src, uint32_t n)
{
    if constexpr (IsSameType<T, float>::value) {
        DataCopy(dst, src, CeilAlign(n, 8));
    } else {
        Cast(dst, src, RoundMode::CAST_ROUND, n);
    }
}

template <typename T>
class AxisAverageKernel {
public:
    __aicore__ inline AxisAverageKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AxisAverageTilingData& t)
    {
        td = t;
        uint32_t idx = GetBlockIdx();
        itemCount = td.itemsPerCore + (idx < td.extraItems ? 1 : 0);
        firstItem = idx * td.itemsPerCore + (idx < td.extraItems ? idx : td.extraItems);

        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);

        constexpr uint32_t align = 32 / sizeof(T);
        rowStride = CeilAlign(td.chunk, align);
        uint32_t blockElems = rowStride * td.rowsPerLoad;
        pipe.InitBuffer(inQ, BUFFER_NUM, blockElems * sizeof(T));
        pipe.InitBuffer(f32Block, blockElems * sizeof(float));
        if (td.contiguous) {
            pipe.InitBuffer(outQ, 1, OUT_BATCH * sizeof(T));
            pipe.InitBuffer(accBuf, OUT_BATCH * sizeof(float));
            pipe.InitBuffer(workBuf, CeilAlign(td.chunk, 64) * sizeof(float));
        } else {
            pipe.InitBuffer(outQ, BUFFER_NUM, rowStride * sizeof(T));
            pipe.InitBuffer(accBuf, rowStride * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        if (itemCount == 0) {
            return;
        }
        if (td.contiguous) {
            ProcessContiguous();
        } else {
            for (uint32_t i = 0; i < itemCount; ++i) {
                ProcessStridedItem(firstItem + i);
            }
        }
    }

private:
    // ---- strided case: average reduceLen rows of `inner` columns ----
    __aicore__ inline void ProcessStridedItem(uint32_t item)
    {
        uint32_t o = item / td.chunksPerOuter;
        uint32_t c = item % td.chunksPerOuter;
        uint32_t col0 = c * td.chunk;
        uint32_t cols = (td.inner - col0) < td.chunk ? (td.inner - col0) : td.chunk;
        uint64_t base = static_cast<uint64_t>(o) * td.reduceLen * td.inner + col0;

        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, rowStride);

        for (uint32_t r0 = 0; r0 < td.reduceLen; r0 += td.rowsPerLoad) {
            uint32_t rows = (td.reduceLen - r0) < td.rowsPerLoad ? (td.reduceLen - r0) : td.rowsPerLoad;
            LoadRows(base + static_cast<uint64_t>(r0) * td.inner, rows, cols);
            AccumulateRows(acc, rows, cols);
        }

        LocalTensor<T> out = outQ.AllocTensor<T>();
        Muls(acc, acc, td.invCount, cols);
        FromFloat(out, acc, cols);
        outQ.EnQue(out);
        out = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(o) * td.inner + col0], out, cp);
        outQ.FreeTensor(out);
    }

    __aicore__ inline void LoadRows(uint64_t gmOff, uint32_t rows, uint32_t cols)
    {
        LocalTensor<T> blk = inQ.AllocTensor<T>();
        // one burst per row; UB rows are padded to rowStride by the 32B rounding
        DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                             static_cast<uint32_t>((td.inner - cols) * sizeof(T)), 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(blk, xGm[gmOff], cp, pad);
        inQ.EnQue(blk);
    }

    __aicore__ inline void AccumulateRows(const LocalTensor<float>& acc, uint32_t rows, uint32_t cols)
    {
        LocalTensor<T> blk = inQ.DeQue<T>();
        LocalTensor<float> f = f32Block.Get<float>();
        ToFloat(f, blk, rows * rowStride);
        inQ.FreeTensor(blk);
        // pairwise fold of the block keeps the number of Add calls at O(log rows) per element
        uint32_t live = rows;
        while (live > 1) {
            uint32_t half = live / 2;
            Add(f, f, f[(live - half) * rowStride], half * rowStride);
            live -= half;
        }
        Add(acc, acc, f, cols);
    }

    // ---- contiguous case: each output is the mean of one row ----
    __aicore__ inline void ProcessContiguous()
    {
        LocalTensor<float> results = accBuf.Get<float>();
        uint32_t pending = 0;
        uint32_t flushStart = firstItem;
        for (uint32_t i = 0; i < itemCount; ++i) {
            float s = RowSum(static_cast<uint64_t>(firstItem + i) * td.reduceLen);
            results.SetValue(pending++, s * td.invCount);
            if (pending == OUT_BATCH || i + 1 == itemCount) {
                Flush(results, flushStart, pending);
                flushStart += pending;
                pending = 0;
            }
        }
    }

    __aicore__ inline float RowSum(uint64_t gmOff)
    {
        LocalTensor<float> f = f32Block.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        float total = 0.0f;
        for (uint32_t k = 0; k < td.reduceLen; k += td.chunk) {
            uint32_t n = (td.reduceLen - k) < td.chunk ? (td.reduceLen - k) : td.chunk;
            LocalTensor<T> blk = inQ.AllocTensor<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> pad{false, 0, 0, 0};
            DataCopyPad(blk, xGm[gmOff + k], cp, pad);
            inQ.EnQue(blk);
            blk = inQ.DeQue<T>();
            ToFloat(f, blk, n);
            inQ.FreeTensor(blk);
            ReduceSum(f, f, work, n);
            VectorToScalarSync();
            total += f.GetValue(0);
        }
        return total;
    }

    __aicore__ inline void Flush(const LocalTensor<float>& results, uint32_t outStart, uint32_t n)
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
        LocalTensor<T> out = outQ.AllocTensor<T>();
        FromFloat(out, results, n);
        outQ.EnQue(out);
        out = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[outStart], out, cp);
        outQ.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> f32Block;   // fp32 view of the current input block
    TBuf<TPosition::VECCALC> accBuf;     // running column sums / buffered results
    TBuf<TPosition::VECCALC> workBuf;    // ReduceSum scratch
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    AxisAverageTilingData td;
    uint32_t itemCount = 0;
    uint32_t firstItem = 0;
    uint32_t rowStride = 0;
};

extern "C" __global__ __aicore__ void axis_average_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        AxisAverageKernel<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        AxisAverageKernel<half> op;
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

at::Tensor axis_average_impl_npu(const at::Tensor& x, int64_t dim)
{
    at::Tensor xc = x.contiguous();
    int64_t rank = xc.dim();
    int64_t d = dim < 0 ? dim + rank : dim;
    TORCH_CHECK(d >= 0 && d < rank, "axis_average: dim out of range");
    std::vector<int64_t> outShape;
    for (int64_t i = 0; i < rank; ++i) {
        if (i != d) {
            outShape.push_back(xc.size(i));
        }
    }
    at::Tensor y = at::empty(outShape, xc.options());
    EXEC_NPU_CMD(aclnnAxisAverageCustom, xc, d, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("axis_average_custom", &axis_average_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("axis_average_custom", &axis_average_impl_npu, "mean over one dimension");
}
"""
