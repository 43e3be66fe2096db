project_json_src='''
[
    {
        "op": "MatmulForLowerTriangularMatricesCustom",
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
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulForLowerTriangularMatricesCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);          // matrix order
  TILING_DATA_FIELD_DEF(uint32_t, blk);        // square output block edge
  TILING_DATA_FIELD_DEF(uint32_t, nBlk);       // ceil(n / blk)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulForLowerTriangularMatricesCustom, MatmulForLowerTriangularMatricesCustomTilingData)
}
"""

host_operator_src="""
#include "matmul_for_lower_triangular_matrices_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLK = 128;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MatmulForLowerTriangularMatricesCustomTilingData tiling;
    uint32_t n = context->GetInputShape(0)->GetStorageShape().GetDim(0);
    uint32_t blk = n < BLK ? n : BLK;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    // One matmul per output block; K is only the band [J*blk, (I+1)*blk) and is set with SetTail.
    matmul_tiling::MatmulApiTiling mt(plat);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(blk, blk, n);
    mt.SetOrgShape(n, n, n);   // every operand/result lives in an n x n row-major buffer
    mt.SetBias(false);
    mt.SetBufferSpace(-1, -1, -1);
    if (mt.GetTiling(tiling.cubeTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    tiling.set_n(n);
    tiling.set_blk(blk);
    tiling.set_nBlk((n + blk - 1) / blk);

    context->SetBlockDim(plat.GetCoreNumAic());
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
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
class MatmulForLowerTriangularMatricesCustom : public OpDef {
public:
    explicit MatmulForLowerTriangularMatricesCustom(const char* name) : OpDef(name)
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
OP_ADD(MatmulForLowerTriangularMatricesCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using MT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

/*
 * C = tril(A @ B) with A, B lower triangular.
 * Output block (I, J):
 *   I <  J : zero (strictly upper)
 *   I >= J : C_IJ = sum_{k in [J*blk, min(n,(I+1)*blk))} A[I, k] B[k, J]
 *            -- A[I, k] = 0 for k beyond row block I, B[k, J] = 0 for k before column block J
 *   I == J : result also needs its strict upper part cleared
 * Blocks are dealt round-robin over the vector cores in row-major order.
 */
class TrilMatmulKernel {
public:
    __aicore__ inline TrilMatmulKernel() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t n_, uint32_t blk_, uint32_t nBlk_)
    {
        n = n_; blk = blk_; nBlk = nBlk_;
        aGm.SetGlobalBuffer((__gm__ float *)a);
        bGm.SetGlobalBuffer((__gm__ float *)b);
        cGm.SetGlobalBuffer((__gm__ float *)c);
        pipe.InitBuffer(tileQ, 1, blk * blk * sizeof(float));
        pipe.InitBuffer(maskBuf, blk * blk * sizeof(float));
    }

    __aicore__ inline void Process(matmul::Matmul<MT, MT, MT, MT> &mm)
    {
        PrepareConstants();
        uint32_t vid = GetBlockIdx();
        uint32_t vnum = GetBlockNum() * GetTaskRation();
        uint32_t total = nBlk * nBlk;
        for (uint32_t t = vid; t < total; t += vnum) {
            uint32_t I = t / nBlk;
            uint32_t J = t % nBlk;
            uint32_t rows = (I + 1) * blk > n ? n - I * blk : blk;
            uint32_t cols = (J + 1) * blk > n ? n - J * blk : blk;
            uint64_t cOff = (uint64_t)I * blk * n + J * blk;
            if (I < J) {
                WriteZero(cOff, rows, cols);
                continue;
            }
            uint32_t k0 = J * blk;
            uint32_t k1 = (I + 1) * blk > n ? n : (I + 1) * blk;
            mm.SetTensorA(aGm[(uint64_t)I * blk * n + k0]);
            mm.SetTensorB(bGm[(uint64_t)k0 * n + J * blk]);
            mm.SetTail(rows, cols, k1 - k0);
            mm.IterateAll(cGm[cOff]);
            mm.End();
            if (I == J) {
                PipeBarrier<PIPE_ALL>();
                ClearUpper(cOff, rows, cols);
            }
        }
    }

private:
    __aicore__ inline void PrepareConstants()
    {
        LocalTensor<float> msk = maskBuf.Get<float>();
        Duplicate(msk, 0.0f, blk * blk);
        PipeBarrier<PIPE_V>();
        for (uint32_t r = 0; r < blk; ++r) {
            Duplicate(msk[r * blk], 1.0f, r + 1);
        }
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void WriteZero(uint64_t cOff, uint32_t rows, uint32_t cols)
    {
        // strictly-upper block: stage zeros in the tile buffer and stream them out
        LocalTensor<float> z = tileQ.AllocTensor<float>();
        Duplicate(z, 0.0f, rows * blk);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(e);
        WaitFlag<HardEvent::V_MTE3>(e);
        DataCopyExtParams cp{(uint16_t)rows, cols * (uint32_t)sizeof(float),
                             (uint32_t)((blk - cols) * sizeof(float) / 32),
                             (uint32_t)((n - cols) * sizeof(float)), 0};
        DataCopyPad(cGm[cOff], z, cp);
        event_t e2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_V));
        SetFlag<HardEvent::MTE3_V>(e2);
        WaitFlag<HardEvent::MTE3_V>(e2);
        tileQ.FreeTensor(z);
    }

    __aicore__ inline void ClearUpper(uint64_t cOff, uint32_t rows, uint32_t cols)
    {
        LocalTensor<float> msk = maskBuf.Get<float>();
        LocalTensor<float> tile = tileQ.AllocTensor<float>();
        DataCopyExtParams cpIn{(uint16_t)rows, cols * (uint32_t)sizeof(float),
                               (uint32_t)((n - cols) * sizeof(float)),
                               (uint32_t)((blk - cols) * sizeof(float) / 32), 0};
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        DataCopyPad(tile, cGm[cOff], cpIn, pp);
        tileQ.EnQue(tile);
        tile = tileQ.DeQue<float>();
        Mul(tile, tile, msk, rows * blk);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(e);
        WaitFlag<HardEvent::V_MTE3>(e);
        DataCopyExtParams cpOut{(uint16_t)rows, cols * (uint32_t)sizeof(float),
                                (uint32_t)((blk - cols) * sizeof(float) / 32),
                                (uint32_t)((n - cols) * sizeof(float)), 0};
        DataCopyPad(cGm[cOff], tile, cpOut);
        tileQ.FreeTensor(tile);
    }

public:
    TPipe pipe;
private:
    TQue<QuePosition::VECIN, 1> tileQ;
    TBuf<QuePosition::VECCALC> maskBuf;
    GlobalTensor<float> aGm, bGm, cGm;
    uint32_t n, blk, nBlk;
};

extern "C" __global__ __aicore__ void matmul_for_lower_triangular_matrices_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (GetUserWorkspace(workspace) == nullptr) return;
    TrilMatmulKernel op;
    matmul::Matmul<MT, MT, MT, MT> mm;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), mm, &td.cubeTiling);
    op.Init(a, b, c, td.n, td.blk, td.nBlk);
    op.Process(mm);
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matmul_for_lower_triangular_matrices_impl_npu(const at::Tensor& a, const at::Tensor& b)
{
    at::Tensor c = at::empty({a.size(0), b.size(1)}, a.options());
    EXEC_NPU_CMD(aclnnMatmulForLowerTriangularMatricesCustom, a, b, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_for_lower_triangular_matrices_custom", &matmul_for_lower_triangular_matrices_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_for_lower_triangular_matrices_custom", &matmul_for_lower_triangular_matrices_impl_npu,
          "tril(A @ B) for lower-triangular A, B");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A, B):
        return custom_ops_lib.matmul_for_lower_triangular_matrices_custom(A, B)
'''
