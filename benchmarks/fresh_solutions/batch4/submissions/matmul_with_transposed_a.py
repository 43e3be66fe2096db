project_json_src='''
[
    {
        "op": "MatmulWithTransposedACustom",
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
BEGIN_TILING_DATA_DEF(MatmulWithTransposedACustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, mBlocks);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulWithTransposedACustom, MatmulWithTransposedACustomTilingData)
}
"""

host_operator_src="""
#include "matmul_with_transposed_a_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    // a: [K, M] (used as a^T), b: [K, N]
    const gert::Shape &as = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape &bs = context->GetInputShape(1)->GetOriginShape();
    int32_t K = as.GetDim(0);
    int32_t M = as.GetDim(1);
    int32_t N = bs.GetDim(1);
    if (bs.GetDim(0) != K) {
        return ge::GRAPH_FAILED;
    }

    matmul_tiling::MultiCoreMatmulTiling mt(plat);
    mt.SetDim(plat.GetCoreNumAiv());
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                matmul_tiling::DataType::DT_FLOAT, true);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                matmul_tiling::DataType::DT_FLOAT, false);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(M, N, K);
    mt.SetOrgShape(M, N, K);
    mt.SetBias(false);
    mt.SetBufferSpace(-1, -1, -1);

    MatmulWithTransposedACustomTilingData td;
    if (mt.GetTiling(td.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    int32_t singleM = td.mmTiling.get_singleCoreM();
    td.set_mBlocks((M + singleM - 1) / singleM);

    uint32_t usedAiv = td.mmTiling.get_usedCoreNum();
    context->SetBlockDim((usedAiv + 1) / 2);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* as = context->GetInputShape(0);
    const gert::Shape* bs = context->GetInputShape(1);
    gert::Shape* cs = context->GetOutputShape(0);
    cs->SetDimNum(2);
    cs->SetDim(0, as->GetDim(1));
    cs->SetDim(1, bs->GetDim(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MatmulWithTransposedACustom : public OpDef {
public:
    explicit MatmulWithTransposedACustom(const char* name) : OpDef(name)
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
OP_ADD(MatmulWithTransposedACustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using AType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float, true>;
using BType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using CType = matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

class MatmulTransAKernel {
public:
    __aicore__ inline MatmulTransAKernel() {}

    __aicore__ inline bool Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling &t, uint32_t mBlocks)
    {
        uint32_t bid = AscendC::GetBlockIdx();
        if (bid >= (uint32_t)t.usedCoreNum) {
            return false;
        }
        uint32_t mi = bid % mBlocks;
        uint32_t ni = bid / mBlocks;
        int32_t m0 = mi * t.singleCoreM;
        int32_t n0 = ni * t.singleCoreN;
        if (m0 >= t.M || n0 >= t.N) {
            return false;
        }
        curM = (t.M - m0) < t.singleCoreM ? (t.M - m0) : t.singleCoreM;
        curN = (t.N - n0) < t.singleCoreN ? (t.N - n0) : t.singleCoreN;

        // a is stored [K, M]: our M block is a column window
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(a) + m0);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(b) + n0);
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c) + (uint64_t)m0 * t.N + n0);
        return true;
    }

    __aicore__ inline void Process()
    {
        mm.SetTensorA(aGm, true);
        mm.SetTensorB(bGm);
        mm.SetTail(curM, curN);
        mm.IterateAll(cGm);
        mm.End();
    }

    matmul::Matmul<AType, BType, CType> mm;

private:
    AscendC::GlobalTensor<float> aGm;
    AscendC::GlobalTensor<float> bGm;
    AscendC::GlobalTensor<float> cGm;
    int32_t curM = 0;
    int32_t curN = 0;
};

extern "C" __global__ __aicore__ void matmul_with_transposed_a_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    AscendC::TPipe pipe;
    MatmulTransAKernel op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mmTiling);
    if (op.Init(a, b, c, td.mmTiling, td.mBlocks)) {
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// C = A^T @ B, A: [K, M], B: [K, N]
at::Tensor matmul_with_transposed_a_custom_impl_npu(const at::Tensor& A, const at::Tensor& B)
{
    TORCH_CHECK(A.size(0) == B.size(0), "K mismatch");
    at::Tensor C = at::empty({A.size(1), B.size(1)}, A.options());
    EXEC_NPU_CMD(aclnnMatmulWithTransposedACustom, A, B, C);
    return C;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_with_transposed_a_custom", &matmul_with_transposed_a_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_with_transposed_a_custom", &matmul_with_transposed_a_custom_impl_npu, "A.T @ B");
}
"""
