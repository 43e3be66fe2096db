project_json_src='''
[
    {
        "op": "UpperTriProductCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "a",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "b",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "output_desc": [
            {
                "name": "c",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(UpperTriProductTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, m);
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, blockM);       // output block handled per Matmul call
  TILING_DATA_FIELD_DEF(uint32_t, blockN);
  TILING_DATA_FIELD_DEF(uint32_t, gridM);
  TILING_DATA_FIELD_DEF(uint32_t, gridN);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(UpperTriProductCustom, UpperTriProductTilingData)
}
"""

host_operator_src="""
#include "upper_tri_product_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
namespace {
constexpr uint32_t BLOCK_M = 256;
constexpr uint32_t BLOCK_N = 256;

inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

matmul_tiling::DataType ToMmType(ge::DataType dt)
{
    return dt == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    UpperTriProductTilingData tiling;
    const auto& as = context->GetInputShape(0)->GetStorageShape();
    const auto& bs = context->GetInputShape(1)->GetStorageShape();
    uint32_t m = static_cast<uint32_t>(as.GetDim(0));
    uint32_t k = static_cast<uint32_t>(as.GetDim(1));
    uint32_t n = static_cast<uint32_t>(bs.GetDim(1));
    if (static_cast<uint32_t>(bs.GetDim(0)) != k) {
        return ge::GRAPH_FAILED;
    }
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    auto mmType = ToMmType(dt);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blockM = m < BLOCK_M ? m : BLOCK_M;
    uint32_t blockN = n < BLOCK_N ? n : BLOCK_N;

    matmul_tiling::MultiCoreMatmulTiling mmTiler(plat);
    mmTiler.SetDim(1);
    mmTiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType);
    mmTiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType);
    mmTiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType);
    mmTiler.SetBias(false);
    mmTiler.SetOrgShape(m, n, k);
    mmTiler.SetShape(m, n, k);
    // one block per Matmul pass; the K range is narrowed per block at run time via SetTail
    mmTiler.SetSingleShape(blockM, blockN, k);
    mmTiler.SetFixSplit(128, 128, -1);
    mmTiler.SetBufferSpace(-1, -1, -1);
    if (mmTiler.GetTiling(tiling.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    uint32_t gridM = CeilDiv(m, blockM);
    uint32_t gridN = CeilDiv(n, blockN);
    uint32_t cores = plat.GetCoreNumAic();
    uint32_t blocks = gridM * gridN;
    if (cores > blocks) cores = blocks;

    tiling.set_m(m);
    tiling.set_n(n);
    tiling.set_k(k);
    tiling.set_blockM(blockM);
    tiling.set_blockN(blockN);
    tiling.set_gridM(gridM);
    tiling.set_gridN(gridN);

    context->SetBlockDim(cores);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
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
class UpperTriProductCustom : public OpDef {
public:
    explicit UpperTriProductCustom(const char* name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(UpperTriProductCustom);
}
"""

kernel_src="""
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

struct TriGrid {
    uint32_t m, n, k, blockM, blockN, gridM, gridN;
};

// For upper-triangular A and B, C[i][j] = sum_{i <= t <= j} A[i][t] * B[t][j].
// A block starting at row m0 and ending at column n1 only needs t in [m0, n1); blocks entirely
// below the diagonal are skipped (C is pre-zeroed). Lower entries inside diagonal blocks come out
// as exact zeros because every product there has a zero factor.
__aicore__ inline bool BlockKRange(const TriGrid& g, uint32_t m0, uint32_t n0, uint32_t bn,
                                   uint32_t& kBegin, uint32_t& kLen)
{
    uint32_t n1 = n0 + bn;
    if (m0 >= n1) {
        return false;
    }
    kBegin = m0;
    uint32_t kEnd = n1 < g.k ? n1 : g.k;
    if (kEnd <= kBegin) {
        return false;
    }
    kLen = kEnd - kBegin;
    return true;
}

template <typename T>
class UpperTriProduct {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, T>;

    __aicore__ inline UpperTriProduct() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TriGrid& grid, const TCubeTiling* tiling)
    {
        g = grid;
        aGm.SetGlobalBuffer((__gm__ T*)a, (uint64_t)g.m * g.k);
        bGm.SetGlobalBuffer((__gm__ T*)b, (uint64_t)g.k * g.n);
        cGm.SetGlobalBuffer((__gm__ T*)c, (uint64_t)g.m * g.n);
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, tiling);
    }

    __aicore__ inline void Process()
    {
        uint32_t total = g.gridM * g.gridN;
        for (uint32_t blk = GetBlockIdx(); blk < total; blk += GetBlockNum()) {
            uint32_t bm = blk / g.gridN;
            uint32_t bnIdx = blk % g.gridN;
            uint32_t m0 = bm * g.blockM;
            uint32_t n0 = bnIdx * g.blockN;
            uint32_t curM = g.m - m0 < g.blockM ? g.m - m0 : g.blockM;
            uint32_t curN = g.n - n0 < g.blockN ? g.n - n0 : g.blockN;
            uint32_t kBegin = 0, kLen = 0;
            if (!BlockKRange(g, m0, n0, curN, kBegin, kLen)) {
                continue;
            }
            mm.SetTail(curM, curN, kLen);
            mm.SetTensorA(aGm[(uint64_t)m0 * g.k + kBegin]);
            mm.SetTensorB(bGm[(uint64_t)kBegin * g.n + n0]);
            mm.IterateAll(cGm[(uint64_t)m0 * g.n + n0]);
        }
        mm.End();
    }

private:
    TPipe pipe;
    Matmul<AType, BType, CType, BiasType> mm;
    GlobalTensor<T> aGm, bGm, cGm;
    TriGrid g;
};

extern "C" __global__ __aicore__ void upper_tri_product_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    GET_TILING_DATA(td, tiling);
    TriGrid grid{td.m, td.n, td.k, td.blockM, td.blockN, td.gridM, td.gridN};
    if (TILING_KEY_IS(1)) {
        UpperTriProduct<half> op;
        op.Init(a, b, c, grid, &td.mmTiling);
        op.Process();
    } else {
        UpperTriProduct<float> op;
        op.Init(a, b, c, grid, &td.mmTiling);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Expects upper-triangular A and B (as produced by torch.triu); the result is triu(A @ B).
at::Tensor upper_tri_product_npu(const at::Tensor& a, const at::Tensor& b)
{
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && a.size(1) == b.size(0), "shape mismatch");
    at::Tensor ac = a.contiguous();
    at::Tensor bc = b.to(ac.scalar_type()).contiguous();
    // blocks strictly below the diagonal are never written by the kernel
    at::Tensor c = at::zeros({ac.size(0), bc.size(1)}, ac.options());
    EXEC_NPU_CMD(aclnnUpperTriProductCustom, ac, bc, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("upper_tri_product_custom", &upper_tri_product_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("upper_tri_product_custom", &upper_tri_product_npu, "triu(A @ B) for upper-triangular A, B");
}
"""
