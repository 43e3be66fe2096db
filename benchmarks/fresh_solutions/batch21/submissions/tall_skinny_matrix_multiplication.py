project_json_src='''
[
    {
        "op": "TallSkinnyMatrixMultiplicationCustom",
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
BEGIN_TILING_DATA_DEF(TallSkinnyMatrixMultiplicationCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, mBlocks);   // number of singleCoreM blocks along M
  TILING_DATA_FIELD_DEF(uint32_t, nBlocks);   // number of singleCoreN blocks along N
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TallSkinnyMatrixMultiplicationCustom, TallSkinnyMatrixMultiplicationCustomTilingData)
}
"""

host_operator_src="""
#include "tall_skinny_matrix_multiplication_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
// C[M, N] = A[M, K] * B[K, N] with a tiny K (32 here) and a huge M x N output.
// The problem is output-bandwidth bound: the whole of K fits in one L1 load,
// so we only need to spread the M x N output over every cube core.
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const auto& aShape = context->GetInputShape(0)->GetOriginShape();
    const auto& bShape = context->GetInputShape(1)->GetOriginShape();
    int32_t M = aShape.GetDim(0);
    int32_t K = aShape.GetDim(1);
    int32_t N = bShape.GetDim(1);
    uint32_t aicNum = platform.GetCoreNumAic();

    matmul_tiling::MultiCoreMatmulTiling mmTiler(platform);
    mmTiler.SetDim(aicNum);
    mmTiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiler.SetShape(M, N, K);
    mmTiler.SetOrgShape(M, N, K);
    mmTiler.SetBias(false);
    mmTiler.SetBufferSpace(-1, -1, -1);

    TallSkinnyMatrixMultiplicationCustomTilingData tilingData;
    if (mmTiler.GetTiling(tilingData.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    int32_t singleM = tilingData.mmTiling.get_singleCoreM();
    int32_t singleN = tilingData.mmTiling.get_singleCoreN();
    uint32_t mBlocks = (M + singleM - 1) / singleM;
    uint32_t nBlocks = (N + singleN - 1) / singleN;
    tilingData.set_mBlocks(mBlocks);
    tilingData.set_nBlocks(nBlocks);

    uint32_t blocks = mBlocks * nBlocks;
    context->SetBlockDim(blocks < aicNum ? blocks : aicNum);
    tilingData.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tilingData.GetDataSize());

    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(platform.GetLibApiWorkSpaceSize());
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
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class TallSkinnyMatrixMultiplicationCustom : public OpDef {
public:
    explicit TallSkinnyMatrixMultiplicationCustom(const char* name) : OpDef(name)
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
OP_ADD(TallSkinnyMatrixMultiplicationCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void tall_skinny_matrix_multiplication_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    const TCubeTiling& mt = tilingData.mmTiling;

    TPipe pipe;
    Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tilingData.mmTiling);

    GlobalTensor<float> aGm, bGm, cGm;
    aGm.SetGlobalBuffer((__gm__ float*)a, (uint64_t)mt.M * mt.Ka);
    bGm.SetGlobalBuffer((__gm__ float*)b, (uint64_t)mt.Kb * mt.N);
    cGm.SetGlobalBuffer((__gm__ float*)c, (uint64_t)mt.M * mt.N);

    uint32_t totalBlocks = tilingData.mBlocks * tilingData.nBlocks;
    uint32_t coreNum = GetBlockNum();
    // A core may own more than one output block when blocks > cores.
    for (uint32_t blk = GetBlockIdx(); blk < totalBlocks; blk += coreNum) {
        uint32_t mIdx = blk / tilingData.nBlocks;
        uint32_t nIdx = blk % tilingData.nBlocks;
        uint32_t mStart = mIdx * mt.singleCoreM;
        uint32_t nStart = nIdx * mt.singleCoreN;

        int32_t curM = mt.M - (int32_t)mStart;
        if (curM > mt.singleCoreM) curM = mt.singleCoreM;
        int32_t curN = mt.N - (int32_t)nStart;
        if (curN > mt.singleCoreN) curN = mt.singleCoreN;

        mm.SetTensorA(aGm[(uint64_t)mStart * mt.Ka]);
        mm.SetTensorB(bGm[nStart]);
        mm.SetTail(curM, curN, mt.Ka);
        mm.IterateAll(cGm[(uint64_t)mStart * mt.N + nStart]);
    }
    mm.End();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor tall_skinny_matrix_multiplication_custom_impl_npu(const at::Tensor& a, const at::Tensor& b) {
    TORCH_CHECK(a.size(1) == b.size(0), "matmul: shape mismatch");
    auto ac = a.contiguous();
    auto bc = b.contiguous();
    at::Tensor out = at::empty({a.size(0), b.size(1)}, a.options());
    EXEC_NPU_CMD(aclnnTallSkinnyMatrixMultiplicationCustom, ac, bc, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("tall_skinny_matrix_multiplication_custom", &tall_skinny_matrix_multiplication_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("tall_skinny_matrix_multiplication_custom", &tall_skinny_matrix_multiplication_custom_impl_npu,
          "A @ B with a small inner dimension");
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
        return custom_ops_lib.tall_skinny_matrix_multiplication_custom(A, B)
'''
