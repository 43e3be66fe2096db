project_json_src='''
[
    {
        "op": "CosineSimilarityLossCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "predictions",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            },
            {
                "name": "targets",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            }
        ],
        "output_desc": [
            {
                "name": "loss",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CosineSimilarityLossCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, dim);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsLeft);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, rowCap);     // UB slots reserved for per-row statistics
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, invBatch);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CosineSimilarityLossCustom, CosineSimilarityLossCustomTilingData)
}
"""

host_operator_src="""
#include "cosine_similarity_loss_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    CosineSimilarityLossCustomTilingData td;
    const auto& shp = context->GetInputShape(0)->GetStorageShape();
    uint32_t batch = shp.GetDim(0);
    uint32_t dim = 1;
    for (size_t i = 1; i < shp.GetDimNum(); ++i) {
        dim *= shp.GetDim(i);
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    if (cores > batch) cores = batch;

    uint32_t rowsPerCore = batch / cores;
    uint32_t rowsLeft = batch % cores;
    uint32_t maxRows = rowsPerCore + (rowsLeft ? 1 : 0);
    uint32_t rowCap = (maxRows + 63) / 64 * 64;   // whole repeat of 64 floats

    uint32_t tileLen = dim < MAX_TILE ? (dim + 7) / 8 * 8 : MAX_TILE;

    td.set_batch(batch);
    td.set_dim(dim);
    td.set_rowsPerCore(rowsPerCore);
    td.set_rowsLeft(rowsLeft);
    td.set_tileLen(tileLen);
    td.set_rowCap(rowCap);
    td.set_eps(1e-8f);
    td.set_invBatch(1.0f / static_cast<float>(batch));

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(0);   // scalar loss
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class CosineSimilarityLossCustom : public OpDef {
public:
    explicit CosineSimilarityLossCustom(const char* name) : OpDef(name)
    {
        this->Input("predictions").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("targets").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("loss").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(CosineSimilarityLossCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// loss = mean_i (1 - <p_i, t_i> / max(|p_i| * |t_i|, eps))
// Each core accumulates dot / |p|^2 / |t|^2 for its rows, turns them into (1 - cos)
// with vector ops, and atomically adds its share of the mean into the scalar output.
class KernelCosineLoss {
public:
    __aicore__ inline KernelCosineLoss() {}

    __aicore__ inline void Init(GM_ADDR pred, GM_ADDR tgt, GM_ADDR loss, const CosineSimilarityLossCustomTilingData& td)
    {
        dim = td.dim;
        tileLen = td.tileLen;
        rowCap = td.rowCap;
        eps = td.eps;
        invBatch = td.invBatch;

        uint32_t core = GetBlockIdx();
        rowCount = td.rowsPerCore + (core < td.rowsLeft ? 1 : 0);
        rowBegin = core * td.rowsPerCore + (core < td.rowsLeft ? core : td.rowsLeft);

        pGm.SetGlobalBuffer((__gm__ float*)pred);
        tGm.SetGlobalBuffer((__gm__ float*)tgt);
        lossGm.SetGlobalBuffer((__gm__ float*)loss, 1);

        pipe.InitBuffer(pQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(tQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(accDotBuf, tileLen * sizeof(float));
        pipe.InitBuffer(accPPBuf, tileLen * sizeof(float));
        pipe.InitBuffer(accTTBuf, tileLen * sizeof(float));
        pipe.InitBuffer(prodBuf, tileLen * sizeof(float));
        pipe.InitBuffer(workBuf, tileLen * sizeof(float));
        pipe.InitBuffer(redBuf, 8 * sizeof(float));
        pipe.InitBuffer(rowDotBuf, rowCap * sizeof(float));
        pipe.InitBuffer(rowPPBuf, rowCap * sizeof(float));
        pipe.InitBuffer(rowTTBuf, rowCap * sizeof(float));
        pipe.InitBuffer(outQ, 1, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (rowCount == 0) {
            return;
        }
        LocalTensor<float> rowDot = rowDotBuf.Get<float>();
        LocalTensor<float> rowPP = rowPPBuf.Get<float>();
        LocalTensor<float> rowTT = rowTTBuf.Get<float>();

        for (uint32_t r = 0; r < rowCount; ++r) {
            AccumulateRow(rowBegin + r);
            rowDot.SetValue(r, ReduceToScalar(accDotBuf.Get<float>()));
            rowPP.SetValue(r, ReduceToScalar(accPPBuf.Get<float>()));
            rowTT.SetValue(r, ReduceToScalar(accTTBuf.Get<float>()));
        }
        Finalize(rowDot, rowPP, rowTT);
    }

private:
    __aicore__ inline void AccumulateRow(uint32_t row)
    {
        LocalTensor<float> accDot = accDotBuf.Get<float>();
        LocalTensor<float> accPP = accPPBuf.Get<float>();
        LocalTensor<float> accTT = accTTBuf.Get<float>();
        LocalTensor<float> prod = prodBuf.Get<float>();
        Duplicate(accDot, 0.0f, tileLen);
        Duplicate(accPP, 0.0f, tileLen);
        Duplicate(accTT, 0.0f, tileLen);

        uint64_t base = static_cast<uint64_t>(row) * dim;
        for (uint32_t off = 0; off < dim; off += tileLen) {
            uint32_t len = (dim - off < tileLen) ? (dim - off) : tileLen;
            LocalTensor<float> pL = pQ.AllocTensor<float>();
            LocalTensor<float> tL = tQ.AllocTensor<float>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(pL, pGm[base + off], cp, pad);
            DataCopyPad(tL, tGm[base + off], cp, pad);
            pQ.EnQue(pL);
            tQ.EnQue(tL);

            pL = pQ.DeQue<float>();
            tL = tQ.DeQue<float>();
            Mul(prod, pL, tL, len);
            Add(accDot, accDot, prod, len);
            Mul(prod, pL, pL, len);
            Add(accPP, accPP, prod, len);
            Mul(prod, tL, tL, len);
            Add(accTT, accTT, prod, len);
            pQ.FreeTensor(pL);
            tQ.FreeTensor(tL);
        }
    }

    __aicore__ inline float ReduceToScalar(const LocalTensor<float>& acc)
    {
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        uint32_t n = (dim < tileLen) ? dim : tileLen;
        ReduceSum(red, acc, work, n);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        return red.GetValue(0);
    }

    __aicore__ inline void Finalize(LocalTensor<float>& rowDot, LocalTensor<float>& rowPP, LocalTensor<float>& rowTT)
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);

        // denom = max(sqrt(|p|^2 * |t|^2), eps)
        Mul(rowPP, rowPP, rowTT, rowCount);
        Sqrt(rowPP, rowPP, rowCount);
        Maxs(rowPP, rowPP, eps, rowCount);
        Div(rowDot, rowDot, rowPP, rowCount);
        // 1 - cos, pre-scaled by 1 / batch so the per-core partials just add up
        Muls(rowDot, rowDot, -1.0f, rowCount);
        Adds(rowDot, rowDot, 1.0f, rowCount);
        Muls(rowDot, rowDot, invBatch, rowCount);

        LocalTensor<float> outL = outQ.AllocTensor<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        ReduceSum(outL, rowDot, work, rowCount);
        outQ.EnQue(outL);
        outL = outQ.DeQue<float>();

        SetAtomicAdd<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(lossGm, outL, cp);
        SetAtomicNone();
        outQ.FreeTensor(outL);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> pQ, tQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<QuePosition::VECCALC> accDotBuf, accPPBuf, accTTBuf, prodBuf, workBuf, redBuf;
    TBuf<QuePosition::VECCALC> rowDotBuf, rowPPBuf, rowTTBuf;
    GlobalTensor<float> pGm, tGm, lossGm;

    uint32_t dim = 0;
    uint32_t tileLen = 0;
    uint32_t rowCap = 0;
    uint32_t rowBegin = 0;
    uint32_t rowCount = 0;
    float eps = 1e-8f;
    float invBatch = 1.0f;
};

extern "C" __global__ __aicore__ void cosine_similarity_loss_custom(GM_ADDR predictions, GM_ADDR targets,
                                                                   GM_ADDR loss, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelCosineLoss op;
    op.Init(predictions, targets, loss, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor cosine_similarity_loss_impl_npu(const at::Tensor& predictions, const at::Tensor& targets)
{
    TORCH_CHECK(predictions.sizes() == targets.sizes(), "predictions / targets shape mismatch");
    at::Tensor p = predictions.contiguous();
    at::Tensor t = targets.contiguous();
    // the kernel accumulates per-core partial sums atomically, so start from zero
    at::Tensor loss = at::zeros({}, p.options());
    EXEC_NPU_CMD(aclnnCosineSimilarityLossCustom, p, t, loss);
    return loss;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("cosine_similarity_loss_custom", &cosine_similarity_loss_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("cosine_similarity_loss_custom", &cosine_similarity_loss_impl_npu, "mean(1 - cosine_similarity(p, t, dim=1))");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, predictions, targets):
        return custom_ops_lib.cosine_similarity_loss_custom(predictions, targets)
'''
