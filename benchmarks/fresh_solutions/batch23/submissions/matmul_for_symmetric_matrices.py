project_json_src='''
[
    {
        "op": "MatmulForSymmetricMatricesCustom",
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
BEGIN_TILING_DATA_DEF(MatmulForSymmetricMatricesCustomTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulForSymmetricMatricesCustom, MatmulForSymmetricMatricesCustomTilingData)
}
"""

host_operator_src="""
#include "matmul_for_symmetric_matrices_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &aShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &bShape = context->GetInputShape(1)->GetStorageShape();
    int32_t M = aShape.GetDim(0);
    int32_t K = aShape.GetDim(1);
    int32_t N = bShape.GetDim(1);

    MultiCoreMatmulTiling cubeTiling(ascendcPlatform);
    cubeTiling.SetDim(ascendcPlatform.GetCoreNumAic());
    cubeTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    // B is symmetric, so B == B^T. Reading it as the transposed operand lets the cube load
    // contiguous K-runs for each output column block, which is the friendlier layout for L1.
    cubeTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    cubeTiling.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cubeTiling.SetShape(M, N, K);
    cubeTiling.SetOrgShape(M, N, K);
    cubeTiling.SetBias(false);
    cubeTiling.SetBufferSpace(-1, -1, -1);

    MatmulForSymmetricMatricesCustomTilingData tiling;
    if (cubeTiling.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }

    uint32_t blockDim = ascendcPlatform.GetCoreNumAic();
    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t userWorkspaceSize = 0;
    size_t systemWorkspaceSize = static_cast<size_t>(ascendcPlatform.GetLibApiWorkSpaceSize());
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = userWorkspaceSize + systemWorkspaceSize;
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
class MatmulForSymmetricMatricesCustom : public OpDef {
public:
    explicit MatmulForSymmetricMatricesCustom(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatmulForSymmetricMatricesCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// C = A * B for symmetric A, B. B is fed to the cube as B^T (identical data), so every
// core streams [singleN x K] row panels of B instead of strided column panels.
template <typename T>
class SymMatmulKernel {
public:
    __aicore__ inline SymMatmulKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling &tiling)
    {
        this->tiling = tiling;
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(a), tiling.M * tiling.Ka);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(b), tiling.Kb * tiling.N);
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(c), tiling.M * tiling.N);

        int32_t offsetA = 0, offsetB = 0, offsetC = 0;
        ComputeOffsets(GetBlockIdx(), offsetA, offsetB, offsetC);
        aGm = aGm[offsetA];
        bGm = bGm[offsetB];
        cGm = cGm[offsetC];
    }

    template <typename MM>
    __aicore__ inline void Process(MM &mm)
    {
        if (GetBlockIdx() >= blocksUsed) {
            return;
        }
        mm.SetTensorA(aGm);
        mm.SetTensorB(bGm, true);
        if (tailM != tiling.singleCoreM || tailN != tiling.singleCoreN) {
            mm.SetTail(tailM, tailN);
        }
        mm.IterateAll(cGm);
        mm.End();
    }

private:
    __aicore__ inline void ComputeOffsets(int32_t blockIdx, int32_t &offA, int32_t &offB, int32_t &offC)
    {
        int32_t mBlocks = Ceil(tiling.M, tiling.singleCoreM);
        int32_t nBlocks = Ceil(tiling.N, tiling.singleCoreN);
        blocksUsed = mBlocks * nBlocks;
        int32_t mIdx = blockIdx % mBlocks;
        int32_t nIdx = blockIdx / mBlocks;
        if (blockIdx >= blocksUsed) {
            mIdx = 0;
            nIdx = 0;
        }
        offA = mIdx * tiling.singleCoreM * tiling.Ka;
        // B read as transposed: row nIdx*singleCoreN of B^T (== B) starts the panel
        offB = nIdx * tiling.singleCoreN * tiling.Kb;
        offC = mIdx * tiling.singleCoreM * tiling.N + nIdx * tiling.singleCoreN;

        int32_t remM = tiling.M - mIdx * tiling.singleCoreM;
        int32_t remN = tiling.N - nIdx * tiling.singleCoreN;
        tailM = remM < tiling.singleCoreM ? remM : tiling.singleCoreM;
        tailN = remN < tiling.singleCoreN ? remN : tiling.singleCoreN;
    }

    __aicore__ inline int32_t Ceil(int32_t a, int32_t b) { return (a + b - 1) / b; }

private:
    TCubeTiling tiling;
    GlobalTensor<T> aGm, bGm, cGm;
    int32_t tailM = 0, tailN = 0, blocksUsed = 0;
};

extern "C" __global__ __aicore__ void matmul_for_symmetric_matrices_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GM_ADDR userWs = GetUserWorkspace(workspace);
    if (userWs == nullptr) {
        return;
    }
    SymMatmulKernel<float> kernel;
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, float>,
           MatmulType<TPosition::GM, CubeFormat::ND, float, true>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tilingData.cubeTilingData);
    kernel.Init(a, b, c, tilingData.cubeTilingData);
    kernel.Process(mm);
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matmul_for_symmetric_matrices_custom_impl_npu(const at::Tensor& a, const at::Tensor& b) {
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2, "expected 2-D matrices");
    TORCH_CHECK(a.size(1) == b.size(0), "inner dimensions must match");
    at::Tensor ac = a.contiguous();
    at::Tensor bc = b.contiguous();
    at::Tensor result = at::empty({a.size(0), b.size(1)}, a.options());
    EXEC_NPU_CMD(aclnnMatmulForSymmetricMatricesCustom, ac, bc, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_for_symmetric_matrices_custom", &matmul_for_symmetric_matrices_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_for_symmetric_matrices_custom", &matmul_for_symmetric_matrices_custom_impl_npu,
          "C = A @ B for symmetric A, B");
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
        return custom_ops_lib.matmul_for_symmetric_matrices_custom(A, B)
'''
