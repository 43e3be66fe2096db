project_json_src='''
[
    {
        "op": "MatmulWithTransposedBothCustom",
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
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulWithTransposedBothCustomTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulWithTransposedBothCustom, MatmulWithTransposedBothCustomTilingData)
}
"""

host_operator_src="""
#include "matmul_with_transposed_both_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
/*
 * C[M, N] = A^T * B^T with A stored as [K, M] and B stored as [N, K].
 * Both operands are handed to the cube as transposed ND matrices, so no
 * explicit transpose is materialised.
 */
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    auto aShape = context->GetInputTensor(0)->GetOriginShape();
    auto bShape = context->GetInputTensor(1)->GetOriginShape();
    int32_t K = aShape.GetDim(0);
    int32_t M = aShape.GetDim(1);
    int32_t N = bShape.GetDim(0);

    MultiCoreMatmulTiling cubeTiling(ascendcPlatform);
    cubeTiling.SetDim(ascendcPlatform.GetCoreNumAic());
    cubeTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    cubeTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    cubeTiling.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cubeTiling.SetShape(M, N, K);
    cubeTiling.SetOrgShape(M, N, K);
    cubeTiling.SetBias(false);
    cubeTiling.SetBufferSpace(-1, -1, -1);

    MatmulWithTransposedBothCustomTilingData tiling;
    if (cubeTiling.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }

    // launch as many cores as the tiler decided to use
    uint32_t mBlocks = (M + tiling.cubeTilingData.get_singleCoreM() - 1) / tiling.cubeTilingData.get_singleCoreM();
    uint32_t nBlocks = (N + tiling.cubeTilingData.get_singleCoreN() - 1) / tiling.cubeTilingData.get_singleCoreN();
    uint32_t blockDim = mBlocks * nBlocks;
    if (blockDim > ascendcPlatform.GetCoreNumAic()) {
        blockDim = ascendcPlatform.GetCoreNumAic();
    }
    context->SetBlockDim(blockDim);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t userWorkspaceSize = 0;
    size_t systemWorkspaceSize = static_cast<size_t>(ascendcPlatform.GetLibApiWorkSpaceSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = userWorkspaceSize + systemWorkspaceSize;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* aShape = context->GetInputShape(0);
    const gert::Shape* bShape = context->GetInputShape(1);
    gert::Shape* cShape = context->GetOutputShape(0);
    cShape->SetDimNum(2);
    cShape->SetDim(0, aShape->GetDim(1));
    cShape->SetDim(1, bShape->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MatmulWithTransposedBothCustom : public OpDef {
public:
    explicit MatmulWithTransposedBothCustom(const char* name) : OpDef(name)
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
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MatmulWithTransposedBothCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

template <typename aType, typename bType, typename cType>
class MatmulTransBothKernel {
public:
    __aicore__ inline MatmulTransBothKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, const TCubeTiling& tiling)
    {
        this->tiling = tiling;
        // A is [K, M], B is [N, K], C is [M, N]
        aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ aType*>(a), (uint64_t)tiling.Ka * tiling.M);
        bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ bType*>(b), (uint64_t)tiling.N * tiling.Kb);
        cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ cType*>(c), (uint64_t)tiling.M * tiling.N);

        uint32_t mBlocks = CeilDiv(tiling.M, tiling.singleCoreM);
        uint32_t blockIdx = AscendC::GetBlockIdx();
        mIdx = blockIdx % mBlocks;
        nIdx = blockIdx / mBlocks;

        // A^T block row mIdx -> column offset in the stored [K, M] matrix
        uint64_t offsetA = (uint64_t)mIdx * tiling.singleCoreM;
        // B^T block column nIdx -> row offset in the stored [N, K] matrix
        uint64_t offsetB = (uint64_t)nIdx * tiling.singleCoreN * tiling.Kb;
        uint64_t offsetC = (uint64_t)mIdx * tiling.singleCoreM * tiling.N + (uint64_t)nIdx * tiling.singleCoreN;

        aGlobal = aGlobal[offsetA];
        bGlobal = bGlobal[offsetB];
        cGlobal = cGlobal[offsetC];

        tailM = tiling.M - mIdx * tiling.singleCoreM;
        tailM = tailM < tiling.singleCoreM ? tailM : tiling.singleCoreM;
        tailN = tiling.N - nIdx * tiling.singleCoreN;
        tailN = tailN < tiling.singleCoreN ? tailN : tiling.singleCoreN;
        valid = (mIdx * tiling.singleCoreM < (uint32_t)tiling.M) && (nIdx * tiling.singleCoreN < (uint32_t)tiling.N);
    }

    __aicore__ inline void Process(AscendC::TPipe* pipe)
    {
        if (!valid) {
            return;
        }
        matmulObj.SetTensorA(aGlobal, true);
        matmulObj.SetTensorB(bGlobal, true);
        matmulObj.SetTail(tailM, tailN);
        matmulObj.IterateAll(cGlobal);
        matmulObj.End();
    }

    Matmul<MatmulType<AscendC::TPosition::GM, CubeFormat::ND, aType, true>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, bType, true>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, cType>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, cType>> matmulObj;

private:
    AscendC::GlobalTensor<aType> aGlobal;
    AscendC::GlobalTensor<bType> bGlobal;
    AscendC::GlobalTensor<cType> cGlobal;
    TCubeTiling tiling;
    uint32_t mIdx, nIdx;
    int32_t tailM, tailN;
    bool valid;
};

extern "C" __global__ __aicore__ void matmul_with_transposed_both_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    MatmulTransBothKernel<float, float, float> op;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.matmulObj, &tilingData.cubeTilingData);
    op.Init(a, b, c, workspace, tilingData.cubeTilingData);
    op.Process(&pipe);
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// returns A.T @ B.T, A: [K, M], B: [N, K]
at::Tensor matmul_with_transposed_both_custom_impl_npu(const at::Tensor& a, const at::Tensor& b) {
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2, "expected 2-D inputs");
    TORCH_CHECK(a.size(0) == b.size(1), "inner dimensions mismatch");
    at::Tensor ac = a.contiguous();
    at::Tensor bc = b.contiguous();
    at::Tensor c = at::empty({a.size(1), b.size(0)}, a.options());
    EXEC_NPU_CMD(aclnnMatmulWithTransposedBothCustom, ac, bc, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_with_transposed_both_custom", &matmul_with_transposed_both_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_with_transposed_both_custom", &matmul_with_transposed_both_custom_impl_npu, "A^T @ B^T");
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
        return custom_ops_lib.matmul_with_transposed_both_custom(A, B)
'''
