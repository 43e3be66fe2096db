project_json_src='''
[
    {
        "op": "PositiveFeatureMatmulCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "a", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]},
            {"name": "b", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "output_desc": [
            {"name": "c", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "attr": [
            {"name": "trans_a", "param_type": "optional", "type": "bool", "default_value": "false"},
            {"name": "feature_a", "param_type": "optional", "type": "bool", "default_value": "true"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PositiveFeatureMatmulTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, m);
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, transA);
  TILING_DATA_FIELD_DEF(uint32_t, featureA);
  TILING_DATA_FIELD_DEF(uint32_t, mapTile);          // elements per feature-map tile
  TILING_DATA_FIELD_DEF(uint32_t, mapTilesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, mapTileNum);
  TILING_DATA_FIELD_DEF(uint32_t, vecCoreNum);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PositiveFeatureMatmulCustom, PositiveFeatureMatmulTilingData)
}
"""

host_operator_src="""
#include "positive_feature_matmul_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
constexpr uint32_t MAP_TILE = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& as = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& bs = context->GetInputShape(1)->GetStorageShape();
    bool transA = *context->GetAttrs()->GetAttrPointer<bool>(0);
    bool featureA = *context->GetAttrs()->GetAttrPointer<bool>(1);

    uint32_t batch = as.GetDim(0);
    uint32_t m = transA ? as.GetDim(2) : as.GetDim(1);
    uint32_t k = transA ? as.GetDim(1) : as.GetDim(2);
    uint32_t n = bs.GetDim(2);
    if (bs.GetDim(1) != k || bs.GetDim(0) != batch) return ge::GRAPH_FAILED;

    bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    auto dt = isHalf ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;

    uint32_t aicNum = plat.GetCoreNumAic();
    uint32_t aivNum = plat.GetCoreNumAiv();
    matmul_tiling::MultiCoreMatmulTiling mm(plat);
    mm.SetDim(aicNum);
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, transA);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, false);
    mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mm.SetShape(m, n, k);
    mm.SetOrgShape(m, n, k);
    mm.EnableBias(false);
    mm.SetBufferSpace(-1, -1, -1);

    PositiveFeatureMatmulTilingData td;
    if (mm.GetTiling(td.cube) == -1) return ge::GRAPH_FAILED;

    uint64_t aElems = (uint64_t)batch * m * k;
    uint32_t tileNum = static_cast<uint32_t>((aElems + MAP_TILE - 1) / MAP_TILE);
    td.set_batch(batch); td.set_m(m); td.set_n(n); td.set_k(k);
    td.set_transA(transA ? 1 : 0);
    td.set_featureA(featureA ? 1 : 0);
    td.set_mapTile(MAP_TILE);
    td.set_mapTileNum(tileNum);
    td.set_mapTilesPerCore((tileNum + aivNum - 1) / aivNum);
    td.set_vecCoreNum(aivNum);

    // mixed launch: blockDim counts cube cores, each paired with two vector cores
    context->SetBlockDim(aicNum);
    context->SetTilingKey(isHalf ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t typeSize = isHalf ? 2 : 4;
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + aElems * typeSize;   // phi(A) staging
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* as = context->GetInputShape(0);
    const gert::Shape* bs = context->GetInputShape(1);
    bool transA = *context->GetAttrs()->GetAttrPointer<bool>(0);
    gert::Shape* cs = context->GetOutputShape(0);
    cs->SetDimNum(3);
    cs->SetDim(0, as->GetDim(0));
    cs->SetDim(1, transA ? as->GetDim(2) : as->GetDim(1));
    cs->SetDim(2, bs->GetDim(2));
    return GRAPH_SUCCESS;
}
static graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class PositiveFeatureMatmulCustom : public OpDef {
public:
    explicit PositiveFeatureMatmulCustom(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("trans_a").AttrType(OPTIONAL).Bool(false);
        this->Attr("feature_a").AttrType(OPTIONAL).Bool(true);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PositiveFeatureMatmulCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;

constexpr int32_t BUFFER_NUM = 2;
constexpr float FEATURE_EPS = 1e-6f;

// phi(a) = relu(a) + eps, elementwise, streamed from A into the workspace copy.
template <typename T>
class FeatureMapStage {
public:
    __aicore__ inline void Run(TPipe& pipe, GlobalTensor<T>& src, GlobalTensor<T>& dst,
                               const PositiveFeatureMatmulTilingData& td)
    {
        uint32_t tile = td.mapTile;
        pipe.InitBuffer(inQ, BUFFER_NUM, tile * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tile * sizeof(T));
        uint64_t total = (uint64_t)td.batch * td.m * td.k;
        uint32_t t0 = GetBlockIdx() * td.mapTilesPerCore;
        uint32_t t1 = t0 + td.mapTilesPerCore;
        if (t1 > td.mapTileNum) t1 = td.mapTileNum;
        for (uint32_t t = t0; t < t1; ++t) {
            uint64_t off = (uint64_t)t * tile;
            uint32_t len = total - off < tile ? static_cast<uint32_t>(total - off) : tile;
            LocalTensor<T> x = inQ.AllocTensor<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
            DataCopyPad(x, src[off], cp, pad);
            inQ.EnQue(x);
            x = inQ.DeQue<T>();
            LocalTensor<T> y = outQ.AllocTensor<T>();
            uint32_t n = (len + 15) / 16 * 16;
            Relu(y, x, n);
            Adds(y, y, static_cast<T>(FEATURE_EPS), n);
            outQ.EnQue(y);
            inQ.FreeTensor(x);
            y = outQ.DeQue<T>();
            DataCopyPad(dst[off], y, cp);
            outQ.FreeTensor(y);
        }
    }

private:
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
};

// C[b] = op(A'[b]) @ B[b], A' = phi(A) (workspace) or A itself.
template <typename T, bool TRANS_A>
class BatchedFeatureMatmul {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T, TRANS_A>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T, false>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR usrWs,
                                const PositiveFeatureMatmulTilingData& td)
    {
        td_ = td;
        aGm.SetGlobalBuffer((__gm__ T*)a);
        bGm.SetGlobalBuffer((__gm__ T*)b);
        cGm.SetGlobalBuffer((__gm__ T*)c);
        phiGm.SetGlobalBuffer((__gm__ T*)usrWs);
    }

    __aicore__ inline void Process()
    {
        if (td_.featureA) {
            if ASCEND_IS_AIV {
                FeatureMapStage<T> stage;
                stage.Run(pipe, aGm, phiGm, td_);
            }
            SyncAll<false>();
            pipe.Reset();
        }
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td_.cube);
        GlobalTensor<T>& lhs = td_.featureA ? phiGm : aGm;

        const TCubeTiling& ct = td_.cube;
        uint32_t mBlocks = (ct.M + ct.singleCoreM - 1) / ct.singleCoreM;
        uint32_t nBlocks = (ct.N + ct.singleCoreN - 1) / ct.singleCoreN;
        uint32_t coreIdx = GetBlockIdx();
        if ASCEND_IS_AIV {
            coreIdx /= GetTaskRation();
        }
        if (coreIdx >= mBlocks * nBlocks) return;
        uint32_t mi = coreIdx % mBlocks;
        uint32_t ni = coreIdx / mBlocks;
        uint32_t tailM = ct.M - mi * ct.singleCoreM;
        uint32_t tailN = ct.N - ni * ct.singleCoreN;
        tailM = tailM < (uint32_t)ct.singleCoreM ? tailM : ct.singleCoreM;
        tailN = tailN < (uint32_t)ct.singleCoreN ? tailN : ct.singleCoreN;

        uint64_t aStride = (uint64_t)td_.m * td_.k;
        uint64_t bStride = (uint64_t)td_.k * td_.n;
        uint64_t cStride = (uint64_t)td_.m * td_.n;
        // row-major A is (m, k); transposed A is stored (k, m)
        uint64_t aOff = TRANS_A ? (uint64_t)mi * ct.singleCoreM : (uint64_t)mi * ct.singleCoreM * td_.k;
        uint64_t bOff = (uint64_t)ni * ct.singleCoreN;
        uint64_t cOff = (uint64_t)mi * ct.singleCoreM * td_.n + (uint64_t)ni * ct.singleCoreN;

        for (uint32_t bi = 0; bi < td_.batch; ++bi) {
            mm.SetTensorA(lhs[bi * aStride + aOff], TRANS_A);
            mm.SetTensorB(bGm[bi * bStride + bOff]);
            mm.SetTail(tailM, tailN);
            mm.IterateAll(cGm[bi * cStride + cOff]);
        }
        mm.End();
    }

private:
    TPipe pipe;
    Matmul<AType, BType, CType, BiasType> mm;
    GlobalTensor<T> aGm, bGm, cGm, phiGm;
    PositiveFeatureMatmulTilingData td_;
};

template <typename T>
__aicore__ inline void Dispatch(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR ws,
                                const PositiveFeatureMatmulTilingData& td)
{
    if (td.transA) {
        BatchedFeatureMatmul<T, true> op;
        op.Init(a, b, c, ws, td);
        op.Process();
    } else {
        BatchedFeatureMatmul<T, false> op;
        op.Init(a, b, c, ws, td);
        op.Process();
    }
}

extern "C" __global__ __aicore__ void positive_feature_matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    if (TILING_KEY_IS(0)) {
        Dispatch<float>(a, b, c, usr, td);
    } else if (TILING_KEY_IS(1)) {
        Dispatch<half>(a, b, c, usr, td);
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// c = op(phi(a)) @ b per batch, phi(a) = relu(a) + 1e-6 when feature_a is set
at::Tensor positive_feature_matmul_npu(const at::Tensor& a, const at::Tensor& b, bool trans_a, bool feature_a)
{
    TORCH_CHECK(a.dim() == 3 && b.dim() == 3, "batched (B, *, *) operands expected");
    int64_t m = trans_a ? a.size(2) : a.size(1);
    at::Tensor ac = a.contiguous();
    at::Tensor bc = b.contiguous();
    at::Tensor c = at::empty({a.size(0), m, b.size(2)}, a.options());
    EXEC_NPU_CMD(aclnnPositiveFeatureMatmulCustom, ac, bc, trans_a, feature_a, c);
    return c;
}

// out = phi(Q) @ (phi(K)^T @ V)
at::Tensor kernelized_attention_npu(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v)
{
    at::Tensor kv = positive_feature_matmul_npu(k, v, /*trans_a=*/true, /*feature_a=*/true);
    return positive_feature_matmul_npu(q, kv, /*trans_a=*/false, /*feature_a=*/true);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("positive_feature_matmul_custom", &positive_feature_matmul_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("positive_feature_matmul_custom", &positive_feature_matmul_npu, "batched phi(A) @ B");
    m.def("kernelized_attention", &kernelized_attention_npu, "phi(Q) (phi(K)^T V)");
}
"""
