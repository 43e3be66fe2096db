project_json_src='''
[
    {
        "op": "CrossEntropyLossCustom",
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
                    "int64"
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
BEGIN_TILING_DATA_DEF(CrossEntropyLossCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batchSize);
  TILING_DATA_FIELD_DEF(uint32_t, numClasses);
  TILING_DATA_FIELD_DEF(uint32_t, alignedClasses);   // numClasses rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, remainderRows);
  TILING_DATA_FIELD_DEF(uint32_t, flushRows);        // per-sample losses buffered before one store
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CrossEntropyLossCustom, CrossEntropyLossCustomTilingData)
}
"""

host_operator_src="""
#include "cross_entropy_loss_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t FLUSH_ROWS = 256;
constexpr uint32_t MAX_CLASSES_IN_UB = 16384;   // 64 KB per logits row buffer

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platformInfo = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platformInfo.GetCoreNumAiv();

    const gert::Shape &predShape = context->GetInputShape(0)->GetOriginShape();
    if (predShape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t batchSize = static_cast<uint32_t>(predShape.GetDim(0));
    uint32_t numClasses = static_cast<uint32_t>(predShape.GetDim(1));
    uint32_t aligned = (numClasses + 7) / 8 * 8;
    if (aligned > MAX_CLASSES_IN_UB) {
        return ge::GRAPH_FAILED;
    }

    uint32_t blockDim = coreNum < batchSize ? coreNum : batchSize;
    if (blockDim == 0) {
        blockDim = 1;
    }

    CrossEntropyLossCustomTilingData tiling;
    tiling.set_batchSize(batchSize);
    tiling.set_numClasses(numClasses);
    tiling.set_alignedClasses(aligned);
    tiling.set_rowsPerCore(batchSize / blockDim);
    tiling.set_remainderRows(batchSize % blockDim);
    tiling.set_flushRows(FLUSH_ROWS);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}


namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    // the kernel emits one loss value per sample; the mean is taken on the host side
    const gert::Shape* predShape = context->GetInputShape(0);
    gert::Shape* lossShape = context->GetOutputShape(0);
    lossShape->SetDimNum(1);
    lossShape->SetDim(0, predShape->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}


namespace ops {
class CrossEntropyLossCustom : public OpDef {
public:
    explicit CrossEntropyLossCustom(const char* name) : OpDef(name)
    {
        this->Input("predictions")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("targets")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("loss")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);

        this->AICore()
            .SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(CrossEntropyLossCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Per-sample cross entropy:  loss_i = logsumexp(p_i) - p_i[t_i]
//                                  = max_i + log(sum_j exp(p_ij - max_i)) - p_i[t_i]
// Each core owns a contiguous range of samples; one row of logits (4096 floats) fits in UB.
// Losses are staged in UB and written back in groups of flushRows.
class KernelCrossEntropy {
public:
    __aicore__ inline KernelCrossEntropy() {}
    __aicore__ inline void Init(GM_ADDR pred, GM_ADDR target, GM_ADDR loss,
                                const CrossEntropyLossCustomTilingData &td)
    {
        classes = td.numClasses;
        alignedClasses = td.alignedClasses;
        flushRows = td.flushRows;

        uint32_t core = AscendC::GetBlockIdx();
        rowCount = td.rowsPerCore + (core < td.remainderRows ? 1 : 0);
        rowBegin = core * td.rowsPerCore + (core < td.remainderRows ? core : td.remainderRows);

        predGm.SetGlobalBuffer((__gm__ float *)pred, static_cast<uint64_t>(td.batchSize) * classes);
        targetGm.SetGlobalBuffer((__gm__ int64_t *)target, td.batchSize);
        lossGm.SetGlobalBuffer((__gm__ float *)loss, td.batchSize);

        pipe.InitBuffer(rowQueue, BUFFER_NUM, alignedClasses * sizeof(float));
        pipe.InitBuffer(expBuf, alignedClasses * sizeof(float));
        pipe.InitBuffer(workBuf, alignedClasses * sizeof(float));
        pipe.InitBuffer(scalarBuf, 16 * sizeof(float));
        pipe.InitBuffer(lossBuf, flushRows * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (rowCount == 0) {
            return;
        }
        AscendC::LocalTensor<float> staged = lossBuf.Get<float>();
        uint32_t filled = 0;
        uint32_t flushedUpTo = 0;

        // prefetch the first row, then keep one row in flight while computing the current one
        LoadRow(0);
        for (uint32_t r = 0; r < rowCount; ++r) {
            if (r + 1 < rowCount) {
                LoadRow(r + 1);
            }
            float value = RowLoss(r);
            staged.SetValue(filled, value);
            ++filled;
            if (filled == flushRows || r + 1 == rowCount) {
                Flush(staged, flushedUpTo, filled);
                flushedUpTo += filled;
                filled = 0;
            }
        }
    }

private:
    __aicore__ inline void LoadRow(uint32_t localRow)
    {
        AscendC::LocalTensor<float> rowLocal = rowQueue.AllocTensor<float>();
        uint64_t gmOff = static_cast<uint64_t>(rowBegin + localRow) * classes;
        AscendC::DataCopyExtParams cp{1, classes * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(rowLocal, predGm[gmOff], cp, pad);
        rowQueue.EnQue(rowLocal);
    }

    __aicore__ inline void WaitVector()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
    }

    __aicore__ inline float RowLoss(uint32_t localRow)
    {
        uint32_t row = rowBegin + localRow;
        AscendC::LocalTensor<float> logits = rowQueue.DeQue<float>();
        AscendC::LocalTensor<float> ex = expBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> sc = scalarBuf.Get<float>();

        // row max for numerical stability
        AscendC::ReduceMax<float>(sc, logits, work, classes, false);
        WaitVector();
        float rowMax = sc.GetValue(0);

        int64_t tgt = targetGm.GetValue(row);
        float picked = 0.0f;
        bool valid = (tgt >= 0 && tgt < static_cast<int64_t>(classes));
        if (valid) {
            picked = logits.GetValue(static_cast<uint32_t>(tgt));
        }

        // sum(exp(x - max)), then log on the vector unit
        AscendC::Adds(ex, logits, -rowMax, classes);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Exp(ex, ex, classes);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::ReduceSum<float>(sc[8], ex, work, classes);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Ln(sc[8], sc[8], 1);
        WaitVector();
        float logSum = sc.GetValue(8);

        rowQueue.FreeTensor(logits);
        // ignore_index style targets contribute nothing
        return valid ? (rowMax + logSum - picked) : 0.0f;
    }

    __aicore__ inline void Flush(AscendC::LocalTensor<float> &staged, uint32_t start, uint32_t count)
    {
        event_t sToMte3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::S_MTE3));
        AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(sToMte3);
        AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(sToMte3);

        AscendC::DataCopyExtParams cp{1, count * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(lossGm[rowBegin + start], staged, cp);

        // the staging buffer is rewritten by scalar stores afterwards
        event_t mte3ToS = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::MTE3_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(mte3ToS);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(mte3ToS);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> rowQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> expBuf, workBuf, scalarBuf, lossBuf;
    AscendC::GlobalTensor<float> predGm;
    AscendC::GlobalTensor<int64_t> targetGm;
    AscendC::GlobalTensor<float> lossGm;
    uint32_t classes = 0;
    uint32_t alignedClasses = 0;
    uint32_t flushRows = 0;
    uint32_t rowCount = 0;
    uint32_t rowBegin = 0;
};

extern "C" __global__ __aicore__ void cross_entropy_loss_custom(GM_ADDR predictions, GM_ADDR targets, GM_ADDR loss,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelCrossEntropy op;
    op.Init(predictions, targets, loss, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor cross_entropy_loss_custom_impl_npu(const at::Tensor& predictions, const at::Tensor& targets) {
    TORCH_CHECK(predictions.dim() == 2, "predictions must be (batch, num_classes)");
    TORCH_CHECK(targets.dim() == 1 && targets.size(0) == predictions.size(0), "targets must be (batch,)");
    at::Tensor pred = predictions.contiguous();
    at::Tensor tgt = targets.to(at::kLong).contiguous();
    at::Tensor perSample = at::empty({pred.size(0)}, pred.options());
    EXEC_NPU_CMD(aclnnCrossEntropyLossCustom, pred, tgt, perSample);
    // reduction='mean' over the valid (non ignore_index) samples
    at::Tensor validCount = (tgt != -100).sum().to(pred.scalar_type()).clamp_min(1);
    return perSample.sum() / validCount;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("cross_entropy_loss_custom", &cross_entropy_loss_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("cross_entropy_loss_custom", &cross_entropy_loss_custom_impl_npu, "cross entropy loss (mean)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, predictions, targets):
        return custom_ops_lib.cross_entropy_loss_custom(predictions, targets)
'''
