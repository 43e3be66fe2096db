project_json_src='''
[
    {
        "op": "HingeLossCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "predictions", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "targets", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "loss", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HingeLossCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // number of rows sharing the broadcast targets
  TILING_DATA_FIELD_DEF(uint32_t, cols);        // length of the broadcast (last) dimension
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);     // columns per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, targetsScalar); // 1 if targets has a single element
  TILING_DATA_FIELD_DEF(float, invTotal);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(HingeLossCustom, HingeLossCustomTilingData)
}
"""

host_operator_src="""
#include "hinge_loss_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LEN = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();

    const gert::Shape &ps = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ts = context->GetInputShape(1)->GetStorageShape();
    uint64_t total = ps.GetShapeSize();
    uint64_t tCount = ts.GetShapeSize();
    size_t rank = ps.GetDimNum();
    uint32_t cols = rank == 0 ? 1 : ps.GetDim(rank - 1);

    // torch broadcasting: targets (L,) lines up with the last dim of predictions
    uint32_t targetsScalar = 0;
    if (tCount == 1) {
        targetsScalar = 1;
    } else if (tCount != cols) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = static_cast<uint32_t>(total / cols);

    HingeLossCustomTilingData tiling;
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_tileLen(TILE_LEN);
    tiling.set_targetsScalar(targetsScalar);
    tiling.set_invTotal(1.0f / static_cast<float>(total));

    uint32_t blockDim = rows < coreNum ? rows : coreNum;
    if (blockDim == 0) {
        blockDim = 1;
    }
    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // per-core partial sums (one 32B slot each) + library workspace for the all-core barrier
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize() + coreNum * 32;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    gert::Shape *ys = context->GetOutputShape(0);
    ys->SetDimNum(0);   // torch.mean over everything -> 0-d tensor
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class HingeLossCustom : public OpDef {
public:
    explicit HingeLossCustom(const char *name) : OpDef(name)
    {
        this->Input("predictions").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("targets").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("loss").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(HingeLossCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SLOT = 8;   // floats per partial-sum slot (32 bytes)

// mean(clamp(1 - p * t, min=0)) with t broadcast along the last dimension.
// Column tiles are the outer loop so a targets tile is loaded once and reused for every row of
// this core; the hinge values are accumulated lane-wise in a UB vector and reduced at the end.
class KernelHingeLoss {
public:
    __aicore__ inline KernelHingeLoss() {}

    __aicore__ inline void Init(GM_ADDR pred, GM_ADDR targ, GM_ADDR loss, GM_ADDR usrWs,
                                const HingeLossCustomTilingData &t)
    {
        rows = t.rows;
        cols = t.cols;
        tileLen = t.tileLen;
        targetsScalar = t.targetsScalar;
        invTotal = t.invTotal;

        blockNum = AscendC::GetBlockNum();
        blockIdx = AscendC::GetBlockIdx();
        uint32_t base = rows / blockNum;
        uint32_t rem = rows % blockNum;
        rowBegin = blockIdx * base + (blockIdx < rem ? blockIdx : rem);
        rowCount = base + (blockIdx < rem ? 1 : 0);

        pGm.SetGlobalBuffer((__gm__ float *)pred, (uint64_t)rows * cols);
        tGm.SetGlobalBuffer((__gm__ float *)targ, targetsScalar ? 1 : cols);
        lossGm.SetGlobalBuffer((__gm__ float *)loss, 1);
        partGm.SetGlobalBuffer((__gm__ float *)usrWs, blockNum * SLOT);

        pipe.InitBuffer(pQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(tQueue, 1, tileLen * sizeof(float));
        pipe.InitBuffer(accBuf, tileLen * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileLen * sizeof(float));
        pipe.InitBuffer(workBuf, tileLen * sizeof(float));
        pipe.InitBuffer(outQueue, 1, SLOT * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::Duplicate(acc, 0.0f, tileLen);

        for (uint32_t c0 = 0; c0 < cols; c0 += tileLen) {
            uint32_t len = (cols - c0) < tileLen ? (cols - c0) : tileLen;
            if (rowCount == 0) {
                break;
            }
            LoadTargets(c0, len);
            AscendC::LocalTensor<float> tLocal = tQueue.DeQue<float>();
            for (uint32_t r = 0; r < rowCount; ++r) {
                CopyIn(rowBegin + r, c0, len);
                Compute(tLocal, acc, len);
            }
            tQueue.FreeTensor(tLocal);
        }

        // lane-wise accumulator -> one partial per core
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> part = outQueue.AllocTensor<float>();
        AscendC::Duplicate(part, 0.0f, SLOT);
        AscendC::ReduceSum(part, acc, work, tileLen);
        outQueue.EnQue(part);
        part = outQueue.DeQue<float>();
        AscendC::DataCopy(partGm[blockIdx * SLOT], part, SLOT);
        outQueue.FreeTensor(part);

        AscendC::SyncAll();

        if (blockIdx == 0) {
            FinalReduce();
        }
    }

private:
    __aicore__ inline void LoadTargets(uint32_t c0, uint32_t len)
    {
        AscendC::LocalTensor<float> tLocal = tQueue.AllocTensor<float>();
        if (targetsScalar) {
            float tv = tGm.GetValue(0);
            AscendC::Duplicate(tLocal, tv, len);
        } else {
            AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(tLocal, tGm[c0], cp, pad);
        }
        tQueue.EnQue(tLocal);
    }

    __aicore__ inline void CopyIn(uint32_t row, uint32_t c0, uint32_t len)
    {
        AscendC::LocalTensor<float> pLocal = pQueue.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(pLocal, pGm[(uint64_t)row * cols + c0], cp, pad);
        pQueue.EnQue(pLocal);
    }

    __aicore__ inline void Compute(AscendC::LocalTensor<float> &tLocal, AscendC::LocalTensor<float> &acc,
                                   uint32_t len)
    {
        AscendC::LocalTensor<float> pLocal = pQueue.DeQue<float>();
        AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();
        AscendC::Mul(tmp, pLocal, tLocal, len);          // p * t
        AscendC::Muls(tmp, tmp, -1.0f, len);              // -p * t
        AscendC::Adds(tmp, tmp, 1.0f, len);               // 1 - p * t
        AscendC::Maxs(tmp, tmp, 0.0f, len);               // clamp(min=0)
        AscendC::Add(acc, acc, tmp, len);
        pQueue.FreeTensor(pLocal);
    }

    __aicore__ inline void FinalReduce()
    {
        AscendC::LocalTensor<float> parts = tQueue.AllocTensor<float>();
        uint32_t n = blockNum * SLOT;
        AscendC::DataCopy(parts, partGm, n);
        tQueue.EnQue(parts);
        parts = tQueue.DeQue<float>();
        AscendC::PipeBarrier<PIPE_ALL>();   // partials are read by the scalar unit

        // element 0 of every slot holds that core's partial sum
        float sum = 0.0f;
        for (uint32_t i = 0; i < blockNum; ++i) {
            sum += parts.GetValue(i * SLOT);
        }
        tQueue.FreeTensor(parts);

        AscendC::LocalTensor<float> res = outQueue.AllocTensor<float>();
        AscendC::Duplicate(res, sum * invTotal, SLOT);
        outQueue.EnQue(res);
        res = outQueue.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(lossGm, res, cp);
        outQueue.FreeTensor(res);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> pQueue;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> tQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf, tmpBuf, workBuf;
    AscendC::GlobalTensor<float> pGm, tGm, lossGm, partGm;
    uint32_t rows, cols, tileLen, targetsScalar;
    float invTotal;
    uint32_t blockNum, blockIdx, rowBegin, rowCount;
};

extern "C" __global__ __aicore__ void hinge_loss_custom(GM_ADDR predictions, GM_ADDR targets, GM_ADDR loss,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = AscendC::GetUserWorkspace(workspace);
    KernelHingeLoss op;
    op.Init(predictions, targets, loss, usrWs, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor hinge_loss_custom_impl_npu(const at::Tensor &predictions, const at::Tensor &targets)
{
    at::Tensor result = at::empty({}, predictions.options());
    EXEC_NPU_CMD(aclnnHingeLossCustom, predictions, targets, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("hinge_loss_custom", &hinge_loss_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("hinge_loss_custom", &hinge_loss_custom_impl_npu, "mean(clamp(1 - predictions * targets, min=0))");
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
        return custom_ops_lib.hinge_loss_custom(predictions, targets)
'''
