project_json_src='''
[
    {
        "op": "MatrixVectorMultiplicationCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "a", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "b", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "c", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatrixVectorMultiplicationCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, m);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, kTile);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatrixVectorMultiplicationCustom, MatrixVectorMultiplicationCustomTilingData)
}
"""

host_operator_src="""
#include "matrix_vector_multiplication_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t K_TILE = 4096;   // keeps A double-buffer + 4 accumulators well inside UB

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MatrixVectorMultiplicationCustomTilingData td;
    auto aShape = context->GetInputShape(0)->GetOriginShape();
    uint32_t m = static_cast<uint32_t>(aShape.GetDim(0));
    uint32_t k = static_cast<uint32_t>(aShape.GetDim(1));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    if (cores > m) cores = m;
    // keep the per-core row count a multiple of 8 so every core writes whole 32B blocks
    uint32_t rowsPerCore = (m + cores - 1) / cores;
    rowsPerCore = (rowsPerCore + 7) / 8 * 8;
    uint32_t blockDim = (m + rowsPerCore - 1) / rowsPerCore;

    uint32_t kTile = k < K_TILE ? ((k + 7) / 8 * 8) : K_TILE;

    td.set_m(m);
    td.set_k(k);
    td.set_rowsPerCore(rowsPerCore);
    td.set_kTile(kTile);
    context->SetBlockDim(blockDim);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* a = context->GetInputShape(0);
    gert::Shape* c = context->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MatrixVectorMultiplicationCustom : public OpDef {
public:
    explicit MatrixVectorMultiplicationCustom(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatrixVectorMultiplicationCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

// GEMV is purely bandwidth bound (every element of A is touched once), so it runs on the
// vector cores. Rows are processed in groups of ROW_GROUP: one chunk of the vector b is
// loaded and reused for all rows of the group, which cuts the re-reads of b by ROW_GROUP.
constexpr uint32_t ROW_GROUP = 4;
constexpr int32_t DEPTH = 2;

class MatVecKernel {
public:
    __aicore__ inline MatVecKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t k,
                                uint32_t rowsPerCore, uint32_t kTile)
    {
        K = k;
        tile = kTile;
        rowBegin = AscendC::GetBlockIdx() * rowsPerCore;
        uint32_t rowEnd = rowBegin + rowsPerCore;
        if (rowEnd > m) rowEnd = m;
        rowCnt = rowEnd > rowBegin ? rowEnd - rowBegin : 0;

        aGm.SetGlobalBuffer((__gm__ float *)a);
        bGm.SetGlobalBuffer((__gm__ float *)b, k);
        cGm.SetGlobalBuffer((__gm__ float *)c + rowBegin, rowCnt);

        pipe.InitBuffer(aQ, DEPTH, tile * sizeof(float));
        pipe.InitBuffer(bQ, 1, tile * sizeof(float));
        pipe.InitBuffer(resQ, 1, ((rowsPerCore + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(accBuf, ROW_GROUP * tile * sizeof(float));
        pipe.InitBuffer(sumBuf, 8 * sizeof(float));
        pipe.InitBuffer(workBuf, tile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (rowCnt == 0) return;
        AscendC::LocalTensor<float> res = resQ.AllocTensor<float>();
        for (uint32_t g = 0; g < rowCnt; g += ROW_GROUP) {
            uint32_t nRows = (g + ROW_GROUP <= rowCnt) ? ROW_GROUP : rowCnt - g;
            DoGroup(g, nRows, res);
        }
        resQ.EnQue(res);
        res = resQ.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(rowCnt * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(cGm, res, cp);
        resQ.FreeTensor(res);
    }

private:
    __aicore__ inline void DoGroup(uint32_t g, uint32_t nRows, AscendC::LocalTensor<float> &res)
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::Duplicate(acc, 0.0f, ROW_GROUP * tile);

        for (uint32_t k0 = 0; k0 < K; k0 += tile) {
            uint32_t len = (k0 + tile <= K) ? tile : K - k0;
            // zero-padded copies keep the multiply-accumulate safe on the tail chunk
            uint8_t padElems = static_cast<uint8_t>(((len + 7) / 8 * 8) - len);
            AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> pad{padElems != 0, 0, padElems, 0.0f};
            uint32_t alignedLen = (len + 7) / 8 * 8;

            AscendC::LocalTensor<float> bLoc = bQ.AllocTensor<float>();
            AscendC::DataCopyPad(bLoc, bGm[k0], cp, pad);
            bQ.EnQue(bLoc);
            bLoc = bQ.DeQue<float>();

            for (uint32_t r = 0; r < nRows; ++r) {
                uint64_t row = rowBegin + g + r;
                AscendC::LocalTensor<float> aLoc = aQ.AllocTensor<float>();
                AscendC::DataCopyPad(aLoc, aGm[row * K + k0], cp, pad);
                aQ.EnQue(aLoc);
                aLoc = aQ.DeQue<float>();
                AscendC::LocalTensor<float> accRow = acc[r * tile];
                AscendC::MulAddDst(accRow, aLoc, bLoc, alignedLen);   // acc += a * b
                aQ.FreeTensor(aLoc);
            }
            bQ.FreeTensor(bLoc);
        }

        AscendC::LocalTensor<float> s = sumBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        for (uint32_t r = 0; r < nRows; ++r) {
            AscendC::ReduceSum<float>(s, acc[r * tile], work, tile);
            event_t evt = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
            AscendC::SetFlag<AscendC::HardEvent::V_S>(evt);
            AscendC::WaitFlag<AscendC::HardEvent::V_S>(evt);
            res.SetValue(g + r, s.GetValue(0));
        }
        event_t evt2 = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(evt2);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(evt2);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, DEPTH> aQ;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> bQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> resQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf, sumBuf, workBuf;
    AscendC::GlobalTensor<float> aGm, bGm, cGm;
    uint32_t K = 0, tile = 0, rowBegin = 0, rowCnt = 0;
};

extern "C" __global__ __aicore__ void matrix_vector_multiplication_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    MatVecKernel op;
    op.Init(a, b, c, t.m, t.k, t.rowsPerCore, t.kTile);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matrix_vector_multiplication_custom_impl_npu(const at::Tensor& A, const at::Tensor& B) {
    TORCH_CHECK(A.dim() == 2, "A must be 2-D");
    TORCH_CHECK(B.numel() == A.size(1), "B must hold K elements");
    at::Tensor a = A.contiguous();
    at::Tensor b = B.contiguous();
    at::Tensor c = at::empty({A.size(0), 1}, a.options());
    EXEC_NPU_CMD(aclnnMatrixVectorMultiplicationCustom, a, b, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matrix_vector_multiplication_custom", &matrix_vector_multiplication_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matrix_vector_multiplication_custom", &matrix_vector_multiplication_custom_impl_npu,
          "C = A @ B for B of shape (K, 1)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.matrix_vector_multiplication_custom(A, B)
'''
