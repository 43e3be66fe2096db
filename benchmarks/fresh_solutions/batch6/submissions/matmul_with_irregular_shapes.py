python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matmul_with_irregular_shapes_custom_impl_npu(const at::Tensor& a, const at::Tensor& b)
{
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2, "expects 2-D A (M,K) and B (K,N)");
    TORCH_CHECK(a.size(1) == b.size(0), "inner dimensions of A and B differ");
    at::Tensor a_c = a.contiguous();
    at::Tensor b_c = b.contiguous();
    at::Tensor c = at::empty({a.size(0), b.size(1)}, a.options());
    EXEC_NPU_CMD(aclnnMatmulWithIrregularShapesCustom, a_c, b_c, c);
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

    def forward(self, A, B):
        return custom_ops_lib.matmul_with_irregular_shapes_custom(A, B)
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulWithIrregularShapesCustomTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm_tiling);
  TILING_DATA_FIELD_DEF(uint32_t, m_blks);   // number of core tiles along M
  TILING_DATA_FIELD_DEF(uint32_t, n_blks);   // number of core tiles along N
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
static inline uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aic_num = plat.GetCoreNumAic();
    if (aic_num == 0) {
        aic_num = 1;
    }

    const gert::Shape& a_shape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& b_shape = context->GetInputShape(1)->GetStorageShape();
    int32_t m = static_cast<int32_t>(a_shape.GetDim(0));
    int32_t k = static_cast<int32_t>(a_shape.GetDim(1));
    int32_t n = static_cast<int32_t>(b_shape.GetDim(1));

    // multi-core matmul tiling: let the library pick single-core M/N for the irregular sizes,
    // with fixed 128x256 L0 base blocks (fp32: 128*256*4 = 128KB L0C)
    MultiCoreMatmulTiling mm(plat);
    mm.SetDim(aic_num);
    mm.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mm.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mm.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetShape(m, n, k);
    mm.SetOrgShape(m, n, k);
    mm.SetBias(false);
    mm.SetFixSplit(128, 256, -1);
    mm.SetBufferSpace(-1, -1, -1);

    MatmulWithIrregularShapesCustomTilingData tiling;
    if (mm.GetTiling(tiling.mm_tiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t sc_m = static_cast<uint32_t>(tiling.mm_tiling.get_singleCoreM());
    uint32_t sc_n = static_cast<uint32_t>(tiling.mm_tiling.get_singleCoreN());
    uint32_t m_blks = ceil_div(static_cast<uint32_t>(m), sc_m);
    uint32_t n_blks = ceil_div(static_cast<uint32_t>(n), sc_n);
    tiling.set_m_blks(m_blks);
    tiling.set_n_blks(n_blks);

    uint32_t blk_dim = m_blks * n_blks;
    if (blk_dim > aic_num) {
        blk_dim = aic_num;
    }
    context->SetBlockDim(blk_dim);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // the matmul library needs its system workspace
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(plat.GetLibApiWorkSpaceSize());
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

using a_type = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using b_type = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using c_type = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using bias_type = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class KernelIrregularMatmul {
public:
    __aicore__ inline KernelIrregularMatmul() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling& t,
                                uint32_t m_blks, uint32_t n_blks)
    {
        this->tiling = t;
        this->m_blks = m_blks;
        this->n_blks = n_blks;
        a_gm.SetGlobalBuffer((__gm__ float*)a, static_cast<uint64_t>(t.M) * t.Ka);
        b_gm.SetGlobalBuffer((__gm__ float*)b, static_cast<uint64_t>(t.Kb) * t.N);
        c_gm.SetGlobalBuffer((__gm__ float*)c, static_cast<uint64_t>(t.M) * t.N);
    }

    // every core walks over output tiles blk_id, blk_id + core_num, ...
    // so the result is correct even when there are more tiles than cores
    __aicore__ inline void Process(TPipe* pipe)
    {
        uint32_t total_blks = m_blks * n_blks;
        uint32_t core_num = GetBlockNum();
        for (uint32_t blk = GetBlockIdx(); blk < total_blks; blk += core_num) {
            run_tile(blk);
        }
        mm.End();
    }

    Matmul<a_type, b_type, c_type, bias_type> mm;

private:
    __aicore__ inline void run_tile(uint32_t blk)
    {
        uint32_t m_idx = blk % m_blks;
        uint32_t n_idx = blk / m_blks;
        uint32_t sc_m = static_cast<uint32_t>(tiling.singleCoreM);
        uint32_t sc_n = static_cast<uint32_t>(tiling.singleCoreN);
        uint32_t m_total = static_cast<uint32_t>(tiling.M);
        uint32_t n_total = static_cast<uint32_t>(tiling.N);
        uint32_t k_total = static_cast<uint32_t>(tiling.Ka);

        uint32_t row0 = m_idx * sc_m;
        uint32_t col0 = n_idx * sc_n;
        // irregular shapes: the last tile in each direction is a partial one
        int32_t cur_m = static_cast<int32_t>((m_total - row0) < sc_m ? (m_total - row0) : sc_m);
        int32_t cur_n = static_cast<int32_t>((n_total - col0) < sc_n ? (n_total - col0) : sc_n);

        uint64_t a_off = static_cast<uint64_t>(row0) * k_total;
        uint64_t b_off = col0;
        uint64_t c_off = static_cast<uint64_t>(row0) * n_total + col0;

        mm.SetTensorA(a_gm[a_off]);
        mm.SetTensorB(b_gm[b_off]);
        mm.SetTail(cur_m, cur_n);
        mm.IterateAll(c_gm[c_off]);
    }

    GlobalTensor<float> a_gm;
    GlobalTensor<float> b_gm;
    GlobalTensor<float> c_gm;
    TCubeTiling tiling;
    uint32_t m_blks;
    uint32_t n_blks;
};

extern "C" __global__ __aicore__ void matmul_with_irregular_shapes_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR user_ws = GetUserWorkspace(workspace);
    if (user_ws == nullptr) {
        return;
    }
    TPipe pipe;
    KernelIrregularMatmul op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mm_tiling);
    op.Init(a, b, c, td.mm_tiling, td.m_blks, td.n_blks);
    op.Process(&pipe);
}
"""

project_json_src='''
[
    {
        "op": "MatmulWithIrregularShapesCustom",
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
