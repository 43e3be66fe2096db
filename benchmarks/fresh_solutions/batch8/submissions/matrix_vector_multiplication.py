project_json_src='''
[
    {
        "op": "RowwiseDotColumnCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "mat", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "vec", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowwiseDotColumnTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint64_t, depth);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, chunk);
  TILING_DATA_FIELD_DEF(uint32_t, rowGroup);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RowwiseDotColumnCustom, RowwiseDotColumnTilingData)
}
"""

host_operator_src="""
#include "rowwise_dot_column_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t CHUNK = 2048;
static constexpr uint32_t ROW_GROUP = 4;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    RowwiseDotColumnTilingData td;
    auto aShape = context->GetInputShape(0)->GetStorageShape();
    uint32_t M = aShape.GetDim(0);
    uint64_t K = aShape.GetDim(1);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t perCore = (M + cores - 1) / cores;
    uint32_t used = (M + perCore - 1) / perCore;

    uint32_t chunk = K < CHUNK ? (uint32_t)((K + 7) / 8 * 8) : CHUNK;

    td.set_rows(M);
    td.set_depth(K);
    td.set_rowsPerCore(perCore);
    td.set_chunk(chunk);
    td.set_rowGroup(ROW_GROUP);

    context->SetBlockDim(used);
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
    const gert::Shape* a = context->GetInputShape(0);
    const gert::Shape* b = context->GetInputShape(1);
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(2);
    out->SetDim(0, a->GetDim(0));
    out->SetDim(1, b->GetDim(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class RowwiseDotColumnCustom : public OpDef {
public:
    explicit RowwiseDotColumnCustom(const char* name) : OpDef(name)
    {
        this->Input("mat").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("vec").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RowwiseDotColumnCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t MAX_GROUP = 4;

class RowwiseDotColumn {
public:
    __aicore__ inline RowwiseDotColumn() {}
    __aicore__ inline void Init(GM_ADDR mat, GM_ADDR vec, GM_ADDR out, const RowwiseDotColumnTilingData& td)
    {
        K = td.depth;
        chunk = td.chunk;
        group = td.rowGroup > MAX_GROUP ? MAX_GROUP : td.rowGroup;
        rowBegin = GetBlockIdx() * td.rowsPerCore;
        uint32_t end = rowBegin + td.rowsPerCore;
        rowEnd = end > td.rows ? td.rows : end;
        myRows = rowEnd > rowBegin ? rowEnd - rowBegin : 0;

        aGm.SetGlobalBuffer((__gm__ float*)mat);
        bGm.SetGlobalBuffer((__gm__ float*)vec);
        yGm.SetGlobalBuffer((__gm__ float*)out);

        pipe.InitBuffer(vecQ, 2, chunk * sizeof(float));
        pipe.InitBuffer(matQ, 2, group * chunk * sizeof(float));
        pipe.InitBuffer(accBuf, group * chunk * sizeof(float));
        pipe.InitBuffer(prodBuf, chunk * sizeof(float));
        pipe.InitBuffer(resBuf, ((myRows + 7) / 8 * 8 + 8) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (myRows == 0) return;
        LocalTensor<float> res = resBuf.Get<float>();
        for (uint32_t r = rowBegin; r < rowEnd; r += group) {
            uint32_t g = rowEnd - r < group ? rowEnd - r : group;
            RowGroup(r, g, res);
        }
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(ev);
        WaitFlag<HardEvent::S_MTE3>(ev);
        DataCopyExtParams p{1, (uint32_t)(myRows * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[rowBegin], res, p);
    }

private:
    __aicore__ inline void RowGroup(uint32_t r0, uint32_t g, LocalTensor<float>& res)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> prod = prodBuf.Get<float>();
        Duplicate(acc, 0.0f, g * chunk);
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};

        for (uint64_t k0 = 0; k0 < K; k0 += chunk) {
            uint32_t len = (K - k0) < chunk ? (uint32_t)(K - k0) : chunk;
            DataCopyExtParams p{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};

            // the vector chunk is shared by every row in the group
            LocalTensor<float> bt = vecQ.AllocTensor<float>();
            DataCopyPad(bt, bGm[k0], p, pad);
            vecQ.EnQue(bt);
            LocalTensor<float> at = matQ.AllocTensor<float>();
            for (uint32_t i = 0; i < g; ++i) {
                DataCopyPad(at[i * chunk], aGm[(uint64_t)(r0 + i) * K + k0], p, pad);
            }
            matQ.EnQue(at);

            bt = vecQ.DeQue<float>();
            at = matQ.DeQue<float>();
            for (uint32_t i = 0; i < g; ++i) {
                LocalTensor<float> accRow = acc[i * chunk];
                Mul(prod, at[i * chunk], bt, len);
                Add(accRow, accRow, prod, len);
            }
            vecQ.FreeTensor(bt);
            matQ.FreeTensor(at);
        }

        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        for (uint32_t i = 0; i < g; ++i) {
            float s = 0.0f;
            uint32_t base = i * chunk;
            for (uint32_t j = 0; j < chunk; ++j) {
                s += acc.GetValue(base + j);
            }
            res.SetValue(r0 - rowBegin + i, s);
        }
        event_t ev2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev2);
        WaitFlag<HardEvent::S_V>(ev2);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> vecQ, matQ;
    TBuf<TPosition::VECCALC> accBuf, prodBuf, resBuf;
    GlobalTensor<float> aGm, bGm, yGm;
    uint64_t K;
    uint32_t chunk, group, rowBegin, rowEnd, myRows;
};

extern "C" __global__ __aicore__ void rowwise_dot_column_custom(GM_ADDR mat, GM_ADDR vec, GM_ADDR out,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    RowwiseDotColumn op;
    op.Init(mat, vec, out, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// A [M, K] x B [K, 1] -> [M, 1]
at::Tensor rowwise_dot_column_impl_npu(const at::Tensor& A, const at::Tensor& B)
{
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2 && B.size(1) == 1, "expects [M,K] x [K,1]");
    TORCH_CHECK(A.size(1) == B.size(0), "inner dims differ");
    at::Tensor out = at::empty({A.size(0), 1}, A.options());
    EXEC_NPU_CMD(aclnnRowwiseDotColumnCustom, A, B, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("rowwise_dot_column_custom", &rowwise_dot_column_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("rowwise_dot_column_custom", &rowwise_dot_column_impl_npu, "matrix times column vector");
}
"""
