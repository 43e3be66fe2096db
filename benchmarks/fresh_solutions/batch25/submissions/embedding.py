project_json_src='''
[
    {
        "op": "TableRowGatherCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "ids", "param_type": "required", "format": ["ND", "ND", "ND", "ND"],
             "type": ["int64", "int64", "int32", "int32"]},
            {"name": "table", "param_type": "required", "format": ["ND", "ND", "ND", "ND"],
             "type": ["float", "float16", "float", "float16"]}
        ],
        "output_desc": [
            {"name": "rows", "param_type": "required", "format": ["ND", "ND", "ND", "ND"],
             "type": ["float", "float16", "float", "float16"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TableRowGatherTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, numIds);
  TILING_DATA_FIELD_DEF(uint32_t, vocab);
  TILING_DATA_FIELD_DEF(uint32_t, dim);
  TILING_DATA_FIELD_DEF(uint32_t, idsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, segLen);
  TILING_DATA_FIELD_DEF(uint32_t, segNum);
  TILING_DATA_FIELD_DEF(uint32_t, lastSegLen);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TableRowGatherCustom, TableRowGatherTilingData)
}
"""

host_operator_src="""
#include "table_row_gather_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t SEG_BYTES = 32 * 1024;   // one row segment in UB, two in flight

struct GatherPlan {
    uint32_t segLen;
    uint32_t segNum;
    uint32_t lastSegLen;
};

GatherPlan PlanSegments(uint32_t dim, uint32_t typeSize)
{
    GatherPlan p;
    uint32_t maxElems = SEG_BYTES / typeSize;
    p.segLen = dim < maxElems ? dim : maxElems;
    p.segNum = (dim + p.segLen - 1) / p.segLen;
    p.lastSegLen = dim - (p.segNum - 1) * p.segLen;
    return p;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    TableRowGatherTilingData td;
    uint32_t numIds = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    const gert::Shape& ts = context->GetInputShape(1)->GetOriginShape();
    uint32_t vocab = static_cast<uint32_t>(ts.GetDim(0));
    uint32_t dim = static_cast<uint32_t>(ts.GetDim(1));

    ge::DataType tableType = context->GetInputDesc(1)->GetDataType();
    ge::DataType idType = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = tableType == ge::DT_FLOAT16 ? 2 : 4;
    GatherPlan plan = PlanSegments(dim, typeSize);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    uint32_t idsPerCore = (numIds + cores - 1) / cores;
    if (idsPerCore == 0) {
        idsPerCore = 1;
    }
    uint32_t used = (numIds + idsPerCore - 1) / idsPerCore;

    td.set_numIds(numIds);
    td.set_vocab(vocab);
    td.set_dim(dim);
    td.set_idsPerCore(idsPerCore);
    td.set_segLen(plan.segLen);
    td.set_segNum(plan.segNum);
    td.set_lastSegLen(plan.lastSegLen);

    // bit0: half table, bit1: int32 ids
    uint32_t key = (tableType == ge::DT_FLOAT16 ? 1u : 0u) | (idType == ge::DT_INT32 ? 2u : 0u);
    context->SetTilingKey(key);
    context->SetBlockDim(used == 0 ? 1 : used);
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
    const gert::Shape* ids = context->GetInputShape(0);
    const gert::Shape* table = context->GetInputShape(1);
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(ids->GetDimNum() + 1);
    for (size_t i = 0; i < ids->GetDimNum(); ++i) {
        out->SetDim(i, ids->GetDim(i));
    }
    out->SetDim(ids->GetDimNum(), table->GetDim(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(1));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class TableRowGatherCustom : public OpDef {
public:
    explicit TableRowGatherCustom(const char* name) : OpDef(name)
    {
        this->Input("ids")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("table")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("rows")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TableRowGatherCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// GM -> UB -> GM row mover. The same UB tensor is read by MTE2 and written by MTE3,
// so a VECIN/VECOUT bound queue is enough; no vector unit work.
template <typename T>
class RowMover {
public:
    __aicore__ inline void Init(TPipe& pipe, uint32_t segLen)
    {
        pipe.InitBuffer(que, BUFFER_NUM, ((segLen * sizeof(T) + 31) / 32) * 32);
    }
    __aicore__ inline void Move(const GlobalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t len)
    {
        LocalTensor<T> buf = que.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        DataCopyPad(buf, src, cp, pad);
        que.EnQue(buf);
        buf = que.DeQue<T>();
        DataCopyPad(dst, buf, cp);
        que.FreeTensor(buf);
    }

private:
    TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> que;
};

template <typename T, typename IdT>
class TableRowGather {
public:
    __aicore__ inline TableRowGather() {}
    __aicore__ inline void Init(GM_ADDR ids, GM_ADDR table, GM_ADDR rows, const TableRowGatherTilingData& td)
    {
        vocab = td.vocab;
        dim = td.dim;
        segLen = td.segLen;
        segNum = td.segNum;
        lastSegLen = td.lastSegLen;
        first = GetBlockIdx() * td.idsPerCore;
        last = first + td.idsPerCore;
        if (last > td.numIds) {
            last = td.numIds;
        }
        idGm.SetGlobalBuffer((__gm__ IdT*)ids);
        tableGm.SetGlobalBuffer((__gm__ T*)table);
        outGm.SetGlobalBuffer((__gm__ T*)rows);
        mover.Init(pipe, segLen);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = first; i < last; ++i) {
            int64_t id = static_cast<int64_t>(idGm.GetValue(i));
            if (id < 0) {
                id += vocab;   // python-style negative index
            }
            uint64_t src = static_cast<uint64_t>(id) * dim;
            uint64_t dst = static_cast<uint64_t>(i) * dim;
            for (uint32_t s = 0; s < segNum; ++s) {
                uint32_t len = (s + 1 == segNum) ? lastSegLen : segLen;
                uint64_t off = static_cast<uint64_t>(s) * segLen;
                mover.Move(outGm[dst + off], tableGm[src + off], len);
            }
        }
    }

private:
    TPipe pipe;
    RowMover<T> mover;
    GlobalTensor<IdT> idGm;
    GlobalTensor<T> tableGm, outGm;
    uint32_t vocab, dim, segLen, segNum, lastSegLen, first, last;
};

template <typename T, typename IdT>
__aicore__ inline void RunGather(GM_ADDR ids, GM_ADDR table, GM_ADDR rows, const TableRowGatherTilingData& td)
{
    TableRowGather<T, IdT> op;
    op.Init(ids, table, rows, td);
    op.Process();
}

extern "C" __global__ __aicore__ void table_row_gather_custom(GM_ADDR ids, GM_ADDR table, GM_ADDR rows,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        RunGather<float, int64_t>(ids, table, rows, td);
    } else if (TILING_KEY_IS(1)) {
        RunGather<half, int64_t>(ids, table, rows, td);
    } else if (TILING_KEY_IS(2)) {
        RunGather<float, int32_t>(ids, table, rows, td);
    } else if (TILING_KEY_IS(3)) {
        RunGather<half, int32_t>(ids, table, rows, td);
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// out[..., :] = table[ids[...], :]
at::Tensor table_row_gather_impl_npu(const at::Tensor& ids, const at::Tensor& table)
{
    at::Tensor idc = ids.contiguous();
    at::Tensor tab = table.contiguous();
    auto sizes = idc.sizes().vec();
    sizes.push_back(tab.size(1));
    at::Tensor out = at::empty(sizes, tab.options());
    EXEC_NPU_CMD(aclnnTableRowGatherCustom, idc, tab, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("table_row_gather", &table_row_gather_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("table_row_gather", &table_row_gather_impl_npu, "embedding lookup");
}
"""
