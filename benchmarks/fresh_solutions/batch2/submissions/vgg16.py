project_json_src='''
[
    {
        "op": "Vgg16Custom",
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
// Fused "bias add + ReLU" epilogue used after every conv / hidden linear layer of VGG16.
// The input is viewed as rows of length rowLen.
//   mode 0 (conv output NCHW): one row per (n, c) plane, bias is a scalar per row (bias[row % channels])
//   mode 1 (linear output NC) : one row per sample, bias is a vector of length rowLen
BEGIN_TILING_DATA_DEF(Vgg16CustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, mode);
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Vgg16Custom, Vgg16CustomTilingData)
}
"""

host_operator_src="""
#include "vgg16_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE_LEN = 8192;   // floats per UB tile (32 KB)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Vgg16CustomTilingData tiling;
    const gert::StorageShape* xShape = context->GetInputShape(0);
    const gert::StorageShape* bShape = context->GetInputShape(1);
    const auto& xs = xShape->GetStorageShape();
    uint32_t dimNum = xs.GetDimNum();
    uint32_t channels = static_cast<uint32_t>(bShape->GetStorageShape().GetShapeSize());

    uint32_t mode = 0;
    uint32_t totalRows = 0;
    uint32_t rowLen = 0;
    if (dimNum == 2) {
        // linear layer output: [batch, features]
        mode = 1;
        totalRows = static_cast<uint32_t>(xs.GetDim(0));
        rowLen = static_cast<uint32_t>(xs.GetDim(1));
    } else {
        // conv output: [N, C, H, W]
        mode = 0;
        uint64_t inner = 1;
        for (uint32_t i = 2; i < dimNum; ++i) {
            inner *= xs.GetDim(i);
        }
        totalRows = static_cast<uint32_t>(xs.GetDim(0) * xs.GetDim(1));
        rowLen = static_cast<uint32_t>(inner);
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t usedCores = totalRows < coreNum ? totalRows : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }

    uint32_t tileLen = rowLen < MAX_TILE_LEN ? rowLen : MAX_TILE_LEN;
    // keep the tile a multiple of 8 floats (32 bytes) so UB offsets stay aligned
    tileLen = (tileLen + 7) / 8 * 8;
    if (mode == 1 && rowLen > MAX_TILE_LEN / 2) {
        // bias vector also lives in UB in mode 1, leave room for it
        tileLen = MAX_TILE_LEN / 2;
    }

    tiling.set_mode(mode);
    tiling.set_totalRows(totalRows);
    tiling.set_rowLen(rowLen);
    tiling.set_channels(channels);
    tiling.set_rowsPerCore(totalRows / usedCores);
    tiling.set_tailRows(totalRows % usedCores);
    tiling.set_tileLen(tileLen);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    *yShape = *xShape;
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Vgg16Custom : public OpDef {
public:
    explicit Vgg16Custom(const char* name) : OpDef(name)
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

OP_ADD(Vgg16Custom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelBiasRelu {
public:
    __aicore__ inline KernelBiasRelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, const Vgg16CustomTilingData& t)
    {
        mode = t.mode;
        rowLen = t.rowLen;
        channels = t.channels;
        tileLen = t.tileLen;

        uint32_t blockIdx = GetBlockIdx();
        // first tailRows cores take one extra row
        if (blockIdx < t.tailRows) {
            rowCount = t.rowsPerCore + 1;
            rowStart = blockIdx * rowCount;
        } else {
            rowCount = t.rowsPerCore;
            rowStart = t.tailRows * (t.rowsPerCore + 1) + (blockIdx - t.tailRows) * t.rowsPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, channels);

        pipe.InitBuffer(inQue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQue, BUFFER_NUM, tileLen * sizeof(float));
        if (mode == 1) {
            uint32_t alignedLen = (rowLen + 7) / 8 * 8;
            pipe.InitBuffer(biasBuf, alignedLen * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        if (mode == 1) {
            LoadBiasVector();
        }
        uint32_t tilesPerRow = (rowLen + tileLen - 1) / tileLen;
        for (uint32_t r = 0; r < rowCount; ++r) {
            uint64_t row = rowStart + r;
            float b = 0.0f;
            if (mode == 0) {
                b = biasGm.GetValue(row % channels);
            }
            for (uint32_t t = 0; t < tilesPerRow; ++t) {
                uint32_t col = t * tileLen;
                uint32_t len = (col + tileLen <= rowLen) ? tileLen : (rowLen - col);
                uint64_t gmOff = row * rowLen + col;
                CopyIn(gmOff, len);
                Compute(col, len, b);
                CopyOut(gmOff, len);
            }
        }
    }

private:
    __aicore__ inline void LoadBiasVector()
    {
        LocalTensor<float> bLocal = biasBuf.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(rowLen * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(bLocal, biasGm, cp, pad);
        // make sure the bias is resident before any vector op reads it
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(evt);
        WaitFlag<HardEvent::MTE2_V>(evt);
    }

    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<float> xLocal = inQue.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[off], cp, pad);
        inQue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t col, uint32_t len, float b)
    {
        LocalTensor<float> xLocal = inQue.DeQue<float>();
        LocalTensor<float> yLocal = outQue.AllocTensor<float>();
        if (mode == 0) {
            Adds(yLocal, xLocal, b, len);
        } else {
            LocalTensor<float> bLocal = biasBuf.Get<float>();
            Add(yLocal, xLocal, bLocal[col], len);
        }
        PipeBarrier<PIPE_V>();
        Relu(yLocal, yLocal, len);
        outQue.EnQue(yLocal);
        inQue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        LocalTensor<float> yLocal = outQue.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[off], yLocal, cp);
        outQue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<QuePosition::VECCALC> biasBuf;
    GlobalTensor<float> xGm, yGm, biasGm;
    uint32_t mode = 0;
    uint32_t rowLen = 0;
    uint32_t channels = 1;
    uint32_t tileLen = 0;
    uint32_t rowStart = 0;
    uint32_t rowCount = 0;
};

extern "C" __global__ __aicore__ void vgg16_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelBiasRelu op;
    op.Init(x, bias, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// y = relu(x + bias) on the NPU (bias broadcast over channel dim)
static at::Tensor bias_relu(const at::Tensor& x, const at::Tensor& bias)
{
    at::Tensor xc = x.contiguous();
    at::Tensor result = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnVgg16Custom, xc, bias, result);
    return result;
}

at::Tensor vgg16_custom_impl_npu(const at::Tensor& x,
                                 const std::vector<at::Tensor>& convWeights,
                                 const std::vector<at::Tensor>& convBiases,
                                 const std::vector<at::Tensor>& fcWeights,
                                 const std::vector<at::Tensor>& fcBiases)
{
    TORCH_CHECK(convWeights.size() == 13 && convBiases.size() == 13, "vgg16 expects 13 conv layers");
    TORCH_CHECK(fcWeights.size() == 3 && fcBiases.size() == 3, "vgg16 expects 3 fc layers");

    // max-pool follows these conv indices (end of each of the 5 blocks)
    const bool poolAfter[13] = {false, true, false, true, false, false, true,
                                false, false, true, false, false, true};
    at::Tensor h = x;
    for (size_t i = 0; i < 13; ++i) {
        h = at::conv2d(h, convWeights[i], c10::nullopt, {1, 1}, {1, 1});
        h = bias_relu(h, convBiases[i]);
        if (poolAfter[i]) {
            h = at::max_pool2d(h, {2, 2}, {2, 2});
        }
    }
    h = at::flatten(h, 1);
    // classifier: fc -> relu -> (dropout p=0) -> fc -> relu -> fc
    h = bias_relu(at::matmul(h, fcWeights[0].t()), fcBiases[0]);
    h = bias_relu(at::matmul(h, fcWeights[1].t()), fcBiases[1]);
    h = at::addmm(fcBiases[2], h, fcWeights[2].t());
    return h;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("vgg16_custom", &vgg16_custom_impl_npu, "VGG16 forward with fused bias+relu kernels");
    m.def("vgg16_bias_relu", &bias_relu, "relu(x + bias)");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, num_classes=1000):
        super(ModelNew, self).__init__()
        cfg = [(3, 64), (64, 64), (64, 128), (128, 128), (128, 256), (256, 256), (256, 256),
               (256, 512), (512, 512), (512, 512), (512, 512), (512, 512), (512, 512)]
        self.convs = nn.ModuleList([nn.Conv2d(i, o, kernel_size=3, padding=1) for i, o in cfg])
        self.fcs = nn.ModuleList([
            nn.Linear(512 * 7 * 7, 4096),
            nn.Linear(4096, 4096),
            nn.Linear(4096, num_classes),
        ])

    def forward(self, x):
        return custom_ops_lib.vgg16_custom(
            x,
            [c.weight for c in self.convs],
            [c.bias for c in self.convs],
            [f.weight for f in self.fcs],
            [f.bias for f in self.fcs],
        )
'''
