# project json
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

# host tiling
host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TallSkinnyMatrixMultiplicationCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, m);
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TallSkinnyMatrixMultiplicationCustom, TallSkinnyMatrixMultiplicationCustomTilingData)
}
"""

# host operator
host_operator_src="""
#include "tall_skinny_matrix_multiplication_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const gert::Shape& as = ctx->GetInputShape(0)->GetStorageShape();
    const gert::Shape& bs = ctx->GetInputShape(1)->GetStorageShape();
    int32_t m = as.GetDim(0), k = as.GetDim(1), n = bs.GetDim(1);
    if (bs.GetDim(0) != k) return ge::GRAPH_FAILED;
    int32_t cores = plat.GetCoreNumAic();

    MultiCoreMatmulTiling mt(plat);
    mt.SetDim(cores);
    mt.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(m, n, k);
    mt.SetOrgShape(m, n, k);
    int32_t sm = (m + 3) / 4;
    int32_t sn = (n + 9) / 10;
    sm = (sm + 15) / 16 * 16;
    sn = (sn + 15) / 16 * 16;
    mt.SetSingleShape(sm, sn, -1);
    mt.SetBias(false);
    mt.SetBufferSpace(-1, -1, -1);

    TallSkinnyMatrixMultiplicationCustomTilingData t;
    if (mt.GetTiling(t.mm) == -1) return ge::GRAPH_FAILED;
    t.set_m(m);
    t.set_n(n);
    t.set_k(k);
    ctx->SetBlockDim(cores);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t* ws = ctx->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* a = ctx->GetInputShape(0);
    const gert::Shape* b = ctx->GetInputShape(1);
    gert::Shape* c = ctx->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, b->GetDim(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class TallSkinnyMatrixMultiplicationCustom : public OpDef {
public:
    explicit TallSkinnyMatrixMultiplicationCustom(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TallSkinnyMatrixMultiplicationCustom);
}
"""

# kernel
kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;

using AT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using CT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasT = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class KernelTallSkinny {
public:
    __aicore__ inline KernelTallSkinny() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling& t)
    {
        tl = t;
        ag.SetGlobalBuffer((__gm__ float*)a, (uint64_t)t.M * t.Ka);
        bg.SetGlobalBuffer((__gm__ float*)b, (uint64_t)t.Kb * t.N);
        cg.SetGlobalBuffer((__gm__ float*)c, (uint64_t)t.M * t.N);
    }
    template <class MM>
    __aicore__ inline void Process(MM& mm)
    {
        uint32_t mBlk = (tl.M + tl.singleCoreM - 1) / tl.singleCoreM;
        uint32_t nBlk = (tl.N + tl.singleCoreN - 1) / tl.singleCoreN;
        uint32_t total = mBlk * nBlk;
        for (uint32_t id = GetBlockIdx(); id < total; id += GetBlockNum()) {
            uint32_t mi = id % mBlk;
            uint32_t ni = id / mBlk;
            uint32_t m0 = mi * tl.singleCoreM;
            uint32_t n0 = ni * tl.singleCoreN;
            int32_t tm = tl.M - m0 < (uint32_t)tl.singleCoreM ? tl.M - m0 : tl.singleCoreM;
            int32_t tn = tl.N - n0 < (uint32_t)tl.singleCoreN ? tl.N - n0 : tl.singleCoreN;
            mm.SetTail(tm, tn, tl.Ka);
            mm.SetTensorA(ag[(uint64_t)m0 * tl.Ka]);
            mm.SetTensorB(bg[n0]);
            mm.IterateAll(cg[(uint64_t)m0 * tl.N + n0]);
        }
        mm.End();
    }

private:
    TCubeTiling tl;
    GlobalTensor<float> ag, bg, cg;
};

extern "C" __global__ __aicore__ void tall_skinny_matrix_multiplication_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (GetSysWorkSpacePtr() == nullptr) return;
    TPipe pipe;
    Matmul<AT, BT, CT, BiasT> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.mm);
    KernelTallSkinny op;
    op.Init(a, b, c, td.mm);
    op.Process(mm);
}
"""

# python binding
python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor tall_skinny_matrix_multiplication_custom_impl_npu(const at::Tensor& a, const at::Tensor& b)
{
    at::Tensor ac = a.contiguous();
    at::Tensor bc = b.contiguous();
    at::Tensor c = at::empty({ac.size(0), bc.size(1)}, ac.options());
    EXEC_NPU_CMD(aclnnTallSkinnyMatrixMultiplicationCustom, ac, bc, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("tall_skinny_matrix_multiplication_custom", &tall_skinny_matrix_multiplication_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("tall_skinny_matrix_multiplication_custom", &tall_skinny_matrix_multiplication_custom_impl_npu, "tall skinny matmul");
}
"""

# model
model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return custom_ops_lib.tall_skinny_matrix_multiplication_custom(A, B)
'''
