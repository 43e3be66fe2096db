project_json_src='''
[
    {
        "op": "ScaledDotProductAttentionCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "q", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "k", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "v", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaledDotProductAttentionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, heads);        // batch * num_heads
  TILING_DATA_FIELD_DEF(uint32_t, seqQ);
  TILING_DATA_FIELD_DEF(uint32_t, seqK);
  TILING_DATA_FIELD_DEF(uint32_t, dim);
  TILING_DATA_FIELD_DEF(uint32_t, dimV);
  TILING_DATA_FIELD_DEF(uint32_t, blockM);       // query rows per task
  TILING_DATA_FIELD_DEF(uint32_t, smRows);       // rows per softmax pass in UB
  TILING_DATA_FIELD_DEF(uint32_t, smTmpBytes);
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, qkTiling);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, pvTiling);
  TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, smTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaledDotProductAttentionCustom, ScaledDotProductAttentionCustomTilingData)
}
"""

host_operator_src="""
#include <cmath>
#include "scaled_dot_product_attention_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
constexpr uint32_t BLOCK_M = 64;
constexpr uint32_t SM_ROWS = 8;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScaledDotProductAttentionCustomTilingData tiling;
    auto qs = context->GetInputShape(0)->GetStorageShape();
    auto ks = context->GetInputShape(1)->GetStorageShape();
    auto vs = context->GetInputShape(2)->GetStorageShape();
    uint32_t rank = qs.GetDimNum();
    uint32_t heads = 1;
    for (uint32_t i = 0; i + 2 < rank; i++) heads *= qs.GetDim(i);
    uint32_t sq = qs.GetDim(rank - 2);
    uint32_t d = qs.GetDim(rank - 1);
    uint32_t sk = ks.GetDim(rank - 2);
    uint32_t dv = vs.GetDim(rank - 1);
    uint32_t bm = sq < BLOCK_M ? sq : BLOCK_M;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    // S = Q_blk * K^T : (bm x d) * (d x sk)
    MatmulApiTiling qk(plat);
    qk.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    qk.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    qk.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    qk.SetShape(bm, sk, d);
    qk.SetOrgShape(bm, sk, d);
    qk.SetBias(false);
    qk.SetBufferSpace(-1, -1, -1);
    if (qk.GetTiling(tiling.qkTiling) == -1) return ge::GRAPH_FAILED;

    // O = P * V : (bm x sk) * (sk x dv)
    MatmulApiTiling pv(plat);
    pv.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    pv.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    pv.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    pv.SetShape(bm, dv, sk);
    pv.SetOrgShape(bm, dv, sk);
    pv.SetBias(false);
    pv.SetBufferSpace(-1, -1, -1);
    if (pv.GetTiling(tiling.pvTiling) == -1) return ge::GRAPH_FAILED;

    // row softmax over sk in chunks of SM_ROWS rows
    ge::Shape smShape({SM_ROWS, sk});
    uint32_t smTmp = AscendC::GetSoftMaxMinTmpSize(smShape, sizeof(float), false);
    AscendC::SoftMaxTilingFunc(smShape, sizeof(float), smTmp, tiling.smTiling);

    uint32_t aic = plat.GetCoreNumAic();
    tiling.set_heads(heads);
    tiling.set_seqQ(sq);
    tiling.set_seqK(sk);
    tiling.set_dim(d);
    tiling.set_dimV(dv);
    tiling.set_blockM(bm);
    tiling.set_smRows(SM_ROWS);
    tiling.set_smTmpBytes(smTmp);
    tiling.set_scale(1.0f / std::sqrt((float)d));

    context->SetBlockDim(aic);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // per vector worker: one bm x sk score block
    uint32_t workers = aic * 2;
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + (size_t)workers * bm * sk * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* qs = context->GetInputShape(0);
    const gert::Shape* vs = context->GetInputShape(2);
    gert::Shape* os = context->GetOutputShape(0);
    *os = *qs;
    os->SetDim(qs->GetDimNum() - 1, vs->GetDim(vs->GetDimNum() - 1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ScaledDotProductAttentionCustom : public OpDef {
public:
    explicit ScaledDotProductAttentionCustom(const char* name) : OpDef(name)
    {
        this->Input("q").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("k").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("v").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ScaledDotProductAttentionCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;

using QType  = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using KtType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using VType  = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using SType  = MatmulType<TPosition::GM, CubeFormat::ND, float>;

// task = (head, block of bm query rows):  S = QK^T -> softmax(S*scale) -> O = P V
class KernelSdpa {
public:
    __aicore__ inline KernelSdpa() {}
    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR out, GM_ADDR usrWs,
                                const ScaledDotProductAttentionCustomTilingData& td)
    {
        heads = td.heads; sq = td.seqQ; sk = td.seqK; d = td.dim; dv = td.dimV;
        bm = td.blockM; smRows = td.smRows; scale = td.scale;
        smTiling = td.smTiling;

        qGm.SetGlobalBuffer((__gm__ float*)q, (uint64_t)heads * sq * d);
        kGm.SetGlobalBuffer((__gm__ float*)k, (uint64_t)heads * sk * d);
        vGm.SetGlobalBuffer((__gm__ float*)v, (uint64_t)heads * sk * dv);
        oGm.SetGlobalBuffer((__gm__ float*)out, (uint64_t)heads * sq * dv);

        worker = GetBlockIdx();
        workers = GetBlockNum() * GetTaskRation();
        sGm.SetGlobalBuffer((__gm__ float*)usrWs + (uint64_t)worker * bm * sk, (uint64_t)bm * sk);

        pipe.InitBuffer(inQue, 1, smRows * sk * sizeof(float));
        pipe.InitBuffer(outQue, 1, smRows * sk * sizeof(float));
        pipe.InitBuffer(maxBuf, smRows * 8 * sizeof(float));
        pipe.InitBuffer(sumBuf, smRows * 8 * sizeof(float));
        pipe.InitBuffer(tmpBuf, td.smTmpBytes);
    }

    template <class MMQK, class MMPV>
    __aicore__ inline void Process(MMQK& mmQK, MMPV& mmPV)
    {
        uint32_t qBlocks = (sq + bm - 1) / bm;
        uint32_t tasks = heads * qBlocks;
        for (uint32_t t = worker; t < tasks; t += workers) {
            uint32_t h = t / qBlocks;
            uint32_t q0 = (t % qBlocks) * bm;
            uint32_t rows = (q0 + bm <= sq) ? bm : (sq - q0);

            // scores
            mmQK.SetTail(rows, sk, d);
            mmQK.SetTensorA(qGm[((uint64_t)h * sq + q0) * d]);
            mmQK.SetTensorB(kGm[(uint64_t)h * sk * d], true);
            mmQK.IterateAll(sGm);
            mmQK.End();

            SoftmaxRows(rows);
            PipeBarrier<PIPE_ALL>();

            // output
            mmPV.SetTail(rows, dv, sk);
            mmPV.SetTensorA(sGm);
            mmPV.SetTensorB(vGm[(uint64_t)h * sk * dv]);
            mmPV.IterateAll(oGm[((uint64_t)h * sq + q0) * dv]);
            mmPV.End();
        }
    }

private:
    __aicore__ inline void SoftmaxRows(uint32_t rows)
    {
        LocalTensor<float> mx = maxBuf.Get<float>();
        LocalTensor<float> sm = sumBuf.Get<float>();
        LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
        for (uint32_t r = 0; r < rows; r += smRows) {
            uint32_t n = (r + smRows <= rows) ? smRows : (rows - r);
            LocalTensor<float> sIn = inQue.AllocTensor<float>();
            DataCopy(sIn, sGm[(uint64_t)r * sk], n * sk);
            inQue.EnQue(sIn);
            sIn = inQue.DeQue<float>();

            Muls(sIn, sIn, scale, n * sk);
            LocalTensor<float> pOut = outQue.AllocTensor<float>();
            SoftMaxShapeInfo shp{n, sk, n, sk};
            SoftMax<float>(pOut, sm, mx, sIn, tmp, smTiling, shp);
            inQue.FreeTensor(sIn);
            outQue.EnQue(pOut);

            pOut = outQue.DeQue<float>();
            DataCopy(sGm[(uint64_t)r * sk], pOut, n * sk);
            outQue.FreeTensor(pOut);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQue;
    TQue<QuePosition::VECOUT, 1> outQue;
    TBuf<TPosition::VECCALC> maxBuf, sumBuf, tmpBuf;
    GlobalTensor<float> qGm, kGm, vGm, oGm, sGm;
    SoftMaxTiling smTiling;
    uint32_t heads, sq, sk, d, dv, bm, smRows;
    uint32_t worker, workers;
    float scale;

public:
    TPipe* GetPipe() { return &pipe; }
};

extern "C" __global__ __aicore__ void scaled_dot_product_attention_custom(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR out,
                                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);

    Matmul<QType, KtType, SType, SType> mmQK;
    Matmul<QType, VType, SType, SType> mmPV;
    KernelSdpa op;
    op.Init(q, k, v, out, usrWs, td);
    REGIST_MATMUL_OBJ(op.GetPipe(), GetSysWorkSpacePtr(), mmQK, &td.qkTiling, mmPV, &td.pvTiling);
    op.Process(mmQK, mmPV);
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor scaled_dot_product_attention_custom_impl_npu(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v)
{
    TORCH_CHECK(q.dim() == 4 && k.dim() == 4 && v.dim() == 4, "expect (B, H, S, D) inputs");
    auto sizes = q.sizes().vec();
    sizes[3] = v.size(3);
    at::Tensor out = at::empty(sizes, q.options());
    EXEC_NPU_CMD(aclnnScaledDotProductAttentionCustom, q, k, v, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("scaled_dot_product_attention_custom", &scaled_dot_product_attention_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("scaled_dot_product_attention_custom", &scaled_dot_product_attention_custom_impl_npu,
          "softmax(Q K^T / sqrt(d)) V");
}
"""
