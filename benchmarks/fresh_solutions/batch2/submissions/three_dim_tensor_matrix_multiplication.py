project_json_src='''
[
    {
        "op": "ThreeDimTensorMatrixMultiplicationCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "a",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            },
            {
                "name": "b",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            }
        ],
        "output_desc": [
            {
                "name": "c",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ThreeDimTensorMatrixMultiplicationCustomTilingData)
  // A (N, M, K) is viewed as a single (N*M, K) matrix, since B is shared by every batch
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerBatch);
  TILING_DATA_FIELD_DEF(uint32_t, usedCoreNum);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ThreeDimTensorMatrixMultiplicationCustom, ThreeDimTensorMatrixMultiplicationCustomTilingData)
}
"""

host_operator_src="""
#include "three_dim_tensor_matrix_multiplication_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    const gert::Shape &aShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape &bShape = context->GetInputShape(1)->GetOriginShape();
    size_t aDims = aShape.GetDimNum();
    if (aDims < 2 || bShape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }

    int32_t k = static_cast<int32_t>(aShape.GetDim(aDims - 1));
    int32_t rows = static_cast<int32_t>(aShape.GetDim(aDims - 2));
    int32_t batch = 1;
    for (size_t i = 0; i + 2 < aDims; ++i) {
        batch *= static_cast<int32_t>(aShape.GetDim(i));
    }
    int32_t l = static_cast<int32_t>(bShape.GetDim(1));
    if (static_cast<int32_t>(bShape.GetDim(0)) != k) {
        return ge::GRAPH_FAILED;
    }
    int32_t totalM = batch * rows;

    uint32_t coreNum = ascendcPlatform.GetCoreNumAic();
    if (coreNum == 0) {
        coreNum = 1;
    }

    MultiCoreMatmulTiling mmTiling(ascendcPlatform);
    mmTiling.SetDim(coreNum);
    mmTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mmTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mmTiling.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(totalM, l, k);
    mmTiling.SetOrgShape(totalM, l, k);
    mmTiling.SetBias(false);
    mmTiling.SetBufferSpace(-1, -1, -1);

    ThreeDimTensorMatrixMultiplicationCustomTilingData tiling;
    if (mmTiling.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }

    // number of (singleCoreM x singleCoreN) blocks actually produced by the multi-core split
    int32_t singleM = tiling.cubeTilingData.get_singleCoreM();
    int32_t singleN = tiling.cubeTilingData.get_singleCoreN();
    uint32_t mBlocks = static_cast<uint32_t>((totalM + singleM - 1) / singleM);
    uint32_t nBlocks = static_cast<uint32_t>((l + singleN - 1) / singleN);
    uint32_t usedCores = mBlocks * nBlocks;
    if (usedCores > coreNum) {
        usedCores = coreNum;
    }

    tiling.set_batch(static_cast<uint32_t>(batch));
    tiling.set_rowsPerBatch(static_cast<uint32_t>(rows));
    tiling.set_usedCoreNum(usedCores);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // the matmul high level API needs the system workspace
    size_t *workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = static_cast<size_t>(ascendcPlatform.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
}


namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* aShape = context->GetInputShape(0);
    const gert::Shape* bShape = context->GetInputShape(1);
    gert::Shape* cShape = context->GetOutputShape(0);
    *cShape = *aShape;
    cShape->SetDim(aShape->GetDimNum() - 1, bShape->GetDim(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}


namespace ops {
class ThreeDimTensorMatrixMultiplicationCustom : public OpDef {
public:
    explicit ThreeDimTensorMatrixMultiplicationCustom(const char* name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);

        this->AICore()
            .SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ThreeDimTensorMatrixMultiplicationCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

// C(N*M, L) = A(N*M, K) * B(K, L). Every core owns one (singleCoreM x singleCoreN) tile of C.
template <typename T>
class KernelTensorMatMul {
public:
    __aicore__ inline KernelTensorMatMul() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling &tiling, uint32_t usedCores)
    {
        this->tiling = tiling;
        this->usedCores = usedCores;
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(a), static_cast<uint64_t>(tiling.M) * tiling.Ka);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(b), static_cast<uint64_t>(tiling.Kb) * tiling.N);
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(c), static_cast<uint64_t>(tiling.M) * tiling.N);
    }

    template <typename MM>
    __aicore__ inline void Process(MM &mm)
    {
        uint32_t blockIdx = GetBlockIdx();
        if (blockIdx >= usedCores) {
            return;
        }
        uint32_t mBlocks = CeilDiv(tiling.M, tiling.singleCoreM);
        uint32_t mIdx = blockIdx % mBlocks;
        uint32_t nIdx = blockIdx / mBlocks;

        uint64_t rowStart = static_cast<uint64_t>(mIdx) * tiling.singleCoreM;
        uint64_t colStart = static_cast<uint64_t>(nIdx) * tiling.singleCoreN;
        if (rowStart >= static_cast<uint64_t>(tiling.M) || colStart >= static_cast<uint64_t>(tiling.N)) {
            return;
        }

        uint64_t offsetA = rowStart * tiling.Ka;
        uint64_t offsetB = colStart;
        uint64_t offsetC = rowStart * tiling.N + colStart;

        // tail blocks on the bottom/right border
        int32_t curM = tiling.M - static_cast<int32_t>(rowStart);
        int32_t curN = tiling.N - static_cast<int32_t>(colStart);
        curM = curM < tiling.singleCoreM ? curM : tiling.singleCoreM;
        curN = curN < tiling.singleCoreN ? curN : tiling.singleCoreN;

        mm.SetTail(curM, curN);
        mm.SetTensorA(aGm[offsetA]);
        mm.SetTensorB(bGm[offsetB]);
        mm.IterateAll(cGm[offsetC]);
        mm.End();
    }

private:
    GlobalTensor<T> aGm;
    GlobalTensor<T> bGm;
    GlobalTensor<T> cGm;
    TCubeTiling tiling;
    uint32_t usedCores;
};

extern "C" __global__ __aicore__ void three_dim_tensor_matrix_multiplication_custom(
    GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }

    using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

    TPipe pipe;
    Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tilingData.cubeTilingData);

    KernelTensorMatMul<float> op;
    op.Init(a, b, c, tilingData.cubeTilingData, tilingData.usedCoreNum);
    op.Process(mm);
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor three_dim_tensor_matrix_multiplication_custom_impl_npu(const at::Tensor& a, const at::Tensor& b) {
    TORCH_CHECK(a.dim() == 3, "A must be a 3D tensor (N, M, K)");
    TORCH_CHECK(b.dim() == 2, "B must be a 2D matrix (K, L)");
    TORCH_CHECK(a.size(2) == b.size(0), "inner dimensions must match");
    at::Tensor aCont = a.contiguous();
    at::Tensor bCont = b.contiguous();
    at::Tensor result = at::empty({a.size(0), a.size(1), b.size(1)}, a.options());
    EXEC_NPU_CMD(aclnnThreeDimTensorMatrixMultiplicationCustom, aCont, bCont, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("three_dim_tensor_matrix_multiplication_custom", &three_dim_tensor_matrix_multiplication_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("three_dim_tensor_matrix_multiplication_custom", &three_dim_tensor_matrix_multiplication_custom_impl_npu,
          "3D tensor x matrix multiplication");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, A, B):
        return custom_ops_lib.three_dim_tensor_matrix_multiplication_custom(A, B)
'''
