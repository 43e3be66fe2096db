project_json_src='''
[
    {
        "op": "MatrixVectorMultiplicationCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "a",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "b",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "c",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatrixVectorMultiplicationCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, M);
  TILING_DATA_FIELD_DEF(uint64_t, K);
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);      // K elements streamed per step
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerGroup);  // rows sharing one loaded chunk of B
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatrixVectorMultiplicationCustom, MatrixVectorMultiplicationCustomTilingData)
}
"""

host_operator_src="""
#include "matrix_vector_multiplication_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// GEMV is purely bandwidth bound (A is M*K fp32 and read exactly once), so this runs on the
// vector cores. Each B chunk is reused by ROWS rows so B traffic is cut by that factor.
constexpr uint32_t CHUNK = 4096;
constexpr uint32_t ROWS = 4;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape &aShape = context->GetInputShape(0)->GetStorageShape();
    uint32_t M = static_cast<uint32_t>(aShape.GetDim(0));
    uint64_t K = static_cast<uint64_t>(aShape.GetDim(1));

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    if (cores > M) {
        cores = M;
    }
    if (cores == 0) {
        cores = 1;
    }

    uint32_t chunk = CHUNK;
    if (K < chunk) {
        chunk = static_cast<uint32_t>((K + 7) / 8 * 8);
    }

    MatrixVectorMultiplicationCustomTilingData td;
    td.set_M(M);
    td.set_K(K);
    td.set_chunkLen(chunk);
    td.set_rowsPerGroup(ROWS);
    td.set_coreNum(cores);

    context->SetBlockDim(cores);
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
    const gert::Shape* b = context->GetInputShape(1);
    gert::Shape* c = context->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, b->GetDim(1));
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
using namespace AscendC;

constexpr int32_t DB = 2;
constexpr uint32_t MAX_ROWS = 8;
constexpr uint32_t WORK_ELEMS = 1024;

class KernelGemv {
public:
    __aicore__ inline KernelGemv() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                uint32_t M, uint64_t K, uint32_t chunk, uint32_t rows, uint32_t cores)
    {
        this->K = K;
        this->chunk = chunk;
        this->rows = rows > MAX_ROWS ? MAX_ROWS : rows;

        uint32_t idx = GetBlockIdx();
        uint32_t base = M / cores;
        uint32_t extra = M % cores;
        rowBegin = idx * base + (idx < extra ? idx : extra);
        rowCnt = base + (idx < extra ? 1 : 0);

        aGm.SetGlobalBuffer((__gm__ float *)a + (uint64_t)rowBegin * K);
        bGm.SetGlobalBuffer((__gm__ float *)b, K);
        cGm.SetGlobalBuffer((__gm__ float *)c + rowBegin, rowCnt);

        pipe.InitBuffer(aQ, DB, chunk * sizeof(float));
        pipe.InitBuffer(bQ, DB, chunk * sizeof(float));
        pipe.InitBuffer(accBuf, this->rows * chunk * sizeof(float));
        pipe.InitBuffer(workBuf, WORK_ELEMS * sizeof(float));
        pipe.InitBuffer(sumBuf, 8 * sizeof(float));
        pipe.InitBuffer(resBuf, ((rowCnt + 7) / 8 * 8 + 8) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (rowCnt == 0) {
            return;
        }
        LocalTensor<float> res = resBuf.Get<float>();
        uint64_t nChunks = (K + chunk - 1) / chunk;

        for (uint32_t g = 0; g < rowCnt; g += rows) {
            uint32_t gr = (rowCnt - g) < rows ? (rowCnt - g) : rows;
            LocalTensor<float> acc = accBuf.Get<float>();
            Duplicate(acc, 0.0f, gr * chunk);

            for (uint64_t ck = 0; ck < nChunks; ++ck) {
                uint64_t kOff = ck * chunk;
                uint32_t len = (K - kOff) < chunk ? static_cast<uint32_t>(K - kOff) : chunk;
                LoadB(kOff, len);
                LocalTensor<float> bLocal = bQ.DeQue<float>();
                for (uint32_t r = 0; r < gr; ++r) {
                    LoadA(g + r, kOff, len);
                    LocalTensor<float> aLocal = aQ.DeQue<float>();
                    // acc_r += a_r * b  (element-wise, reduced once at the end of the row)
                    MulAddDst(acc[r * chunk], aLocal, bLocal, len);
                    aQ.FreeTensor(aLocal);
                }
                bQ.FreeTensor(bLocal);
            }

            // horizontal reduction of each accumulator row
            uint32_t redLen = K < chunk ? static_cast<uint32_t>(K) : chunk;
            LocalTensor<float> s = sumBuf.Get<float>();
            LocalTensor<float> work = workBuf.Get<float>();
            for (uint32_t r = 0; r < gr; ++r) {
                ReduceSum<float>(s, acc[r * chunk], work, redLen);
                event_t vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
                SetFlag<HardEvent::V_S>(vs);
                WaitFlag<HardEvent::V_S>(vs);
                res.SetValue(g + r, s.GetValue(0));
                event_t sv = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
                SetFlag<HardEvent::S_V>(sv);
                WaitFlag<HardEvent::S_V>(sv);
            }
        }

        event_t sm = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(sm);
        WaitFlag<HardEvent::S_MTE3>(sm);
        DataCopyExtParams cp{1, rowCnt * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(cGm, res, cp);
    }

private:
    __aicore__ inline void LoadA(uint32_t row, uint64_t kOff, uint32_t len)
    {
        LocalTensor<float> t = aQ.AllocTensor<float>();
        CopyChunk(t, aGm[(uint64_t)row * K + kOff], len);
        aQ.EnQue(t);
    }

    __aicore__ inline void LoadB(uint64_t kOff, uint32_t len)
    {
        LocalTensor<float> t = bQ.AllocTensor<float>();
        CopyChunk(t, bGm[kOff], len);
        bQ.EnQue(t);
    }

    __aicore__ inline void CopyChunk(LocalTensor<float> &dst, const GlobalTensor<float> &src, uint32_t len)
    {
        if (len % 8 == 0) {
            DataCopy(dst, src, len);
        } else {
            DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(dst, src, cp, pad);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, DB> aQ, bQ;
    TBuf<TPosition::VECCALC> accBuf, workBuf, sumBuf, resBuf;
    GlobalTensor<float> aGm, bGm, cGm;
    uint64_t K = 0;
    uint32_t chunk = 0, rows = 1, rowBegin = 0, rowCnt = 0;
};

extern "C" __global__ __aicore__ void matrix_vector_multiplication_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelGemv op;
    op.Init(a, b, c, td.M, td.K, td.chunkLen, td.rowsPerGroup, td.coreNum);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matrix_vector_multiplication_custom_impl_npu(const at::Tensor& A, const at::Tensor& B)
{
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2, "A must be (M, K) and B (K, 1)");
    TORCH_CHECK(A.size(1) == B.size(0) && B.size(1) == 1, "shape mismatch for matrix-vector product");
    at::Tensor a = A.contiguous();
    at::Tensor b = B.contiguous();
    at::Tensor c = at::empty({A.size(0), 1}, A.options());
    EXEC_NPU_CMD(aclnnMatrixVectorMultiplicationCustom, a, b, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matrix_vector_multiplication_custom", &matrix_vector_multiplication_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matrix_vector_multiplication_custom", &matrix_vector_multiplication_custom_impl_npu,
          "C = A @ B for a column vector B");
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
