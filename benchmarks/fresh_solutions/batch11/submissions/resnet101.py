project_json_src='''
[
    {
        "op": "Resnet101Custom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "identity", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Resnet101CustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
  TILING_DATA_FIELD_DEF(uint32_t, perCoreLength);  // multiple of 8
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Resnet101Custom, Resnet101CustomTilingData)
}
"""

host_operator_src="""
#include "resnet101_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE = 6144;

// Residual tail of every Bottleneck block: y = relu(bn3(conv3(..)) + identity)
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Resnet101CustomTilingData tiling;
    uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;

    uint32_t per = (total + cores - 1) / cores;
    per = (per + 7) / 8 * 8;
    if (per == 0) per = 8;
    uint32_t used = (total + per - 1) / per;
    context->SetBlockDim(used);

    tiling.set_totalLength(total);
    tiling.set_perCoreLength(per);
    tiling.set_tileLength(TILE);
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
class Resnet101Custom : public OpDef {
public:
    explicit Resnet101Custom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("identity").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Resnet101Custom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y = max(x + identity, 0)
class KernelResidualRelu {
public:
    __aicore__ inline KernelResidualRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR res, GM_ADDR y, uint32_t total, uint32_t perCore, uint32_t tile)
    {
        uint32_t start = AscendC::GetBlockIdx() * perCore;
        len = (start + perCore <= total) ? perCore : (start < total ? total - start : 0);
        tileLen = tile;
        xGm.SetGlobalBuffer((__gm__ float*)x + start, len);
        rGm.SetGlobalBuffer((__gm__ float*)res + start, len);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, len);
        pipe.InitBuffer(qx, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(qr, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(qy, BUFFER_NUM, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t off = 0; off < len; off += tileLen) {
            uint32_t cnt = (len - off < tileLen) ? (len - off) : tileLen;
            CopyIn(off, cnt);
            Compute(cnt);
            CopyOut(off, cnt);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t cnt)
    {
        AscendC::LocalTensor<float> a = qx.AllocTensor<float>();
        AscendC::LocalTensor<float> b = qr.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, cnt * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(a, xGm[off], cp, pad);
        AscendC::DataCopyPad(b, rGm[off], cp, pad);
        qx.EnQue(a);
        qr.EnQue(b);
    }

    __aicore__ inline void Compute(uint32_t cnt)
    {
        uint32_t n = (cnt + 7) / 8 * 8;
        AscendC::LocalTensor<float> a = qx.DeQue<float>();
        AscendC::LocalTensor<float> b = qr.DeQue<float>();
        AscendC::LocalTensor<float> c = qy.AllocTensor<float>();
        AscendC::Add(c, a, b, n);
        AscendC::Relu(c, c, n);
        qy.EnQue(c);
        qx.FreeTensor(a);
        qr.FreeTensor(b);
    }

    __aicore__ inline void CopyOut(uint32_t off, uint32_t cnt)
    {
        AscendC::LocalTensor<float> c = qy.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, cnt * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[off], c, cp);
        qy.FreeTensor(c);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> qx, qr;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> qy;
    AscendC::GlobalTensor<float> xGm, rGm, yGm;
    uint32_t len;
    uint32_t tileLen;
};

extern "C" __global__ __aicore__ void resnet101_custom(GM_ADDR x, GM_ADDR identity, GM_ADDR y,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelResidualRelu op;
    op.Init(x, identity, y, t.totalLength, t.perCoreLength, t.tileLength);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// fused residual add + relu used at the end of each Bottleneck
at::Tensor resnet101_custom_impl_npu(const at::Tensor& x, const at::Tensor& identity)
{
    at::Tensor a = x.contiguous();
    at::Tensor b = identity.contiguous();
    at::Tensor y = at::empty_like(a);
    EXEC_NPU_CMD(aclnnResnet101Custom, a, b, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("resnet101_custom", &resnet101_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("resnet101_custom", &resnet101_custom_impl_npu, "relu(x + identity)");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class Bottleneck(nn.Module):
    expansion = 4

    def __init__(self, in_channels, out_channels, stride=1, downsample=None):
        super(Bottleneck, self).__init__()
        self.conv1 = nn.Conv2d(in_channels, out_channels, kernel_size=1, bias=False)
        self.bn1 = nn.BatchNorm2d(out_channels)
        self.conv2 = nn.Conv2d(out_channels, out_channels, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_channels)
        self.conv3 = nn.Conv2d(out_channels, out_channels * self.expansion, kernel_size=1, bias=False)
        self.bn3 = nn.BatchNorm2d(out_channels * self.expansion)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        # fused residual add + relu on the vector cores
        return custom_ops_lib.resnet101_custom(out, identity)


class ModelNew(nn.Module):
    def __init__(self, layers, num_classes=1000):
        super(ModelNew, self).__init__()
        self.in_channels = 64
        self.conv1 = nn.Conv2d(3, self.in_channels, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(self.in_channels)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)

        block = Bottleneck
        self.layer1 = self._make_layer(block, 64, layers[0])
        self.layer2 = self._make_layer(block, 128, layers[1], stride=2)
        self.layer3 = self._make_layer(block, 256, layers[2], stride=2)
        self.layer4 = self._make_layer(block, 512, layers[3], stride=2)

        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(512 * block.expansion, num_classes)

    def _make_layer(self, block, out_channels, blocks, stride=1):
        downsample = None
        if stride != 1 or self.in_channels != out_channels * block.expansion:
            downsample = nn.Sequential(
                nn.Conv2d(self.in_channels, out_channels * block.expansion, kernel_size=1, stride=stride, bias=False),
                nn.BatchNorm2d(out_channels * block.expansion),
            )
        layers = [block(self.in_channels, out_channels, stride, downsample)]
        self.in_channels = out_channels * block.expansion
        for _ in range(1, blocks):
            layers.append(block(self.in_channels, out_channels))
        return nn.Sequential(*layers)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer1(x)
        x = self.layer2(x)
        x = self.layer3(x)
        x = self.layer4(x)
        x = self.avgpool(x)
        x = torch.flatten(x, 1)
        return self.fc(x)
'''
