project_json_src='''
[
    {
        "op": "MatmulWithIrregularShapesCustom",
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
BEGIN_TILING_DATA_DEF(MatmulWithIrregularShapesCustomTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulWithIrregularShapesCustom, MatmulWithIrregularShapesCustomTilingData)
}
"""

host_operator_src="""
#include "matmul_with_irregular_shapes_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto aShape = context->GetInputShape(0)->GetOriginShape();
    auto bShape = context->GetInputShape(1)->GetOriginShape();
    int32_t M = static_cast<int32_t>(aShape.GetDim(0));
    int32_t K = static_cast<int32_t>(aShape.GetDim(1));
    int32_t N = static_cast<int32_t>(bShape.GetDim(1));
    if (static_cast<int32_t>(bShape.GetDim(0)) != K) {
        return ge::GRAPH_FAILED;
    }

    uint32_t aivNum = platform.GetCoreNumAiv();
    uint32_t aicNum = platform.GetCoreNumAic();

    // Let the tiling library pick the per-core split and L1/L0 blocking for the odd
    // M/N/K; tails are handled in the kernel with SetTail.
    MultiCoreMatmulTiling mmTiling(platform);
    mmTiling.SetDim(aivNum);
    mmTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mmTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mmTiling.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(M, N, K);
    mmTiling.SetOrgShape(M, N, K);
    mmTiling.SetBias(false);
    mmTiling.SetBufferSpace(-1, -1, -1);

    MatmulWithIrregularShapesCustomTilingData tiling;
    if (mmTiling.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }

    // mix mode: one block = 1 AIC + 2 AIV, the tiling dim counts AIV cores
    uint32_t usedCores = static_cast<uint32_t>(tiling.cubeTilingData.get_usedCoreNum());
    uint32_t blockDim = (usedCores + 1) / 2;
    if (blockDim > aicNum) blockDim = aicNum;
    if (blockDim == 0) blockDim = 1;
    context->SetBlockDim(blockDim);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize();
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
class MatmulWithIrregularShapesCustom : public OpDef {
public:
    explicit MatmulWithIrregularShapesCustom(const char* name) : OpDef(name)
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

OP_ADD(MatmulWithIrregularShapesCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

__aicore__ inline uint32_t CeilDivU(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

template <typename T>
class MatmulIrregularKernel {
public:
    __aicore__ inline MatmulIrregularKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, const TCubeTiling &tiling)
    {
        this->tiling = tiling;
        aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(a), (uint64_t)tiling.M * tiling.Ka);
        bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(b), (uint64_t)tiling.Kb * tiling.N);
        cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(c), (uint64_t)tiling.M * tiling.N);

        uint32_t blockIdx = GetBlockIdx();
        active = blockIdx < (uint32_t)tiling.usedCoreNum;
        if (!active) {
            return;
        }

        // block -> (m-slice, n-slice) of the output
        uint32_t mBlocks = CeilDivU(tiling.M, tiling.singleCoreM);
        uint32_t mIdx = blockIdx % mBlocks;
        uint32_t nIdx = blockIdx / mBlocks;
        uint64_t mStart = (uint64_t)mIdx * tiling.singleCoreM;
        uint64_t nStart = (uint64_t)nIdx * tiling.singleCoreN;

        offsetA = mStart * tiling.Ka;
        offsetB = nStart;
        offsetC = mStart * tiling.N + nStart;

        // edge blocks (8205 x 5921 do not divide evenly) get a smaller tile
        int32_t remM = tiling.M - (int32_t)mStart;
        int32_t remN = tiling.N - (int32_t)nStart;
        tailM = remM < tiling.singleCoreM ? remM : tiling.singleCoreM;
        tailN = remN < tiling.singleCoreN ? remN : tiling.singleCoreN;
        if (tailM <= 0 || tailN <= 0) {
            active = false;
        }
    }

    __aicore__ inline void Process(TPipe *pipe)
    {
        if (!active) {
            return;
        }
        mm.SetTail(tailM, tailN);
        mm.SetTensorA(aGlobal[offsetA]);
        mm.SetTensorB(bGlobal[offsetB]);
        mm.IterateAll(cGlobal[offsetC]);
        mm.End();
    }

    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    Matmul<AType, BType, CType, BiasType> mm;

private:
    TCubeTiling tiling;
    GlobalTensor<T> aGlobal, bGlobal, cGlobal;
    uint64_t offsetA = 0;
    uint64_t offsetB = 0;
    uint64_t offsetC = 0;
    int32_t tailM = 0;
    int32_t tailN = 0;
    bool active = false;
};

extern "C" __global__ __aicore__ void matmul_with_irregular_shapes_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GM_ADDR userWs = GetUserWorkspace(workspace);
    if (userWs == nullptr) {
        return;
    }
    TPipe pipe;
    MatmulIrregularKernel<float> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTilingData);
    op.Init(a, b, c, userWs, tilingData.cubeTilingData);
    op.Process(&pipe);
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matmul_with_irregular_shapes_custom_impl_npu(const at::Tensor& A, const at::Tensor& B) {
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2, "expected 2-D inputs");
    TORCH_CHECK(A.size(1) == B.size(0), "inner dimensions must match");
    at::Tensor a = A.contiguous();
    at::Tensor b = B.contiguous();
    at::Tensor c = at::empty({a.size(0), b.size(1)}, a.options());
    EXEC_NPU_CMD(aclnnMatmulWithIrregularShapesCustom, a, b, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_with_irregular_shapes_custom", &matmul_with_irregular_shapes_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_with_irregular_shapes_custom", &matmul_with_irregular_shapes_custom_impl_npu,
          "C = A @ B for arbitrary (unaligned) M, K, N");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.matmul_with_irregular_shapes_custom(A, B)
'''
