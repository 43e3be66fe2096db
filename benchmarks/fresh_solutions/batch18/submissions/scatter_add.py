project_json_src='''
[
    {
        "op": "IndexedRowAccumulateCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "self", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "index", "param_type": "required", "format": ["ND", "ND"], "type": ["int64", "int64"]},
            {"name": "src", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(IndexedRowAccumulateTiling)
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // outer extent shared by self/index/src
  TILING_DATA_FIELD_DEF(uint32_t, dstCols);     // length of a self row
  TILING_DATA_FIELD_DEF(uint32_t, idxCols);     // length of an index/src row
  TILING_DATA_FIELD_DEF(uint32_t, segLen);      // self-row segment resident in UB
  TILING_DATA_FIELD_DEF(uint32_t, idxChunk);    // index/src elements per load
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(IndexedRowAccumulateCustom, IndexedRowAccumulateTiling)
}
"""

host_operator_src="""
#include "indexed_row_accumulate_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MAX_SEG = 16384;      // fp32 accumulator + staging
constexpr uint32_t MAX_CHUNK = 4096;

inline uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

class ScatterTilingHelper {
public:
    ScatterTilingHelper(uint32_t rows, uint32_t dstCols, uint32_t idxCols, uint32_t cores)
        : rows_(rows), dstCols_(dstCols), idxCols_(idxCols), cores_(cores) {}
    void Fill(IndexedRowAccumulateTiling &t) const
    {
        uint32_t seg = dstCols_ < MAX_SEG ? dstCols_ : MAX_SEG;
        uint32_t chunk = idxCols_ < MAX_CHUNK ? idxCols_ : MAX_CHUNK;
        t.set_rows(rows_);
        t.set_dstCols(dstCols_);
        t.set_idxCols(idxCols_);
        t.set_segLen(RoundUp(seg, 16));
        t.set_idxChunk(RoundUp(chunk, 16));
        t.set_rowsPerCore((rows_ + cores_ - 1) / cores_);
    }
    uint32_t UsedCores() const
    {
        uint32_t per = (rows_ + cores_ - 1) / cores_;
        return per == 0 ? 1 : (rows_ + per - 1) / per;
    }
private:
    uint32_t rows_, dstCols_, idxCols_, cores_;
};
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto selfShape = context->GetInputShape(0)->GetStorageShape();
    auto idxShape = context->GetInputShape(1)->GetStorageShape();
    size_t rank = selfShape.GetDimNum();
    uint32_t dstCols = selfShape.GetDim(rank - 1);
    uint32_t idxCols = idxShape.GetDim(rank - 1);
    uint32_t rows = 1;
    for (size_t i = 0; i + 1 < rank; ++i) rows *= selfShape.GetDim(i);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (rows < cores) cores = rows == 0 ? 1 : rows;

    ScatterTilingHelper helper(rows, dstCols, idxCols, cores);
    IndexedRowAccumulateTiling tiling;
    helper.Fill(tiling);
    context->SetBlockDim(helper.UsedCores());
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
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
class IndexedRowAccumulateCustom : public OpDef {
public:
    explicit IndexedRowAccumulateCustom(const char *name) : OpDef(name)
    {
        this->Input("self").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("index").ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("src").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(IndexedRowAccumulateCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Scalar/vector/MTE hand-offs that are not covered by queue EnQue/DeQue.
template <HardEvent EVT>
__aicore__ inline void PipeHandoff()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(EVT));
    SetFlag<EVT>(e);
    WaitFlag<EVT>(e);
}

template <typename T>
class IndexedRowAccumulate {
public:
    __aicore__ inline IndexedRowAccumulate() {}
    __aicore__ inline void Init(GM_ADDR self, GM_ADDR index, GM_ADDR src, GM_ADDR out,
                                const IndexedRowAccumulateTiling &t)
    {
        tl = t;
        selfGm.SetGlobalBuffer((__gm__ T *)self);
        idxGm.SetGlobalBuffer((__gm__ int64_t *)index);
        srcGm.SetGlobalBuffer((__gm__ T *)src);
        outGm.SetGlobalBuffer((__gm__ T *)out);
        rowStart = GetBlockIdx() * tl.rowsPerCore;
        rowStop = rowStart + tl.rowsPerCore;
        if (rowStop > tl.rows) rowStop = tl.rows;

        pipe.InitBuffer(segInQ, 1, tl.segLen * sizeof(T));
        pipe.InitBuffer(segOutQ, 1, tl.segLen * sizeof(T));
        pipe.InitBuffer(idxQ, BUFFER_NUM, tl.idxChunk * sizeof(int64_t));
        pipe.InitBuffer(valQ, BUFFER_NUM, tl.idxChunk * sizeof(T));
        pipe.InitBuffer(accBuf, tl.segLen * sizeof(float));
        acc = accBuf.Get<float>();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowStart; r < rowStop; ++r) {
            for (uint32_t s0 = 0; s0 < tl.dstCols; s0 += tl.segLen) {
                uint32_t segCnt = tl.dstCols - s0 < tl.segLen ? tl.dstCols - s0 : tl.segLen;
                LoadSegment(r, s0, segCnt);
                ScatterInto(r, s0, segCnt);
                StoreSegment(r, s0, segCnt);
            }
        }
    }

private:
    __aicore__ inline void LoadSegment(uint32_t r, uint32_t s0, uint32_t segCnt)
    {
        LocalTensor<T> seg = segInQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(segCnt * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        DataCopyPad(seg, selfGm[(uint64_t)r * tl.dstCols + s0], cp, pad);
        segInQ.EnQue(seg);
        seg = segInQ.DeQue<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(acc, seg, tl.segLen);
        } else {
            Cast(acc, seg, RoundMode::CAST_NONE, tl.segLen);
        }
        segInQ.FreeTensor(seg);
        PipeHandoff<HardEvent::V_S>();
    }

    // Walks the whole index row; entries outside [s0, s0+segCnt) belong to another segment.
    __aicore__ inline void ScatterInto(uint32_t r, uint32_t s0, uint32_t segCnt)
    {
        uint64_t rowOff = (uint64_t)r * tl.idxCols;
        for (uint32_t c0 = 0; c0 < tl.idxCols; c0 += tl.idxChunk) {
            uint32_t cnt = tl.idxCols - c0 < tl.idxChunk ? tl.idxCols - c0 : tl.idxChunk;
            LocalTensor<int64_t> il = idxQ.AllocTensor<int64_t>();
            LocalTensor<T> vl = valQ.AllocTensor<T>();
            DataCopyExtParams ci{1, static_cast<uint32_t>(cnt * sizeof(int64_t)), 0, 0, 0};
            DataCopyExtParams cv{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
            DataCopyPad(il, idxGm[rowOff + c0], ci, DataCopyPadExtParams<int64_t>{false, 0, 0, 0});
            DataCopyPad(vl, srcGm[rowOff + c0], cv, DataCopyPadExtParams<T>{false, 0, 0, static_cast<T>(0)});
            idxQ.EnQue(il);
            valQ.EnQue(vl);
            il = idxQ.DeQue<int64_t>();
            vl = valQ.DeQue<T>();
            PipeHandoff<HardEvent::MTE2_S>();
            int64_t lo = static_cast<int64_t>(s0);
            int64_t hi = lo + static_cast<int64_t>(segCnt);
            for (uint32_t j = 0; j < cnt; ++j) {
                int64_t pos = il.GetValue(j);
                if (pos < 0) pos += tl.dstCols;   // defensive wrap; torch rejects negatives upstream
                if (pos < lo || pos >= hi) continue;
                uint32_t local = static_cast<uint32_t>(pos - lo);
                float v = static_cast<float>(vl.GetValue(j));
                acc.SetValue(local, acc.GetValue(local) + v);
            }
            idxQ.FreeTensor(il);
            valQ.FreeTensor(vl);
        }
        PipeHandoff<HardEvent::S_V>();
    }

    __aicore__ inline void StoreSegment(uint32_t r, uint32_t s0, uint32_t segCnt)
    {
        LocalTensor<T> o = segOutQ.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(o, acc, tl.segLen);
        } else {
            Cast(o, acc, RoundMode::CAST_RINT, tl.segLen);
        }
        segOutQ.EnQue(o);
        o = segOutQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(segCnt * sizeof(T)), 0, 0, 0};
        DataCopyPad(outGm[(uint64_t)r * tl.dstCols + s0], o, cp);
        segOutQ.FreeTensor(o);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> segInQ;
    TQue<TPosition::VECOUT, 1> segOutQ;
    TQue<TPosition::VECIN, BUFFER_NUM> idxQ, valQ;
    TBuf<TPosition::VECCALC> accBuf;
    LocalTensor<float> acc;   // fp32 copy of the current self-row segment
    GlobalTensor<T> selfGm, srcGm, outGm;
    GlobalTensor<int64_t> idxGm;
    IndexedRowAccumulateTiling tl;
    uint32_t rowStart = 0, rowStop = 0;
};

extern "C" __global__ __aicore__ void indexed_row_accumulate_custom(GM_ADDR self, GM_ADDR index, GM_ADDR src,
                                                                    GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        IndexedRowAccumulate<float> op;
        op.Init(self, index, src, out, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        IndexedRowAccumulate<half> op;
        op.Init(self, index, src, out, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// scatter_add along `dim`: the kernel works on the last axis, other dims are moved there.
at::Tensor indexed_row_accumulate_impl_npu(const at::Tensor &self, int64_t dim, const at::Tensor &index,
                                           const at::Tensor &src)
{
    int64_t rank = self.dim();
    if (dim < 0) dim += rank;
    TORCH_CHECK(dim >= 0 && dim < rank, "dim out of range");
    TORCH_CHECK(index.dim() == rank && src.dim() == rank, "index/src rank mismatch");

    at::Tensor s = self.movedim(dim, -1).contiguous();
    at::Tensor i = index.movedim(dim, -1).to(at::kLong).contiguous();
    at::Tensor v = src.movedim(dim, -1).to(self.scalar_type());
    // src may be larger than index along non-scatter dims; only the index-shaped window is used
    std::vector<int64_t> window(i.sizes().begin(), i.sizes().end());
    for (int64_t d = 0; d < rank; ++d) {
        v = v.narrow(d, 0, window[d]);
    }
    v = v.contiguous();
    TORCH_CHECK(s.numel() / s.size(-1) == i.numel() / i.size(-1), "only matching outer dims are supported");

    at::Tensor out = at::empty_like(s);
    EXEC_NPU_CMD(aclnnIndexedRowAccumulateCustom, s, i, v, out);
    return out.movedim(-1, dim).contiguous();
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("indexed_row_accumulate_custom", &indexed_row_accumulate_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("indexed_row_accumulate_custom", &indexed_row_accumulate_impl_npu,
          "self.scatter_add(dim, index, src)");
}
"""
