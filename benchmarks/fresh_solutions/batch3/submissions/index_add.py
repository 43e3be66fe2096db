project_json_src='''
[
    {
        "op": "IndexAddCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "indices", "param_type": "required", "format": ["ND"], "type": ["int64"]},
            {"name": "values", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(IndexAddCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // x.size(0)
  TILING_DATA_FIELD_DEF(uint32_t, cols);        // product of trailing dims
  TILING_DATA_FIELD_DEF(uint32_t, numIdx);
  TILING_DATA_FIELD_DEF(uint32_t, colTile);     // columns owned per step, keeps a rows x colTile slab in UB
  TILING_DATA_FIELD_DEF(uint32_t, idxTile);     // source rows staged per step
  TILING_DATA_FIELD_DEF(uint32_t, numChunks);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(IndexAddCustom, IndexAddCustomTilingData)
}
"""

host_operator_src="""
#include "index_add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t IDX_TILE = 128;
constexpr uint64_t RESERVED = 48 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    IndexAddCustomTilingData tiling;
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto is = context->GetInputShape(1)->GetStorageShape();
    uint32_t rows = xs.GetDim(0);
    uint32_t cols = 1;
    for (uint32_t i = 1; i < xs.GetDimNum(); i++) cols *= xs.GetDim(i);
    uint32_t numIdx = is.GetDim(0);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    // the whole column slab of the output lives in UB: rows * colTile floats
    uint64_t slabBudget = ub > RESERVED ? ub - RESERVED : ub / 2;
    uint32_t colTile = (uint32_t)(slabBudget / ((uint64_t)rows * sizeof(float)));
    colTile = colTile / 8 * 8;
    if (colTile == 0) return ge::GRAPH_FAILED;   // dim0 too large for a UB slab
    uint32_t colsA = (cols + 7) / 8 * 8;
    if (colTile > colsA) colTile = colsA;
    uint32_t chunks = (cols + colTile - 1) / colTile;

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_numIdx(numIdx);
    tiling.set_colTile(colTile);
    tiling.set_idxTile(IDX_TILE);
    tiling.set_numChunks(chunks);

    uint32_t cores = plat.GetCoreNumAiv();
    context->SetBlockDim(chunks < cores ? chunks : cores);
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
class IndexAddCustom : public OpDef {
public:
    explicit IndexAddCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("indices").ParamType(REQUIRED).DataType({ge::DT_INT64}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("values").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(IndexAddCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Cores split the columns, so no two cores ever touch the same output element: no atomics needed.
// Per column chunk: slab = x[:, c0:c0+cnt] in UB, then slab[idx[i]] += values[i, c0:c0+cnt] for all i.
class KernelIndexAdd {
public:
    __aicore__ inline KernelIndexAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR idx, GM_ADDR val, GM_ADDR y,
                                uint32_t rows, uint32_t cols, uint32_t numIdx,
                                uint32_t colTile, uint32_t idxTile, uint32_t chunks)
    {
        M = rows; C = cols; NI = numIdx; CT = colTile; IT = idxTile; NC = chunks;
        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)M * C);
        iGm.SetGlobalBuffer((__gm__ int64_t*)idx, NI);
        vGm.SetGlobalBuffer((__gm__ float*)val, (uint64_t)NI * C);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)M * C);

        pipe.InitBuffer(slabBuf, (uint64_t)M * CT * sizeof(float));
        pipe.InitBuffer(valQue, BUFFER_NUM, IT * CT * sizeof(float));
        pipe.InitBuffer(idxQue, BUFFER_NUM, IT * sizeof(int64_t));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t ch = GetBlockIdx(); ch < NC; ch += GetBlockNum()) {
            uint32_t c0 = ch * CT;
            uint32_t cnt = (c0 + CT <= C) ? CT : (C - c0);
            LoadSlab(c0, cnt);
            for (uint32_t r0 = 0; r0 < NI; r0 += IT) {
                uint32_t rn = (r0 + IT <= NI) ? IT : (NI - r0);
                CopyInValues(r0, rn, c0, cnt);
                Scatter(rn, cnt);
            }
            StoreSlab(c0, cnt);
        }
    }

private:
    __aicore__ inline void LoadSlab(uint32_t c0, uint32_t cnt)
    {
        LocalTensor<float> slab = slabBuf.Get<float>();
        uint32_t cntA = (cnt + 7) / 8 * 8;
        DataCopyExtParams cp{(uint16_t)M, (uint32_t)(cnt * sizeof(float)),
                             (uint32_t)((C - cnt) * sizeof(float)),
                             (uint32_t)((CT - cntA) * sizeof(float) / 32), 0};
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        DataCopyPad(slab, xGm[c0], cp, pp);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE2_V>(ev);
    }

    __aicore__ inline void CopyInValues(uint32_t r0, uint32_t rn, uint32_t c0, uint32_t cnt)
    {
        LocalTensor<float> v = valQue.AllocTensor<float>();
        LocalTensor<int64_t> id = idxQue.AllocTensor<int64_t>();
        uint32_t cntA = (cnt + 7) / 8 * 8;
        DataCopyExtParams cp{(uint16_t)rn, (uint32_t)(cnt * sizeof(float)),
                             (uint32_t)((C - cnt) * sizeof(float)),
                             (uint32_t)((CT - cntA) * sizeof(float) / 32), 0};
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        DataCopyPad(v, vGm[(uint64_t)r0 * C + c0], cp, pp);
        DataCopyExtParams ip{1, (uint32_t)(rn * sizeof(int64_t)), 0, 0, 0};
        DataCopyPadExtParams<int64_t> ipp{false, 0, 0, 0};
        DataCopyPad(id, iGm[r0], ip, ipp);
        valQue.EnQue(v);
        idxQue.EnQue(id);
    }

    __aicore__ inline void Scatter(uint32_t rn, uint32_t cnt)
    {
        LocalTensor<float> v = valQue.DeQue<float>();
        LocalTensor<int64_t> id = idxQue.DeQue<int64_t>();
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);

        LocalTensor<float> slab = slabBuf.Get<float>();
        for (uint32_t r = 0; r < rn; r++) {
            int64_t dst = id.GetValue(r);
            if (dst < 0) dst += M;
            if (dst < 0 || dst >= (int64_t)M) continue;
            // same-row repeats stay ordered: all on the vector pipe
            Add(slab[(uint32_t)dst * CT], slab[(uint32_t)dst * CT], v[r * CT], cnt);
        }
        valQue.FreeTensor(v);
        idxQue.FreeTensor(id);
    }

    __aicore__ inline void StoreSlab(uint32_t c0, uint32_t cnt)
    {
        LocalTensor<float> slab = slabBuf.Get<float>();
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(ev);
        WaitFlag<HardEvent::V_MTE3>(ev);
        uint32_t cntA = (cnt + 7) / 8 * 8;
        DataCopyExtParams cp{(uint16_t)M, (uint32_t)(cnt * sizeof(float)),
                             (uint32_t)((CT - cntA) * sizeof(float) / 32),
                             (uint32_t)((C - cnt) * sizeof(float)), 0};
        DataCopyPad(yGm[c0], slab, cp);
        // next chunk reloads the slab
        event_t ev2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_MTE2));
        SetFlag<HardEvent::MTE3_MTE2>(ev2);
        WaitFlag<HardEvent::MTE3_MTE2>(ev2);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> slabBuf;
    TQue<QuePosition::VECIN, BUFFER_NUM> valQue, idxQue;
    GlobalTensor<float> xGm, vGm, yGm;
    GlobalTensor<int64_t> iGm;
    uint32_t M, C, NI, CT, IT, NC;
};

extern "C" __global__ __aicore__ void index_add_custom(GM_ADDR x, GM_ADDR indices, GM_ADDR values, GM_ADDR y,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelIndexAdd op;
    op.Init(x, indices, values, y, td.rows, td.cols, td.numIdx, td.colTile, td.idxTile, td.numChunks);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor index_add_custom_impl_npu(const at::Tensor& x, const at::Tensor& indices, const at::Tensor& values)
{
    TORCH_CHECK(indices.dim() == 1 && values.size(0) == indices.size(0), "index/source size mismatch");
    at::Tensor idx = indices.scalar_type() == at::kLong ? indices : indices.to(at::kLong);
    at::Tensor y = at::empty_like(x);
    EXEC_NPU_CMD(aclnnIndexAddCustom, x, idx, values, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("index_add_custom", &index_add_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("index_add_custom", &index_add_custom_impl_npu, "x.index_add(0, indices, values)");
}
"""
