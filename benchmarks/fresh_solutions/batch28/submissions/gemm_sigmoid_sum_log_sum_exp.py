project_json_src='''
[
    {
        "op": "GemmSigmoidSumLogSumExpCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "z",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
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

namespace optiling {
BEGIN_TILING_DATA_DEF(GemmSigmoidSumLogSumExpCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, colsAlign);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowBlock);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GemmSigmoidSumLogSumExpCustom, GemmSigmoidSumLogSumExpCustomTilingData)
}
"""

host_operator_src="""
#include "gemm_sigmoid_sum_log_sum_exp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_ELEMS = 16384;   // floats per input buffer (64 KB)
constexpr uint32_t MAX_ROW_BLOCK = 64;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GemmSigmoidSumLogSumExpCustomTilingData tiling;
    const auto& shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = shape.GetDim(0);
    uint32_t cols = shape.GetDim(1);
    uint32_t colsAlign = (cols + 7) / 8 * 8;
    if (colsAlign > TILE_ELEMS) {
        // one row must fit into a tile
        return ge::GRAPH_FAILED;
    }

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t usedCores = rows < coreNum ? rows : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }
    uint32_t rowBlock = TILE_ELEMS / colsAlign;
    if (rowBlock > MAX_ROW_BLOCK) {
        rowBlock = MAX_ROW_BLOCK;
    }

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_colsAlign(colsAlign);
    tiling.set_rowsPerCore(rows / usedCores);
    tiling.set_tailRows(rows % usedCores);
    tiling.set_rowBlock(rowBlock);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* zShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(1);
    yShape->SetDim(0, zShape->GetDim(0));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GemmSigmoidSumLogSumExpCustom : public OpDef {
public:
    explicit GemmSigmoidSumLogSumExpCustom(const char* name) : OpDef(name)
    {
        this->Input("z")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(GemmSigmoidSumLogSumExpCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y[r] = logsumexp(z[r, :]) = m + ln(sum exp(z - m)), m = max(z[r, :]).
// rowBlock rows are loaded per tile; per-row max and sum are gathered into
// small buffers and the ln / add is done once per tile on the vector unit.
class KernelRowLogSumExp {
public:
    __aicore__ inline KernelRowLogSumExp() {}

    __aicore__ inline void Init(GM_ADDR z, GM_ADDR y, uint32_t cols, uint32_t colsAlign,
                                uint32_t rowsPerCore, uint32_t tailRows, uint32_t rowBlock)
    {
        this->cols = cols;
        this->colsAlign = colsAlign;
        this->rowBlock = rowBlock;
        this->rowBlockAlign = (rowBlock + 7) / 8 * 8;

        uint32_t blockIdx = GetBlockIdx();
        if (blockIdx < tailRows) {
            rowCount = rowsPerCore + 1;
            rowStart = blockIdx * (rowsPerCore + 1);
        } else {
            rowCount = rowsPerCore;
            rowStart = tailRows * (rowsPerCore + 1) + (blockIdx - tailRows) * rowsPerCore;
        }

        zGm.SetGlobalBuffer((__gm__ float*)z);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(inQueue, BUFFER_NUM, rowBlock * colsAlign * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, rowBlockAlign * sizeof(float));
        pipe.InitBuffer(expBuf, colsAlign * sizeof(float));
        pipe.InitBuffer(workBuf, colsAlign * sizeof(float));
        pipe.InitBuffer(redBuf, 8 * sizeof(float));
        pipe.InitBuffer(maxBuf, rowBlockAlign * sizeof(float));
        pipe.InitBuffer(sumBuf, rowBlockAlign * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r0 = 0; r0 < rowCount; r0 += rowBlock) {
            uint32_t rlen = rowCount - r0 < rowBlock ? rowCount - r0 : rowBlock;
            CopyIn(rowStart + r0, rlen);
            Compute(rlen);
            CopyOut(rowStart + r0, rlen);
        }
    }

private:
    __aicore__ inline void SyncVToS()
    {
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evt);
        WaitFlag<HardEvent::V_S>(evt);
    }

    __aicore__ inline void SyncSToV()
    {
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evt);
        WaitFlag<HardEvent::S_V>(evt);
    }

    __aicore__ inline void CopyIn(uint32_t row, uint32_t rlen)
    {
        LocalTensor<float> zLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams params;
        params.blockCount = static_cast<uint16_t>(rlen);
        params.blockLen = cols * sizeof(float);
        params.srcStride = 0;
        params.dstStride = 0;
        params.rsv = 0;
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(zLocal, zGm[static_cast<uint64_t>(row) * cols], params, padParams);
        inQueue.EnQue(zLocal);
    }

    __aicore__ inline void Compute(uint32_t rlen)
    {
        LocalTensor<float> zLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> e = expBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> maxLocal = maxBuf.Get<float>();
        LocalTensor<float> sumLocal = sumBuf.Get<float>();

        for (uint32_t r = 0; r < rlen; ++r) {
            LocalTensor<float> row = zLocal[r * colsAlign];
            ReduceMax(red, row, work, cols, false);
            SyncVToS();
            float m = red.GetValue(0);
            Adds(e, row, -m, cols);
            PipeBarrier<PIPE_V>();
            Exp(e, e, cols);
            PipeBarrier<PIPE_V>();
            ReduceSum(red, e, work, cols);
            SyncVToS();
            float s = red.GetValue(0);
            maxLocal.SetValue(r, m);
            sumLocal.SetValue(r, s);
        }
        SyncSToV();
        Ln(sumLocal, sumLocal, rlen);
        PipeBarrier<PIPE_V>();
        Add(yLocal, sumLocal, maxLocal, rlen);

        outQueue.EnQue<float>(yLocal);
        inQueue.FreeTensor(zLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t rlen)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(rlen * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[row], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> expBuf;
    TBuf<QuePosition::VECCALC> workBuf;
    TBuf<QuePosition::VECCALC> redBuf;
    TBuf<QuePosition::VECCALC> maxBuf;
    TBuf<QuePosition::VECCALC> sumBuf;
    GlobalTensor<float> zGm;
    GlobalTensor<float> yGm;
    uint32_t cols;
    uint32_t colsAlign;
    uint32_t rowBlock;
    uint32_t rowBlockAlign;
    uint32_t rowStart;
    uint32_t rowCount;
};

extern "C" __global__ __aicore__ void gemm_sigmoid_sum_log_sum_exp_custom(GM_ADDR z, GM_ADDR y,
                                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRowLogSumExp op;
    op.Init(z, y, tilingData.cols, tilingData.colsAlign, tilingData.rowsPerCore,
            tilingData.tailRows, tilingData.rowBlock);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// linear1 -> sigmoid -> linear2 on the NPU matmul path (sigmoid applied in place
// on the GEMM output), then the row-wise LogSumExp reduction in the custom kernel.
at::Tensor gemm_sigmoid_sum_log_sum_exp_custom_impl_npu(const at::Tensor& x,
                                                        const at::Tensor& w1, const at::Tensor& b1,
                                                        const at::Tensor& w2, const at::Tensor& b2)
{
    at::Tensor h = at::addmm(b1, x, w1.t());
    h.sigmoid_();
    at::Tensor z = at::addmm(b2, h, w2.t()).contiguous();
    at::Tensor result = at::empty({z.size(0)}, z.options());
    EXEC_NPU_CMD(aclnnGemmSigmoidSumLogSumExpCustom, z, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gemm_sigmoid_sum_log_sum_exp_custom", &gemm_sigmoid_sum_log_sum_exp_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gemm_sigmoid_sum_log_sum_exp_custom", &gemm_sigmoid_sum_log_sum_exp_custom_impl_npu,
          "gemm -> sigmoid -> gemm -> logsumexp(dim=1)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(ModelNew, self).__init__()
        self.linear1 = torch.nn.Linear(input_size, hidden_size)
        self.linear2 = torch.nn.Linear(hidden_size, output_size)

    def forward(self, x):
        return custom_ops_lib.gemm_sigmoid_sum_log_sum_exp_custom(
            x, self.linear1.weight, self.linear1.bias, self.linear2.weight, self.linear2.bias)
'''
