project_json_src='''
[
    {
        "op": "ShufflenetCustom",
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
        ],
        "attr": [
            {
                "name": "groups",
                "param_type": "required",
                "type": "int"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ShufflenetCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);     // H * W
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);      // 一次搬运的元素个数
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, planesRemain);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ShufflenetCustom, ShufflenetCustomTilingData)
}
"""

host_operator_src="""
#include "shufflenet_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t CHUNK = 16384;   // 64KB 一块, 双缓冲 128KB

// ShuffleNet 中真正需要自定义的是 channel shuffle (view -> transpose -> contiguous),
// 它在 torch 里会触发一次完整的转置拷贝; 这里按通道平面做直接搬运.
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ShufflenetCustomTilingData td;
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t groups = static_cast<uint32_t>(*context->GetAttrs()->GetAttrPointer<int64_t>(0));
    uint32_t n = xs.GetDim(0);
    uint32_t c = xs.GetDim(1);
    uint32_t hw = xs.GetDim(2) * xs.GetDim(3);
    if (groups == 0 || c % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t chunk = hw < CHUNK ? hw : CHUNK;

    uint32_t planes = n * c;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint32_t blockDim = planes < coreNum ? planes : coreNum;
    if (blockDim == 0) blockDim = 1;

    td.set_batch(n);
    td.set_channels(c);
    td.set_groups(groups);
    td.set_chPerGroup(c / groups);
    td.set_planeSize(hw);
    td.set_chunkLen(chunk);
    td.set_planesPerCore(planes / blockDim);
    td.set_planesRemain(planes % blockDim);

    context->SetBlockDim(blockDim);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
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
class ShufflenetCustom : public OpDef {
public:
    explicit ShufflenetCustom(const char* name) : OpDef(name)
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
        this->Attr("groups").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ShufflenetCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// channel shuffle:
//   输入通道 ic = g * cpg + j  (g < groups, j < cpg)
//   输出通道 oc = j * groups + g
// 以输出平面为单位分核, 每个输出平面从对应的输入平面整块拷贝 (经 UB 中转)
class KernelChannelShuffle {
public:
    __aicore__ inline KernelChannelShuffle() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ShufflenetCustomTilingData& td)
    {
        channels = td.channels;
        groups = td.groups;
        cpg = td.chPerGroup;
        hw = td.planeSize;
        chunkLen = td.chunkLen;

        uint32_t bid = AscendC::GetBlockIdx();
        count = td.planesPerCore + (bid < td.planesRemain ? 1 : 0);
        first = bid * td.planesPerCore + (bid < td.planesRemain ? bid : td.planesRemain);

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        // 只做搬运, 一个 VECIN 与 VECOUT 共用同一块: 用 TQueBind 直接 GM->UB->GM
        pipe.InitBuffer(bindQ, BUFFER_NUM, ((chunkLen + 7) / 8 * 8) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = 0; p < count; ++p) {
            uint32_t outPlane = first + p;
            uint32_t n = outPlane / channels;
            uint32_t oc = outPlane % channels;
            uint32_t j = oc / groups;
            uint32_t g = oc % groups;
            uint32_t ic = g * cpg + j;
            uint64_t srcOff = ((uint64_t)n * channels + ic) * hw;
            uint64_t dstOff = (uint64_t)outPlane * hw;
            CopyPlane(srcOff, dstOff);
        }
    }

private:
    __aicore__ inline void CopyPlane(uint64_t srcOff, uint64_t dstOff)
    {
        for (uint32_t pos = 0; pos < hw; pos += chunkLen) {
            uint32_t len = (pos + chunkLen <= hw) ? chunkLen : (hw - pos);
            AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};

            AscendC::LocalTensor<float> buf = bindQ.AllocTensor<float>();
            AscendC::DataCopyPad(buf, xGm[srcOff + pos], cp, pad);
            bindQ.EnQue(buf);
            buf = bindQ.DeQue<float>();
            AscendC::DataCopyPad(yGm[dstOff + pos], buf, cp);
            bindQ.FreeTensor(buf);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, BUFFER_NUM> bindQ;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t channels, groups, cpg, hw, chunkLen;
    uint32_t first, count;
};

extern "C" __global__ __aicore__ void shufflenet_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelChannelShuffle op;
    op.Init(x, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor shufflenet_custom_impl_npu(const at::Tensor& x, int64_t groups)
{
    at::Tensor xc = x.contiguous();
    at::Tensor out = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnShufflenetCustom, xc, groups, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("shufflenet_custom", &shufflenet_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("shufflenet_custom", &shufflenet_custom_impl_npu, "ShuffleNet channel shuffle");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_npu
import custom_ops_lib


class ChannelShuffleNew(nn.Module):
    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, x):
        # 自定义算子完成 view/transpose/contiguous 三步
        return custom_ops_lib.shufflenet_custom(x, self.groups)


class ShuffleNetUnit(nn.Module):
    def __init__(self, in_channels, out_channels, groups=3):
        super().__init__()
        assert out_channels % 4 == 0
        mid_channels = out_channels // 4
        self.conv1 = nn.Conv2d(in_channels, mid_channels, kernel_size=1, stride=1, padding=0, groups=groups, bias=False)
        self.bn1 = nn.BatchNorm2d(mid_channels)
        self.conv2 = nn.Conv2d(mid_channels, mid_channels, kernel_size=3, stride=1, padding=1, groups=mid_channels, bias=False)
        self.bn2 = nn.BatchNorm2d(mid_channels)
        self.conv3 = nn.Conv2d(mid_channels, out_channels, kernel_size=1, stride=1, padding=0, groups=groups, bias=False)
        self.bn3 = nn.BatchNorm2d(out_channels)
        self.shuffle = ChannelShuffleNew(groups)
        if in_channels == out_channels:
            self.shortcut = nn.Sequential()
        else:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_channels, out_channels, kernel_size=1, stride=1, padding=0, bias=False),
                nn.BatchNorm2d(out_channels)
            )

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out = self.shuffle(out)
        out = F.relu(self.bn3(self.conv3(out)))
        out += self.shortcut(x)
        return out


class ModelNew(nn.Module):
    def __init__(self, num_classes=1000, groups=3, stages_repeats=[3, 7, 3], stages_out_channels=[24, 240, 480, 960]):
        super().__init__()
        self.conv1 = nn.Conv2d(3, stages_out_channels[0], kernel_size=3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(stages_out_channels[0])
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.stage2 = self._make_stage(stages_out_channels[0], stages_out_channels[1], stages_repeats[0], groups)
        self.stage3 = self._make_stage(stages_out_channels[1], stages_out_channels[2], stages_repeats[1], groups)
        self.stage4 = self._make_stage(stages_out_channels[2], stages_out_channels[3], stages_repeats[2], groups)
        self.conv5 = nn.Conv2d(stages_out_channels[3], 1024, kernel_size=1, stride=1, padding=0, bias=False)
        self.bn5 = nn.BatchNorm2d(1024)
        self.fc = nn.Linear(1024, num_classes)

    def _make_stage(self, in_channels, out_channels, repeats, groups):
        layers = [ShuffleNetUnit(in_channels, out_channels, groups)]
        for _ in range(1, repeats):
            layers.append(ShuffleNetUnit(out_channels, out_channels, groups))
        return nn.Sequential(*layers)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = self.maxpool(x)
        x = self.stage2(x)
        x = self.stage3(x)
        x = self.stage4(x)
        x = F.relu(self.bn5(self.conv5(x)))
        x = F.adaptive_avg_pool2d(x, (1, 1))
        x = x.view(x.size(0), -1)
        return self.fc(x)
'''
