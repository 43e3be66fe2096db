project_json_src='''
[
    {
        "op": "L1NormCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
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
BEGIN_TILING_DATA_DEF(L1NormCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, dim);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);       // tiles per row
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, remainRows);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(L1NormCustom, L1NormCustomTilingData)
}
"""

host_operator_src="""
#include "l1_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t MAX_TILE = 8192;   // floats

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    L1NormCustomTilingData tiling;
    const auto& shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = shape.GetDim(0);
    uint32_t dim = shape.GetDim(1);

    uint32_t tileLen = dim < MAX_TILE ? dim : MAX_TILE;
    tileLen = (tileLen + 7) / 8 * 8;
    uint32_t tileNum = (dim + tileLen - 1) / tileLen;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint32_t blockDim = rows < coreNum ? rows : coreNum;
    if (blockDim == 0) {
        blockDim = 1;
    }

    tiling.set_rows(rows);
    tiling.set_dim(dim);
    tiling.set_tileLen(tileLen);
    tiling.set_tileNum(tileNum);
    tiling.set_rowsPerCore(rows / blockDim);
    tiling.set_remainRows(rows % blockDim);

    context->SetBlockDim(blockDim);
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
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class L1NormCustom : public OpDef {
public:
    explicit L1NormCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
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

OP_ADD(L1NormCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t WORK_LEN = 1024;

// y[r, :] = x[r, :] / mean(|x[r, :]|)
// A row of 64K floats does not fit in UB, so each row is streamed twice:
// pass 1 accumulates |x| element-wise into an accumulator tile and reduces it
// once at the end, pass 2 rescales by dim / sum. Short rows (one tile) are
// read only once.
class KernelL1Norm {
public:
    __aicore__ inline KernelL1Norm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t dim, uint32_t tileLen, uint32_t tileNum,
                                uint32_t rowsPerCore, uint32_t remainRows)
    {
        this->dim = dim;
        this->tileLen = tileLen;
        this->tileNum = tileNum;
        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (blockIdx < remainRows) {
            rowCount = rowsPerCore + 1;
            rowStart = blockIdx * (rowsPerCore + 1);
        } else {
            rowCount = rowsPerCore;
            rowStart = remainRows * (rowsPerCore + 1) + (blockIdx - remainRows) * rowsPerCore;
        }
        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(accBuf, tileLen * sizeof(float));
        pipe.InitBuffer(absBuf, tileLen * sizeof(float));
        pipe.InitBuffer(workBuf, WORK_LEN * sizeof(float));
        pipe.InitBuffer(sumBuf, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount; r++) {
            uint64_t rowBase = static_cast<uint64_t>(rowStart + r) * dim;
            if (tileNum == 1) {
                ProcessShortRow(rowBase);
            } else {
                ProcessLongRow(rowBase);
            }
        }
    }

private:
    __aicore__ inline uint32_t TileLen(uint32_t t)
    {
        return (t == tileNum - 1) ? (dim - t * tileLen) : tileLen;
    }

    __aicore__ inline void CopyIn(uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xLocal, xGm[offset], cp, pad);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<float> yLocal = outQueue.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[offset], yLocal, cp);
        outQueue.FreeTensor(yLocal);
    }

    // reduce `src[0:len]` to a scalar and turn it into the factor dim / sum
    __aicore__ inline float Factor(const AscendC::LocalTensor<float>& src, uint32_t len)
    {
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> sum = sumBuf.Get<float>();
        AscendC::ReduceSum<float>(sum, src, work, len);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
        float s = sum.GetValue(0);
        return static_cast<float>(dim) / s;
    }

    __aicore__ inline void ProcessShortRow(uint64_t rowBase)
    {
        AscendC::LocalTensor<float> absLocal = absBuf.Get<float>();
        CopyIn(rowBase, dim);
        AscendC::LocalTensor<float> xLocal = inQueue.DeQue<float>();
        AscendC::Abs(absLocal, xLocal, dim);
        float f = Factor(absLocal, dim);
        AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        AscendC::Muls(yLocal, xLocal, f, dim);
        outQueue.EnQue<float>(yLocal);
        inQueue.FreeTensor(xLocal);
        CopyOut(rowBase, dim);
    }

    __aicore__ inline void ProcessLongRow(uint64_t rowBase)
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::LocalTensor<float> absLocal = absBuf.Get<float>();

        // pass 1: acc = sum over tiles of |x|
        for (uint32_t t = 0; t < tileNum; t++) {
            uint32_t len = TileLen(t);
            CopyIn(rowBase + static_cast<uint64_t>(t) * tileLen, len);
            AscendC::LocalTensor<float> xLocal = inQueue.DeQue<float>();
            if (t == 0) {
                // first tile is always a full one (tileNum > 1)
                AscendC::Abs(acc, xLocal, tileLen);
            } else {
                AscendC::Abs(absLocal, xLocal, len);
                AscendC::Add(acc, acc, absLocal, len);
            }
            inQueue.FreeTensor(xLocal);
        }
        float f = Factor(acc, tileLen);

        // pass 2: y = x * dim / sum
        for (uint32_t t = 0; t < tileNum; t++) {
            uint32_t len = TileLen(t);
            uint64_t offset = rowBase + static_cast<uint64_t>(t) * tileLen;
            CopyIn(offset, len);
            AscendC::LocalTensor<float> xLocal = inQueue.DeQue<float>();
            AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
            AscendC::Muls(yLocal, xLocal, f, len);
            outQueue.EnQue<float>(yLocal);
            inQueue.FreeTensor(xLocal);
            CopyOut(offset, len);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf, absBuf, workBuf, sumBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t dim, tileLen, tileNum, rowStart, rowCount;
};

extern "C" __global__ __aicore__ void l1_norm_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelL1Norm op;
    op.Init(x, y, tiling_data.dim, tiling_data.tileLen, tiling_data.tileNum,
            tiling_data.rowsPerCore, tiling_data.remainRows);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor l1_norm_custom_impl_npu(const at::Tensor& x)
{
    at::Tensor xc = x.contiguous();
    at::Tensor result = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnL1NormCustom, xc, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("l1_norm_custom", &l1_norm_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("l1_norm_custom", &l1_norm_custom_impl_npu, "x / mean(|x|, dim=1)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.l1_norm_custom(x)
'''
