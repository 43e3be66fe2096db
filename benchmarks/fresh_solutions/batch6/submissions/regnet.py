project_json_src='''
[
    {
        "op": "RegnetCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
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
                "name": "y",
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
BEGIN_TILING_DATA_DEF(RegnetCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalOutRows);   // N * C * (H / 2)
  TILING_DATA_FIELD_DEF(uint32_t, inWidth);        // W
  TILING_DATA_FIELD_DEF(uint32_t, outWidth);       // W / 2
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);    // output rows handled by one core
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);    // output rows handled by one UB tile
  TILING_DATA_FIELD_DEF(uint32_t, tileElems);      // rowsPerTile * W rounded up to 64
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RegnetCustom, RegnetCustomTilingData)
}
"""

host_operator_src="""
#include "regnet_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// max elements of one input-row group per tile; GatherMask normal mode can do
// at most 255 repeats of 64 floats, keep well below that
constexpr uint32_t MAX_TILE_ELEMS = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    RegnetCustomTilingData tiling;
    const gert::StorageShape* xShape = context->GetInputShape(0);
    const auto& shape = xShape->GetStorageShape();
    if (shape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = shape.GetDim(0);
    uint32_t c = shape.GetDim(1);
    uint32_t h = shape.GetDim(2);
    uint32_t w = shape.GetDim(3);
    // the fused relu + maxpool(2, 2) kernel assumes even spatial sizes
    if ((h % 2) != 0 || (w % 2) != 0) {
        return ge::GRAPH_FAILED;
    }
    // rows are packed back to back in UB, so one row must be a whole number of 32B blocks
    if ((w % 8) != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t outW = w / 2;
    uint32_t totalOutRows = n * c * (h / 2);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t rowsPerCore = (totalOutRows + coreNum - 1) / coreNum;
    uint32_t usedCores = (totalOutRows + rowsPerCore - 1) / rowsPerCore;

    uint32_t rowsPerTile = MAX_TILE_ELEMS / w;
    if (rowsPerTile == 0) {
        rowsPerTile = 1;
    }
    if (rowsPerTile > rowsPerCore) {
        rowsPerTile = rowsPerCore;
    }
    uint32_t tileElems = (rowsPerTile * w + 63) / 64 * 64;

    tiling.set_totalOutRows(totalOutRows);
    tiling.set_inWidth(w);
    tiling.set_outWidth(outW);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_tileElems(tileElems);

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
class RegnetCustom : public OpDef {
public:
    explicit RegnetCustom(const char* name) : OpDef(name)
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

OP_ADD(RegnetCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint8_t PATTERN_EVEN = 1;  // built-in GatherMask pattern: keep element 0 of every pair
constexpr uint8_t PATTERN_ODD = 2;   // built-in GatherMask pattern: keep element 1 of every pair
constexpr uint32_t FLOATS_PER_REPEAT = 64;

// Fused ReLU + MaxPool2d(kernel=2, stride=2) on an NCHW float tensor.
// Output row o (flattened over N*C*Ho) reads input rows 2*oy and 2*oy+1 of the
// same plane, which start at element o * 2 * W in the flattened input.
// Even input rows of a tile go to one buffer and odd rows to another (strided
// DataCopyPad), so the vertical max is a single Max call. The horizontal max is
// done by splitting even / odd columns with GatherMask.
class KernelRegnetReluPool {
public:
    __aicore__ inline KernelRegnetReluPool() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RegnetCustomTilingData& t)
    {
        inW = t.inWidth;
        outW = t.outWidth;
        rowsPerTile = t.rowsPerTile;
        tileElems = t.tileElems;

        uint32_t start = GetBlockIdx() * t.rowsPerCore;
        uint32_t end = start + t.rowsPerCore;
        if (end > t.totalOutRows) {
            end = t.totalOutRows;
        }
        rowBegin = start;
        rowCount = (end > start) ? (end - start) : 0;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(topQue, BUFFER_NUM, tileElems * sizeof(float));
        pipe.InitBuffer(botQue, BUFFER_NUM, tileElems * sizeof(float));
        pipe.InitBuffer(outQue, BUFFER_NUM, tileElems / 2 * sizeof(float));
        pipe.InitBuffer(vmaxBuf, tileElems * sizeof(float));
        pipe.InitBuffer(colBuf, tileElems * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t done = 0;
        while (done < rowCount) {
            uint32_t rows = rowCount - done;
            if (rows > rowsPerTile) {
                rows = rowsPerTile;
            }
            uint64_t outRow = (uint64_t)rowBegin + done;
            CopyIn(outRow, rows);
            Compute(rows);
            CopyOut(outRow, rows);
            done += rows;
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t outRow, uint32_t rows)
    {
        LocalTensor<float> top = topQue.AllocTensor<float>();
        LocalTensor<float> bot = botQue.AllocTensor<float>();
        // rows blocks of W floats, skipping the interleaved row between them
        DataCopyExtParams cp{(uint16_t)rows, inW * (uint32_t)sizeof(float), inW * (uint32_t)sizeof(float), 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        uint64_t base = outRow * 2 * inW;
        DataCopyPad(top, xGm[base], cp, pad);
        DataCopyPad(bot, xGm[base + inW], cp, pad);
        topQue.EnQue(top);
        botQue.EnQue(bot);
    }

    __aicore__ inline void Compute(uint32_t rows)
    {
        LocalTensor<float> top = topQue.DeQue<float>();
        LocalTensor<float> bot = botQue.DeQue<float>();
        LocalTensor<float> out = outQue.AllocTensor<float>();
        LocalTensor<float> vmax = vmaxBuf.Get<float>();
        LocalTensor<float> cols = colBuf.Get<float>();

        uint32_t elems = rows * inW;
        uint32_t padded = (elems + FLOATS_PER_REPEAT - 1) / FLOATS_PER_REPEAT * FLOATS_PER_REPEAT;
        uint32_t half = padded / 2;

        // vertical max of the row pairs
        Max(vmax, top, bot, padded);
        PipeBarrier<PIPE_V>();

        // split even / odd columns; W is even so no pair crosses a row boundary
        uint64_t rsvd = 0;
        uint16_t repeats = (uint16_t)(padded / FLOATS_PER_REPEAT);
        GatherMaskParams gp{1, repeats, 8, 0};
        LocalTensor<float> evenCols = cols;
        LocalTensor<float> oddCols = cols[half];
        GatherMask(evenCols, vmax, PATTERN_EVEN, false, 0, gp, rsvd);
        GatherMask(oddCols, vmax, PATTERN_ODD, false, 0, gp, rsvd);
        PipeBarrier<PIPE_V>();

        // horizontal max then ReLU (relu commutes with max)
        Max(out, evenCols, oddCols, half);
        PipeBarrier<PIPE_V>();
        Relu(out, out, half);

        outQue.EnQue(out);
        topQue.FreeTensor(top);
        botQue.FreeTensor(bot);
    }

    __aicore__ inline void CopyOut(uint64_t outRow, uint32_t rows)
    {
        LocalTensor<float> out = outQue.DeQue<float>();
        DataCopyExtParams cp{1, rows * outW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[outRow * outW], out, cp);
        outQue.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> topQue;
    TQue<QuePosition::VECIN, BUFFER_NUM> botQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<TPosition::VECCALC> vmaxBuf;
    TBuf<TPosition::VECCALC> colBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t inW = 0;
    uint32_t outW = 0;
    uint32_t rowsPerTile = 0;
    uint32_t tileElems = 0;
    uint32_t rowBegin = 0;
    uint32_t rowCount = 0;
};

extern "C" __global__ __aicore__ void regnet_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRegnetReluPool op;
    op.Init(x, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// fused relu + maxpool(2,2) through the custom AscendC kernel
static at::Tensor relu_maxpool2x2_npu(const at::Tensor& x)
{
    at::Tensor input = x.contiguous();
    auto sizes = input.sizes();
    at::Tensor out = at::empty({sizes[0], sizes[1], sizes[2] / 2, sizes[3] / 2}, input.options());
    EXEC_NPU_CMD(aclnnRegnetCustom, input, out);
    return out;
}

// Whole RegNet forward. Convolutions, batch norm and the classifier run through
// ATen (cube kernels already exist for those); each stage ends with the custom
// fused ReLU + MaxPool kernel.
at::Tensor regnet_custom_impl_npu(
    const at::Tensor& x,
    const std::vector<at::Tensor>& convWeights,
    const std::vector<at::Tensor>& convBiases,
    const std::vector<at::Tensor>& bnWeights,
    const std::vector<at::Tensor>& bnBiases,
    const std::vector<at::Tensor>& bnMeans,
    const std::vector<at::Tensor>& bnVars,
    const at::Tensor& fcWeight,
    const at::Tensor& fcBias,
    bool training)
{
    TORCH_CHECK(convWeights.size() % 2 == 0, "expected two convs per stage");
    const double momentum = 0.1;
    const double eps = 1e-5;
    at::Tensor h = x;
    size_t stages = convWeights.size() / 2;
    for (size_t s = 0; s < stages; ++s) {
        size_t i0 = 2 * s;
        size_t i1 = 2 * s + 1;
        h = at::conv2d(h, convWeights[i0], convBiases[i0], {1, 1}, {1, 1});
        h = at::batch_norm(h, bnWeights[i0], bnBiases[i0], bnMeans[i0], bnVars[i0], training, momentum, eps, true);
        h = at::relu(h);
        h = at::conv2d(h, convWeights[i1], convBiases[i1], {1, 1}, {1, 1});
        h = at::batch_norm(h, bnWeights[i1], bnBiases[i1], bnMeans[i1], bnVars[i1], training, momentum, eps, true);
        h = relu_maxpool2x2_npu(h);
    }
    h = at::mean(h, {2, 3});
    return at::linear(h, fcWeight, fcBias);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("regnet_custom", &regnet_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("regnet_custom", &regnet_custom_impl_npu, "RegNet forward with fused relu+maxpool kernel");
    m.def("relu_maxpool2x2", &relu_maxpool2x2_npu, "fused relu + maxpool 2x2");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, input_channels, stages, block_widths, output_classes):
        super(ModelNew, self).__init__()
        self.stages = stages
        self.block_widths = block_widths
        layers = []
        current_channels = input_channels
        for i in range(stages):
            layers.append(self._make_stage(current_channels, block_widths[i]))
            current_channels = block_widths[i]
        self.feature_extractor = nn.Sequential(*layers)
        self.fc = nn.Linear(block_widths[-1], output_classes)

    def _make_stage(self, in_channels, out_channels):
        # same parameter layout as the reference so state dicts match
        return nn.Sequential(
            nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(),
            nn.Conv2d(out_channels, out_channels, kernel_size=3, padding=1),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2)
        )

    def forward(self, x):
        conv_w, conv_b, bn_w, bn_b, bn_m, bn_v = [], [], [], [], [], []
        for stage in self.feature_extractor:
            for idx in (0, 3):
                conv = stage[idx]
                bn = stage[idx + 1]
                conv_w.append(conv.weight)
                conv_b.append(conv.bias)
                bn_w.append(bn.weight)
                bn_b.append(bn.bias)
                bn_m.append(bn.running_mean)
                bn_v.append(bn.running_var)
        return custom_ops_lib.regnet_custom(x, conv_w, conv_b, bn_w, bn_b, bn_m, bn_v,
                                            self.fc.weight, self.fc.bias, self.training)
'''
