project_json_src='''
[
    {
        "op": "SquareMatrixMultiplicationCustom",
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
BEGIN_TILING_DATA_DEF(SquareMatrixMultiplicationCustomTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SquareMatrixMultiplicationCustom, SquareMatrixMultiplicationCustomTilingData)
}
"""

host_operator_src="""
#include "square_matrix_multiplication_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto aShape = context->GetInputShape(0)->GetStorageShape();
    auto bShape = context->GetInputShape(1)->GetStorageShape();
    int32_t M = aShape.GetDim(0);
    int32_t K = aShape.GetDim(1);
    int32_t N = bShape.GetDim(1);
    if (bShape.GetDim(0) != K) {
        return ge::GRAPH_FAILED;
    }

    // 分离架构（AIC:AIV = 1:2）：SetDim 传入参与计算的 AIV 数，SetBlockDim 传 AIC 数
    uint32_t aivNum = ascendcPlatform.GetCoreNumAiv();
    uint32_t aicNum = ascendcPlatform.GetCoreNumAic();

    MultiCoreMatmulTiling cubeTiling(ascendcPlatform);
    cubeTiling.SetDim(aivNum);
    cubeTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    cubeTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    cubeTiling.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cubeTiling.SetShape(M, N, K);
    cubeTiling.SetOrgShape(M, N, K);
    cubeTiling.SetBias(false);
    cubeTiling.SetBufferSpace(-1, -1, -1);

    SquareMatrixMultiplicationCustomTilingData tiling;
    if (cubeTiling.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(aicNum);
    context->SetTilingKey(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // Matmul 高阶 API 需要系统 workspace
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
    cShape->SetDim(0, aShape->GetDim(0));
    cShape->SetDim(1, bShape->GetDim(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class SquareMatrixMultiplicationCustom : public OpDef {
public:
    explicit SquareMatrixMultiplicationCustom(const char* name) : OpDef(name)
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
            .SetTiling(optiling::TilingFunc)
            .AddConfig("ascend910b");
    }
};

OP_ADD(SquareMatrixMultiplicationCustom);
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

// C = A * B，A/B/C 均为行优先 ND、float。
// 使用 Matmul 高阶 API：host 侧 MultiCoreMatmulTiling 给出 singleCoreM / singleCoreN，
// 每个核按自己的 blockIdx 计算 A、B、C 的 GM 偏移，然后 IterateAll 完成本核的子块。
// K 方向不切分（singleCoreK = K），因此不需要跨核累加。
template <typename T>
class SquareMatmulKernel {
public:
    __aicore__ inline SquareMatmulKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, const TCubeTiling& tiling)
    {
        this->tiling = tiling;
        aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a), tiling.M * tiling.Ka);
        bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b), tiling.Kb * tiling.N);
        cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(c), tiling.M * tiling.N);

        int32_t offsetA = 0;
        int32_t offsetB = 0;
        int32_t offsetC = 0;
        CalcOffset(AscendC::GetBlockIdx(), offsetA, offsetB, offsetC);
        aGlobal = aGlobal[offsetA];
        bGlobal = bGlobal[offsetB];
        cGlobal = cGlobal[offsetC];
    }

    __aicore__ inline void Process(AscendC::TPipe* pipe)
    {
        if (AscendC::GetBlockIdx() >= static_cast<uint32_t>(tiling.usedCoreNum)) {
            return;
        }
        matmulObj.SetTensorA(aGlobal);
        matmulObj.SetTensorB(bGlobal);
        matmulObj.SetTail(tailM, tailN);
        matmulObj.IterateAll(cGlobal);
        matmulObj.End();
    }

    Matmul<MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T>> matmulObj;

private:
    // 核按 M 方向优先排布：blockIdx = nIdx * mBlocks + mIdx
    __aicore__ inline void CalcOffset(int32_t blockIdx, int32_t& offsetA, int32_t& offsetB, int32_t& offsetC)
    {
        uint32_t mBlocks = CeilDiv(tiling.M, tiling.singleCoreM);
        uint32_t mIdx = blockIdx % mBlocks;
        uint32_t nIdx = blockIdx / mBlocks;

        offsetA = mIdx * tiling.Ka * tiling.singleCoreM;
        offsetB = nIdx * tiling.singleCoreN;
        offsetC = mIdx * tiling.N * tiling.singleCoreM + nIdx * tiling.singleCoreN;

        // 尾块处理：最后一行 / 一列的核实际 M、N 可能小于 singleCore 大小
        int32_t restM = tiling.M - static_cast<int32_t>(mIdx * tiling.singleCoreM);
        int32_t restN = tiling.N - static_cast<int32_t>(nIdx * tiling.singleCoreN);
        tailM = restM < tiling.singleCoreM ? restM : tiling.singleCoreM;
        tailN = restN < tiling.singleCoreN ? restN : tiling.singleCoreN;
    }

    AscendC::GlobalTensor<T> aGlobal;
    AscendC::GlobalTensor<T> bGlobal;
    AscendC::GlobalTensor<T> cGlobal;
    TCubeTiling tiling;
    int32_t tailM = 0;
    int32_t tailN = 0;
};

extern "C" __global__ __aicore__ void square_matrix_multiplication_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    SquareMatmulKernel<float> op;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.matmulObj, &tilingData.cubeTilingData);
    op.Init(a, b, c, workspace, tilingData.cubeTilingData);
    if (TILING_KEY_IS(1)) {
        op.Process(&pipe);
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor square_matrix_multiplication_custom_impl_npu(const at::Tensor& a, const at::Tensor& b)
{
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2, "只支持二维矩阵");
    TORCH_CHECK(a.size(1) == b.size(0), "A 的列数必须等于 B 的行数");
    at::Tensor ac = a.contiguous();
    at::Tensor bc = b.contiguous();
    at::Tensor c = at::empty({a.size(0), b.size(1)}, a.options());
    EXEC_NPU_CMD(aclnnSquareMatrixMultiplicationCustom, ac, bc, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("square_matrix_multiplication_custom", &square_matrix_multiplication_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("square_matrix_multiplication_custom", &square_matrix_multiplication_custom_impl_npu,
          "C = A * B (square, float32)");
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
        return custom_ops_lib.square_matrix_multiplication_custom(A, B)
'''
