project_json_src='''
[
    {
        "op": "MobilenetV2Custom",
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
BEGIN_TILING_DATA_DEF(MobilenetV2CustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take one extra 32B block
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per "former" core
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per remaining core
  TILING_DATA_FIELD_DEF(uint32_t, lastPad);       // last core: elements beyond the real tensor
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MobilenetV2Custom, MobilenetV2CustomTilingData)
}
"""

host_operator_src="""
#include "mobilenet_v2_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_ELEMS = 8;     // 32 bytes / sizeof(float)
constexpr uint32_t TILE_LENGTH = 12288; // 48 KB per buffer

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MobilenetV2CustomTilingData tiling;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();

    uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    uint32_t blocks = (total + BLOCK_ELEMS - 1) / BLOCK_ELEMS;
    if (coreNum > blocks) coreNum = blocks;
    if (coreNum == 0) coreNum = 1;

    // distribute 32B blocks: the first `formerNum` cores get one block more
    uint32_t formerNum = blocks % coreNum;
    uint32_t tailBlocks = blocks / coreNum;
    uint32_t formerBlocks = tailBlocks + 1;

    tiling.set_formerNum(formerNum);
    tiling.set_formerLength(formerBlocks * BLOCK_ELEMS);
    tiling.set_tailLength(tailBlocks * BLOCK_ELEMS);
    tiling.set_lastPad(blocks * BLOCK_ELEMS - total);
    tiling.set_tileLength(TILE_LENGTH);

    context->SetBlockDim(coreNum);
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
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MobilenetV2Custom : public OpDef {
public:
    explicit MobilenetV2Custom(const char* name) : OpDef(name)
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

OP_ADD(MobilenetV2Custom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// ReLU6: y = min(max(x, 0), 6). Used after every BatchNorm except the linear bottleneck outputs.
class KernelRelu6 {
public:
    __aicore__ inline KernelRelu6() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t formerNum, uint32_t formerLength,
                                uint32_t tailLength, uint32_t lastPad, uint32_t tileLength)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint64_t offset;
        if (idx < formerNum) {
            coreLength = formerLength;
            offset = (uint64_t)formerLength * idx;
        } else {
            coreLength = tailLength;
            offset = (uint64_t)formerLength * formerNum + (uint64_t)tailLength * (idx - formerNum);
        }
        // the last core may own a few padded elements past the tensor end
        if (idx == AscendC::GetBlockNum() - 1) {
            coreLength -= lastPad;
        }
        this->tileLength = tileLength;

        xGm.SetGlobalBuffer((__gm__ float *)x + offset, coreLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + offset, coreLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t loops = (coreLength + tileLength - 1) / tileLength;
        for (uint32_t i = 0; i < loops; i++) {
            uint32_t len = (i == loops - 1) ? (coreLength - i * tileLength) : tileLength;
            CopyIn(i, len);
            Compute(len);
            CopyOut(i, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xLocal, xGm[(uint64_t)i * tileLength], cp, pad);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::Maxs(yLocal, xLocal, 0.0f, len);
        AscendC::Mins(yLocal, yLocal, 6.0f, len);
        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t i, uint32_t len)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(yGm[(uint64_t)i * tileLength], yLocal, cp);
        outQueueY.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t coreLength;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void mobilenet_v2_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRelu6 op;
    op.Init(x, y, tilingData.formerNum, tilingData.formerLength, tilingData.tailLength,
            tilingData.lastPad, tilingData.tileLength);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

static at::Tensor relu6_npu(const at::Tensor& x) {
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnMobilenetV2Custom, xc, y);
    return y;
}

// conv -> batch_norm -> (optional) relu6, one MobileNetV2 layer
static at::Tensor conv_bn(const at::Tensor& x, const at::Tensor& w,
                          const at::Tensor& g, const at::Tensor& b, const at::Tensor& rm, const at::Tensor& rv,
                          int64_t stride, int64_t groups, bool act, bool training)
{
    int64_t pad = (w.size(2) - 1) / 2;
    at::Tensor y = at::conv2d(x, w, {}, {stride, stride}, {pad, pad}, {1, 1}, groups);
    y = at::batch_norm(y, g, b, rm, rv, training, 0.1, 1e-5, false);
    return act ? relu6_npu(y) : y;
}

// Whole feature extractor.
//   conv_w : conv weights in network order
//   bn     : 4 tensors (weight, bias, running_mean, running_var) per conv, same order
//   meta   : 3 ints per conv: stride, groups, relu6 flag
//   blocks : 3 ints per inverted residual block: first conv index, number of convs, residual flag
at::Tensor mobilenet_v2_custom_impl_npu(const at::Tensor& x,
                                        const std::vector<at::Tensor>& conv_w,
                                        const std::vector<at::Tensor>& bn,
                                        const std::vector<int64_t>& meta,
                                        const std::vector<int64_t>& blocks,
                                        const at::Tensor& fc_w, const at::Tensor& fc_b,
                                        bool training)
{
    auto layer = [&](const at::Tensor& in, size_t i) {
        return conv_bn(in, conv_w[i], bn[4 * i], bn[4 * i + 1], bn[4 * i + 2], bn[4 * i + 3],
                       meta[3 * i], meta[3 * i + 1], meta[3 * i + 2] != 0, training);
    };

    at::Tensor h = layer(x, 0);   // stem
    size_t nextConv = 1;
    for (size_t b = 0; b + 2 < blocks.size(); b += 3) {
        int64_t first = blocks[b];
        int64_t count = blocks[b + 1];
        bool residual = blocks[b + 2] != 0;
        at::Tensor t = h;
        for (int64_t j = 0; j < count; ++j) {
            t = layer(t, static_cast<size_t>(first + j));
        }
        h = residual ? (t + h) : t;
        nextConv = static_cast<size_t>(first + count);
    }
    h = layer(h, nextConv);       // 1x1 conv to 1280 channels
    h = at::adaptive_avg_pool2d(h, {1, 1}).flatten(1);
    return at::linear(h, fc_w, fc_b);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("mobilenet_v2_custom", &mobilenet_v2_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("mobilenet_v2_custom", &mobilenet_v2_custom_impl_npu, "MobileNetV2 forward with custom ReLU6");
    m.def("relu6_custom", &relu6_npu, "ReLU6 on the AI core");
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

        def _make_divisible(v, divisor, min_value=None):
            if min_value is None:
                min_value = divisor
            new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
            if new_v < 0.9 * v:
                new_v += divisor
            return new_v

        self.convs = nn.ModuleList()
        self.bns = nn.ModuleList()
        self.meta = []     # stride, groups, relu6
        self.blocks = []   # first conv, count, residual

        def add(inp, oup, k, stride, groups, act):
            self.convs.append(nn.Conv2d(inp, oup, k, stride, (k - 1) // 2, groups=groups, bias=False))
            self.bns.append(nn.BatchNorm2d(oup))
            self.meta += [stride, groups, 1 if act else 0]

        input_channel = 32
        last_channel = 1280
        setting = [
            [1, 16, 1, 1],
            [6, 24, 2, 2],
            [6, 32, 3, 2],
            [6, 64, 4, 2],
            [6, 96, 3, 1],
            [6, 160, 3, 2],
            [6, 320, 1, 1],
        ]
        add(3, input_channel, 3, 2, 1, True)
        for t, c, n, s in setting:
            output_channel = _make_divisible(c, 8)
            for i in range(n):
                stride = s if i == 0 else 1
                hidden = int(input_channel * t)
                first = len(self.convs)
                if t != 1:
                    add(input_channel, hidden, 1, 1, 1, True)
                add(hidden, hidden, 3, stride, hidden, True)
                add(hidden, output_channel, 1, 1, 1, False)
                # the reference builds blocks but never adds the shortcut, so residual stays 0
                self.blocks += [first, len(self.convs) - first, 0]
                input_channel = output_channel
        add(input_channel, last_channel, 1, 1, 1, True)

        self.classifier = nn.Sequential(nn.Dropout(0.0), nn.Linear(last_channel, num_classes))

        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode='fan_out')
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.ones_(m.weight)
                nn.init.zeros_(m.bias)
            elif isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, 0, 0.01)
                nn.init.zeros_(m.bias)

    def forward(self, x):
        bn_params = []
        for bn in self.bns:
            bn_params += [bn.weight, bn.bias, bn.running_mean, bn.running_var]
        fc = self.classifier[1]
        return custom_ops_lib.mobilenet_v2_custom(
            x, [c.weight for c in self.convs], bn_params, self.meta, self.blocks,
            fc.weight, fc.bias, self.training)
'''
