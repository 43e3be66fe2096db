project_json_src='''
[
    {
        "op": "DeepNarrowMlpCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "bias",
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
BEGIN_TILING_DATA_DEF(DeepNarrowMlpCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // batch
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // features of this layer
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, colChunk);      // columns handled per tile
  TILING_DATA_FIELD_DEF(uint32_t, colChunkAlign); // colChunk rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, rowBlock);      // rows handled per tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DeepNarrowMlpCustom, DeepNarrowMlpCustomTilingData)
}
"""

host_operator_src="""
#include "deep_narrow_mlp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_ELEMS = 8192;   // floats per in/out buffer
constexpr uint32_t MAX_COL_CHUNK = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    DeepNarrowMlpCustomTilingData tiling;
    const auto& shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = shape.GetDim(0);
    uint32_t cols = shape.GetDim(1);

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t usedCores = rows < coreNum ? rows : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }

    uint32_t colChunk = cols < MAX_COL_CHUNK ? cols : MAX_COL_CHUNK;
    uint32_t colChunkAlign = (colChunk + 7) / 8 * 8;
    uint32_t rowBlock = TILE_ELEMS / colChunkAlign;
    if (rowBlock == 0) {
        rowBlock = 1;
    }

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_rowsPerCore(rows / usedCores);
    tiling.set_tailRows(rows % usedCores);
    tiling.set_colChunk(colChunk);
    tiling.set_colChunkAlign(colChunkAlign);
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
class DeepNarrowMlpCustom : public OpDef {
public:
    explicit DeepNarrowMlpCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
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

OP_ADD(DeepNarrowMlpCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Epilogue of a hidden Linear layer: y = relu(x + bias), x = input @ W^T.
// A tile is rowBlock rows x colChunk columns; in UB each row starts on a
// 32-byte boundary (stride colChunkAlign) so the bias row can be reused.
class KernelBiasRelu {
public:
    __aicore__ inline KernelBiasRelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, uint32_t cols, uint32_t rowsPerCore,
                                uint32_t tailRows, uint32_t colChunk, uint32_t colChunkAlign, uint32_t rowBlock)
    {
        this->cols = cols;
        this->colChunk = colChunk;
        this->colChunkAlign = colChunkAlign;
        this->rowBlock = rowBlock;

        uint32_t blockIdx = GetBlockIdx();
        if (blockIdx < tailRows) {
            rowCount = rowsPerCore + 1;
            rowStart = blockIdx * (rowsPerCore + 1);
        } else {
            rowCount = rowsPerCore;
            rowStart = tailRows * (rowsPerCore + 1) + (blockIdx - tailRows) * rowsPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, cols);

        pipe.InitBuffer(inQueue, BUFFER_NUM, rowBlock * colChunkAlign * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, rowBlock * colChunkAlign * sizeof(float));
        pipe.InitBuffer(biasBuf, colChunkAlign * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t colChunks = (cols + colChunk - 1) / colChunk;
        for (uint32_t cc = 0; cc < colChunks; ++cc) {
            uint32_t c0 = cc * colChunk;
            uint32_t clen = cols - c0 < colChunk ? cols - c0 : colChunk;
            LoadBias(c0, clen);
            for (uint32_t r0 = 0; r0 < rowCount; r0 += rowBlock) {
                uint32_t rlen = rowCount - r0 < rowBlock ? rowCount - r0 : rowBlock;
                CopyIn(rowStart + r0, rlen, c0, clen);
                Compute(rlen, clen);
                CopyOut(rowStart + r0, rlen, c0, clen);
            }
        }
    }

private:
    __aicore__ inline void LoadBias(uint32_t c0, uint32_t clen)
    {
        LocalTensor<float> bLocal = biasBuf.Get<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(clen * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(bLocal, biasGm[c0], params, padParams);
        // bias is consumed by the vector unit
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(evt);
        WaitFlag<HardEvent::MTE2_V>(evt);
    }

    __aicore__ inline void CopyIn(uint32_t row, uint32_t rlen, uint32_t c0, uint32_t clen)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams params;
        params.blockCount = static_cast<uint16_t>(rlen);
        params.blockLen = clen * sizeof(float);
        params.srcStride = (cols - clen) * sizeof(float);
        params.dstStride = 0;   // each row lands 32B aligned -> stride colChunkAlign
        params.rsv = 0;
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[static_cast<uint64_t>(row) * cols + c0], params, padParams);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t rlen, uint32_t clen)
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> bLocal = biasBuf.Get<float>();
        for (uint32_t r = 0; r < rlen; ++r) {
            uint32_t off = r * colChunkAlign;
            Add(yLocal[off], xLocal[off], bLocal, clen);
        }
        Relu(yLocal, yLocal, rlen * colChunkAlign);
        outQueue.EnQue<float>(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t rlen, uint32_t c0, uint32_t clen)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopyExtParams params;
        params.blockCount = static_cast<uint16_t>(rlen);
        params.blockLen = clen * sizeof(float);
        params.srcStride = 0;
        params.dstStride = (cols - clen) * sizeof(float);
        params.rsv = 0;
        DataCopyPad(yGm[static_cast<uint64_t>(row) * cols + c0], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> biasBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    GlobalTensor<float> biasGm;
    uint32_t cols;
    uint32_t colChunk;
    uint32_t colChunkAlign;
    uint32_t rowBlock;
    uint32_t rowStart;
    uint32_t rowCount;
};

extern "C" __global__ __aicore__ void deep_narrow_mlp_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelBiasRelu op;
    op.Init(x, bias, y, tilingData.cols, tilingData.rowsPerCore, tilingData.tailRows,
            tilingData.colChunk, tilingData.colChunkAlign, tilingData.rowBlock);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// Hidden layers: matmul on the cube unit, then the fused bias+ReLU kernel.
// The output layer has no activation and is a plain addmm.
at::Tensor deep_narrow_mlp_custom_impl_npu(const at::Tensor& x,
                                           const std::vector<at::Tensor>& weights,
                                           const std::vector<at::Tensor>& biases)
{
    TORCH_CHECK(weights.size() == biases.size() && !weights.empty(), "weights/biases mismatch");
    at::Tensor h = x.contiguous();
    const size_t numLayers = weights.size();
    for (size_t i = 0; i + 1 < numLayers; ++i) {
        at::Tensor pre = at::matmul(h, weights[i].t()).contiguous();
        at::Tensor b = biases[i].contiguous();
        at::Tensor act = at::empty_like(pre);
        EXEC_NPU_CMD(aclnnDeepNarrowMlpCustom, pre, b, act);
        h = act;
    }
    return at::addmm(biases[numLayers - 1], h, weights[numLayers - 1].t());
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("deep_narrow_mlp_custom", &deep_narrow_mlp_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("deep_narrow_mlp_custom", &deep_narrow_mlp_custom_impl_npu, "deep narrow MLP forward");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, input_size, hidden_layer_sizes, output_size):
        super(ModelNew, self).__init__()
        layers = []
        current = input_size
        for hidden in hidden_layer_sizes:
            layers.append(torch.nn.Linear(current, hidden))
            current = hidden
        layers.append(torch.nn.Linear(current, output_size))
        self.layers = torch.nn.ModuleList(layers)

    def forward(self, x):
        weights = [layer.weight for layer in self.layers]
        biases = [layer.bias for layer in self.layers]
        return custom_ops_lib.deep_narrow_mlp_custom(x, weights, biases)
'''
