project_json_src='''
[
    {
        "op": "ScaledDotProductAttentionInferenceCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "q",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "k",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "v",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "out",
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
BEGIN_TILING_DATA_DEF(ScaledDotProductAttentionInferenceCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, blockRows);      // query rows handled per work unit
  TILING_DATA_FIELD_DEF(uint32_t, blocksPerBatch); // ceil(seqLen / blockRows)
  TILING_DATA_FIELD_DEF(float, scale);             // 1 / sqrt(headDim)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, qkTiling);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, pvTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaledDotProductAttentionInferenceCustom, ScaledDotProductAttentionInferenceCustomTilingData)
}
"""

host_operator_src="""
#include <cmath>
#include "scaled_dot_product_attention_inference_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScaledDotProductAttentionInferenceCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    const gert::Shape &qShape = context->GetInputShape(0)->GetStorageShape();
    uint32_t batch = static_cast<uint32_t>(qShape.GetDim(0));
    uint32_t seq = static_cast<uint32_t>(qShape.GetDim(1));
    uint32_t dim = static_cast<uint32_t>(qShape.GetDim(2));

    uint32_t aicNum = platform.GetCoreNumAic();
    if (aicNum == 0) {
        aicNum = 1;
    }
    // split all query rows of all batches evenly over the cube cores, rounded to 16 rows
    uint32_t totalRows = batch * seq;
    uint32_t blockRows = (totalRows + aicNum - 1) / aicNum;
    blockRows = (blockRows + 15) / 16 * 16;
    if (blockRows > seq) {
        blockRows = seq;
    }
    uint32_t blocksPerBatch = (seq + blockRows - 1) / blockRows;

    // S = Q_blk * K^T : [blockRows, dim] x [dim, seq]
    matmul_tiling::MatmulApiTiling qkApi(platform);
    qkApi.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    qkApi.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    qkApi.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    qkApi.SetOrgShape(seq, seq, dim);
    qkApi.SetShape(blockRows, seq, dim);
    qkApi.SetBias(false);
    qkApi.SetBufferSpace(-1, -1, -1);
    if (qkApi.GetTiling(tiling.qkTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    // O = P_blk * V : [blockRows, seq] x [seq, dim]
    matmul_tiling::MatmulApiTiling pvApi(platform);
    pvApi.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    pvApi.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    pvApi.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    pvApi.SetOrgShape(seq, dim, seq);
    pvApi.SetShape(blockRows, dim, seq);
    pvApi.SetBias(false);
    pvApi.SetBufferSpace(-1, -1, -1);
    if (pvApi.GetTiling(tiling.pvTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    tiling.set_batch(batch);
    tiling.set_seqLen(seq);
    tiling.set_headDim(dim);
    tiling.set_blockRows(blockRows);
    tiling.set_blocksPerBatch(blocksPerBatch);
    tiling.set_scale(1.0f / std::sqrt(static_cast<float>(dim)));

    context->SetBlockDim(aicNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // system workspace for the matmul library + the full score matrix per batch
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize() +
            static_cast<size_t>(batch) * seq * seq * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* qShape = context->GetInputShape(0);
    const gert::Shape* vShape = context->GetInputShape(2);
    gert::Shape* outShape = context->GetOutputShape(0);
    *outShape = *qShape;
    outShape->SetDim(qShape->GetDimNum() - 1, vShape->GetDim(vShape->GetDimNum() - 1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ScaledDotProductAttentionInferenceCustom : public OpDef {
public:
    explicit ScaledDotProductAttentionInferenceCustom(const char* name) : OpDef(name)
    {
        this->Input("q").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("k").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("v").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ScaledDotProductAttentionInferenceCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

constexpr int32_t BUFFER_NUM = 2;

using AType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BTransType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float, true>;
using BType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using CType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

// Two-pass attention per block of query rows:
//   1) cube:   S = Q_blk * K^T               (written to workspace)
//   2) vector: P = softmax(S * scale) row by row (in place in workspace)
//   3) cube:   O_blk = P * V
class KernelSdpa {
public:
    __aicore__ inline KernelSdpa() {}
    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR out, GM_ADDR userWs,
                                const ScaledDotProductAttentionInferenceCustomTilingData &td)
    {
        batch = td.batch;
        seq = td.seqLen;
        dim = td.headDim;
        blockRows = td.blockRows;
        blocksPerBatch = td.blocksPerBatch;
        scale = td.scale;

        qGm.SetGlobalBuffer((__gm__ float *)q, (uint64_t)batch * seq * dim);
        kGm.SetGlobalBuffer((__gm__ float *)k, (uint64_t)batch * seq * dim);
        vGm.SetGlobalBuffer((__gm__ float *)v, (uint64_t)batch * seq * dim);
        oGm.SetGlobalBuffer((__gm__ float *)out, (uint64_t)batch * seq * dim);
        sGm.SetGlobalBuffer((__gm__ float *)userWs, (uint64_t)batch * seq * seq);

        pipe.InitBuffer(inQ, BUFFER_NUM, seq * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, seq * sizeof(float));
        pipe.InitBuffer(reduceBuf, seq * sizeof(float));
        pipe.InitBuffer(scalarBuf, 32);
    }

    __aicore__ inline void Process()
    {
        uint32_t units = batch * blocksPerBatch;
        uint32_t workers = AscendC::GetBlockNum();
        for (uint32_t u = AscendC::GetBlockIdx(); u < units; u += workers) {
            uint32_t b = u / blocksPerBatch;
            uint32_t rowStart = (u % blocksPerBatch) * blockRows;
            uint32_t rows = blockRows;
            if (rowStart + rows > seq) {
                rows = seq - rowStart;
            }
            uint64_t qOff = ((uint64_t)b * seq + rowStart) * dim;
            uint64_t sOff = ((uint64_t)b * seq + rowStart) * seq;
            uint64_t kvOff = (uint64_t)b * seq * dim;

            // ---- S = Q K^T ----
            mmQK.SetTail(rows, seq, dim);
            mmQK.SetTensorA(qGm[qOff]);
            mmQK.SetTensorB(kGm[kvOff], true);
            mmQK.IterateAll(sGm[sOff]);
            mmQK.End();
            AscendC::PipeBarrier<PIPE_ALL>();

            // ---- row softmax ----
            for (uint32_t r = 0; r < rows; ++r) {
                SoftmaxRow(sOff + (uint64_t)r * seq);
            }
            AscendC::PipeBarrier<PIPE_ALL>();

            // ---- O = P V ----
            mmPV.SetTail(rows, dim, seq);
            mmPV.SetTensorA(sGm[sOff]);
            mmPV.SetTensorB(vGm[kvOff]);
            mmPV.IterateAll(oGm[qOff]);
            mmPV.End();
        }
    }

    Matmul<AType, BTransType, CType> mmQK;
    Matmul<AType, BType, CType> mmPV;
    AscendC::TPipe pipe;

private:
    __aicore__ inline void SoftmaxRow(uint64_t off)
    {
        AscendC::LocalTensor<float> row = inQ.AllocTensor<float>();
        AscendC::DataCopy(row, sGm[off], seq);
        inQ.EnQue(row);
        row = inQ.DeQue<float>();

        AscendC::LocalTensor<float> res = outQ.AllocTensor<float>();
        AscendC::LocalTensor<float> work = reduceBuf.Get<float>();
        AscendC::LocalTensor<float> sc = scalarBuf.Get<float>();

        AscendC::Muls(res, row, scale, seq);
        AscendC::ReduceMax(sc, res, work, seq, false);
        WaitVecToScalar();
        float rowMax = sc.GetValue(0);

        AscendC::Adds(res, res, -rowMax, seq);
        AscendC::Exp(res, res, seq);
        AscendC::ReduceSum(sc, res, work, seq);
        WaitVecToScalar();
        float inv = 1.0f / sc.GetValue(0);
        AscendC::Muls(res, res, inv, seq);

        inQ.FreeTensor(row);
        outQ.EnQue(res);
        res = outQ.DeQue<float>();
        AscendC::DataCopy(sGm[off], res, seq);
        outQ.FreeTensor(res);
    }

    __aicore__ inline void WaitVecToScalar()
    {
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
    }

    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> reduceBuf, scalarBuf;
    AscendC::GlobalTensor<float> qGm, kGm, vGm, oGm, sGm;
    uint32_t batch, seq, dim, blockRows, blocksPerBatch;
    float scale;
};

extern "C" __global__ __aicore__ void scaled_dot_product_attention_inference_custom(
    GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    GET_TILING_DATA(tilingData, tiling);
    GM_ADDR userWs = AscendC::GetUserWorkspace(workspace);
    if (userWs == nullptr) {
        return;
    }
    KernelSdpa op;
    REGISTER_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), op.mmQK, &tilingData.qkTiling,
                        op.mmPV, &tilingData.pvTiling);
    op.Init(q, k, v, out, userWs, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor sdpa_inference_custom_impl_npu(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v) {
    TORCH_CHECK(q.dim() == 3, "expected Q of shape [batch, seq, dim]");
    at::Tensor qc = q.contiguous();
    at::Tensor kc = k.contiguous();
    at::Tensor vc = v.contiguous();
    at::Tensor out = at::empty({q.size(0), q.size(1), v.size(2)}, q.options());
    EXEC_NPU_CMD(aclnnScaledDotProductAttentionInferenceCustom, qc, kc, vc, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("scaled_dot_product_attention_inference_custom", &sdpa_inference_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("scaled_dot_product_attention_inference_custom", &sdpa_inference_custom_impl_npu,
          "softmax(Q K^T / sqrt(d)) V");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, Q, K, V):
        return custom_ops_lib.scaled_dot_product_attention_inference_custom(Q, K, V)
'''
