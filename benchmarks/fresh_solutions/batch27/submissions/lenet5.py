project_json_src='''
[
    {
        "op": "Lenet5Custom",
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
BEGIN_TILING_DATA_DEF(Lenet5CustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, rowStride);       // padded row length in UB (floats)
  TILING_DATA_FIELD_DEF(uint32_t, totalPairRows);   // N * C * H / 2 == number of output rows
  TILING_DATA_FIELD_DEF(uint32_t, pairRowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, remainPairRows);
  TILING_DATA_FIELD_DEF(uint32_t, pairRowsPerTile);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Lenet5Custom, Lenet5CustomTilingData)
}
"""

host_operator_src="""
#include "lenet5_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t IN_TILE_BUDGET = 8192;   // floats of input rows per UB tile

// The custom op is the "relu + 2x2/2 max pool" stage that follows both LeNet
// convolutions. Every pair of input rows produces one output row; with an even
// H the pairs never straddle two planes, so the work is a flat list of pair rows.
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Lenet5CustomTilingData tiling;
    const auto& shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = shape.GetDim(0);
    uint32_t c = shape.GetDim(1);
    uint32_t h = shape.GetDim(2);
    uint32_t w = shape.GetDim(3);
    if (h % 2 != 0 || w < 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rowStride = (w + 7) / 8 * 8;
    uint32_t totalPairRows = n * c * (h / 2);

    uint32_t pairRowsPerTile = IN_TILE_BUDGET / (2 * rowStride);
    if (pairRowsPerTile == 0) {
        pairRowsPerTile = 1;
    }
    if (pairRowsPerTile > 2047) {
        pairRowsPerTile = 2047;   // DataCopyPad blockCount limit (2 rows per pair)
    }

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint32_t blockDim = totalPairRows < coreNum ? totalPairRows : coreNum;
    if (blockDim == 0) {
        blockDim = 1;
    }

    tiling.set_width(w);
    tiling.set_outW(w / 2);
    tiling.set_rowStride(rowStride);
    tiling.set_totalPairRows(totalPairRows);
    tiling.set_pairRowsPerCore(totalPairRows / blockDim);
    tiling.set_remainPairRows(totalPairRows % blockDim);
    tiling.set_pairRowsPerTile(pairRowsPerTile);

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
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(4);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, xShape->GetDim(1));
    yShape->SetDim(2, xShape->GetDim(2) / 2);
    yShape->SetDim(3, xShape->GetDim(3) / 2);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Lenet5Custom : public OpDef {
public:
    explicit Lenet5Custom(const char* name) : OpDef(name)
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

OP_ADD(Lenet5Custom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y = max_pool2d(relu(x), 2, 2). relu and max commute, so pool first and apply
// relu on the (4x smaller) pooled tile.
class KernelReluMaxPool2x2 {
public:
    __aicore__ inline KernelReluMaxPool2x2() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t width, uint32_t outW, uint32_t rowStride,
                                uint32_t pairRowsPerCore, uint32_t remainPairRows, uint32_t pairRowsPerTile)
    {
        this->width = width;
        this->outW = outW;
        this->rowStride = rowStride;
        this->pairRowsPerTile = pairRowsPerTile;

        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (blockIdx < remainPairRows) {
            pairCount = pairRowsPerCore + 1;
            pairStart = blockIdx * (pairRowsPerCore + 1);
        } else {
            pairCount = pairRowsPerCore;
            pairStart = remainPairRows * (pairRowsPerCore + 1) + (blockIdx - remainPairRows) * pairRowsPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        outTileLen = (pairRowsPerTile * outW + 7) / 8 * 8;
        pipe.InitBuffer(inQueue, BUFFER_NUM, pairRowsPerTile * 2 * rowStride * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, outTileLen * sizeof(float));
        pipe.InitBuffer(offsetBuf, outTileLen * sizeof(uint32_t));
        pipe.InitBuffer(tmpBuf, outTileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (pairCount == 0) {
            return;
        }
        BuildOffsets();
        uint32_t tiles = (pairCount + pairRowsPerTile - 1) / pairRowsPerTile;
        for (uint32_t t = 0; t < tiles; t++) {
            uint32_t first = pairStart + t * pairRowsPerTile;
            uint32_t rows = (t == tiles - 1) ? (pairCount - t * pairRowsPerTile) : pairRowsPerTile;
            CopyIn(first, rows);
            Compute(rows);
            CopyOut(first, rows);
        }
    }

private:
    // byte offset of the top-left element of every 2x2 window inside a tile
    __aicore__ inline void BuildOffsets()
    {
        AscendC::LocalTensor<uint32_t> off = offsetBuf.Get<uint32_t>();
        for (uint32_t r = 0; r < pairRowsPerTile; r++) {
            for (uint32_t ow = 0; ow < outW; ow++) {
                off.SetValue(r * outW + ow, (2 * r * rowStride + 2 * ow) * static_cast<uint32_t>(sizeof(float)));
            }
        }
        for (uint32_t i = pairRowsPerTile * outW; i < outTileLen; i++) {
            off.SetValue(i, 0);
        }
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(ev);
    }

    __aicore__ inline void CopyIn(uint32_t firstPair, uint32_t rows)
    {
        AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        // 2*rows input rows, each W floats, padded to rowStride in UB
        uint32_t gap = (rowStride - (width + 7) / 8 * 8) / 8;
        AscendC::DataCopyExtParams cp{static_cast<uint16_t>(2 * rows),
                                      width * static_cast<uint32_t>(sizeof(float)), 0, gap, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        uint64_t gmOffset = static_cast<uint64_t>(firstPair) * 2 * width;
        AscendC::DataCopyPad(xLocal, xGm[gmOffset], cp, pad);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<float> xLocal = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        AscendC::LocalTensor<uint32_t> off = offsetBuf.Get<uint32_t>();
        AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();
        uint32_t cnt = rows * outW;
        uint32_t stepDown = rowStride * static_cast<uint32_t>(sizeof(float));
        uint32_t stepRight = static_cast<uint32_t>(sizeof(float));

        AscendC::Gather(yLocal, xLocal, off, 0u, cnt);
        AscendC::Gather(tmp, xLocal, off, stepRight, cnt);
        AscendC::Max(yLocal, yLocal, tmp, cnt);
        AscendC::Gather(tmp, xLocal, off, stepDown, cnt);
        AscendC::Max(yLocal, yLocal, tmp, cnt);
        AscendC::Gather(tmp, xLocal, off, stepDown + stepRight, cnt);
        AscendC::Max(yLocal, yLocal, tmp, cnt);
        AscendC::Relu(yLocal, yLocal, cnt);

        outQueue.EnQue<float>(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t firstPair, uint32_t rows)
    {
        AscendC::LocalTensor<float> yLocal = outQueue.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, rows * outW * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(firstPair) * outW], yLocal, cp);
        outQueue.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> offsetBuf, tmpBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t width, outW, rowStride, pairRowsPerTile, outTileLen;
    uint32_t pairStart, pairCount;
};

extern "C" __global__ __aicore__ void lenet5_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelReluMaxPool2x2 op;
    op.Init(x, y, tiling_data.width, tiling_data.outW, tiling_data.rowStride, tiling_data.pairRowsPerCore,
            tiling_data.remainPairRows, tiling_data.pairRowsPerTile);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

static at::Tensor relu_pool(const at::Tensor& x)
{
    at::Tensor xc = x.contiguous();
    auto s = xc.sizes();
    at::Tensor out = at::empty({s[0], s[1], s[2] / 2, s[3] / 2}, xc.options());
    EXEC_NPU_CMD(aclnnLenet5Custom, xc, out);
    return out;
}

// conv -> [relu + maxpool] -> conv -> [relu + maxpool] -> fc -> relu -> fc -> relu -> fc
at::Tensor lenet5_custom_impl_npu(const at::Tensor& x,
                                  const at::Tensor& conv1_w, const at::Tensor& conv1_b,
                                  const at::Tensor& conv2_w, const at::Tensor& conv2_b,
                                  const at::Tensor& fc1_w, const at::Tensor& fc1_b,
                                  const at::Tensor& fc2_w, const at::Tensor& fc2_b,
                                  const at::Tensor& fc3_w, const at::Tensor& fc3_b)
{
    at::Tensor h = relu_pool(at::conv2d(x, conv1_w, conv1_b));
    h = relu_pool(at::conv2d(h, conv2_w, conv2_b));
    h = h.reshape({h.size(0), -1});
    h = at::relu(at::linear(h, fc1_w, fc1_b));
    h = at::relu(at::linear(h, fc2_w, fc2_b));
    return at::linear(h, fc3_w, fc3_b);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("lenet5_custom", &lenet5_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("lenet5_custom", &lenet5_custom_impl_npu, "LeNet-5 forward with fused relu+maxpool kernel");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, num_classes):
        super(ModelNew, self).__init__()
        self.conv1 = torch.nn.Conv2d(in_channels=1, out_channels=6, kernel_size=5, stride=1)
        self.conv2 = torch.nn.Conv2d(in_channels=6, out_channels=16, kernel_size=5, stride=1)
        self.fc1 = torch.nn.Linear(in_features=16 * 5 * 5, out_features=120)
        self.fc2 = torch.nn.Linear(in_features=120, out_features=84)
        self.fc3 = torch.nn.Linear(in_features=84, out_features=num_classes)

    def forward(self, x):
        return custom_ops_lib.lenet5_custom(
            x,
            self.conv1.weight, self.conv1.bias,
            self.conv2.weight, self.conv2.bias,
            self.fc1.weight, self.fc1.bias,
            self.fc2.weight, self.fc2.bias,
            self.fc3.weight, self.fc3.bias)
'''
