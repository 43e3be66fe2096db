# project json
project_json_src='''
[
    {
        "op": "ShufflenetCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "groups", "param_type": "required", "type": "int"}
        ]
    }
]
'''

# host tiling
host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ShufflenetCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, hw);
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, totalPlanes);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ShufflenetCustom, ShufflenetCustomTilingData)
}
"""

# host operator
host_operator_src="""
#include "shufflenet_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    ShufflenetCustomTilingData t;
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    const gert::Shape& s = ctx->GetInputShape(0)->GetStorageShape();
    uint32_t n = s.GetDim(0), c = s.GetDim(1);
    uint32_t hw = s.GetDim(2) * s.GetDim(3);
    uint32_t g = static_cast<uint32_t>(*ctx->GetAttrs()->GetInt(0));
    if (g == 0 || c % g != 0) return ge::GRAPH_FAILED;
    uint32_t planes = n * c;
    uint32_t use = planes < cores ? planes : cores;
    if (use == 0) use = 1;
    uint32_t per = (planes + use - 1) / use;
    use = (planes + per - 1) / per;
    uint32_t tl = 8192;
    if (hw < tl) tl = (hw + 7) / 8 * 8;
    t.set_batch(n);
    t.set_channels(c);
    t.set_groups(g);
    t.set_hw(hw);
    t.set_planesPerCore(per);
    t.set_totalPlanes(planes);
    t.set_tileLen(tl);
    ctx->SetBlockDim(use);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t* ws = ctx->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ShufflenetCustom : public OpDef {
public:
    explicit ShufflenetCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("groups").Int();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ShufflenetCustom);
}
"""

# kernel
kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUF = 2;

class KernelShuffle {
public:
    __aicore__ inline KernelShuffle() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ShufflenetCustomTilingData& td)
    {
        c = td.channels;
        g = td.groups;
        cpg = c / g;
        hw = td.hw;
        tl = td.tileLen;
        uint32_t st = GetBlockIdx() * td.planesPerCore;
        p0 = st;
        p1 = st + td.planesPerCore;
        if (p1 > td.totalPlanes) p1 = td.totalPlanes;
        xg.SetGlobalBuffer((__gm__ float*)x);
        yg.SetGlobalBuffer((__gm__ float*)y);
        pipe.InitBuffer(q, BUF, tl * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t p = p0; p < p1; ++p) {
            uint32_t n = p / c;
            uint32_t co = p % c;
            uint32_t gi = co % g;
            uint32_t ii = co / g;
            uint32_t ci = gi * cpg + ii;
            uint64_t src = ((uint64_t)n * c + ci) * hw;
            uint64_t dst = (uint64_t)p * hw;
            for (uint32_t off = 0; off < hw; off += tl) {
                uint32_t len = hw - off < tl ? hw - off : tl;
                CopyIn(src + off, len);
                CopyOut(dst + off, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<float> b = q.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
        DataCopyPad(b, xg[off], cp, pd);
        q.EnQue(b);
    }
    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        LocalTensor<float> b = q.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yg[off], b, cp);
        q.FreeTensor(b);
    }

    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, BUF> q;
    GlobalTensor<float> xg, yg;
    uint32_t c, g, cpg, hw, tl, p0, p1;
};

extern "C" __global__ __aicore__ void shufflenet_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelShuffle op;
    op.Init(x, y, td);
    op.Process();
}
"""

# python binding
python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor shufflenet_custom_impl_npu(const at::Tensor& x, int64_t groups)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnShufflenetCustom, xc, groups, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("shufflenet_custom", &shufflenet_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("shufflenet_custom", &shufflenet_custom_impl_npu, "shufflenet channel shuffle");
}
"""

# model
model_src='''
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_npu
import custom_ops_lib


class ChannelShuffle(nn.Module):
    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, x):
        return custom_ops_lib.shufflenet_custom(x, self.groups)


class ShuffleNetUnit(nn.Module):
    def __init__(self, in_channels, out_channels, groups=3):
        super().__init__()
        assert out_channels % 4 == 0
        mid = out_channels // 4
        self.conv1 = nn.Conv2d(in_channels, mid, 1, 1, 0, groups=groups, bias=False)
        self.bn1 = nn.BatchNorm2d(mid)
        self.conv2 = nn.Conv2d(mid, mid, 3, 1, 1, groups=mid, bias=False)
        self.bn2 = nn.BatchNorm2d(mid)
        self.conv3 = nn.Conv2d(mid, out_channels, 1, 1, 0, groups=groups, bias=False)
        self.bn3 = nn.BatchNorm2d(out_channels)
        self.shuffle = ChannelShuffle(groups)
        if in_channels == out_channels:
            self.shortcut = nn.Sequential()
        else:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_channels, out_channels, 1, 1, 0, bias=False),
                nn.BatchNorm2d(out_channels))

    def forward(self, x):
        o = F.relu(self.bn1(self.conv1(x)))
        o = self.bn2(self.conv2(o))
        o = self.shuffle(o)
        o = F.relu(self.bn3(self.conv3(o)))
        return o + self.shortcut(x)


class ModelNew(nn.Module):
    def __init__(self, num_classes=1000, groups=3, stages_repeats=[3, 7, 3], stages_out_channels=[24, 240, 480, 960]):
        super().__init__()
        self.conv1 = nn.Conv2d(3, stages_out_channels[0], 3, 2, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(stages_out_channels[0])
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        self.stage2 = self._make_stage(stages_out_channels[0], stages_out_channels[1], stages_repeats[0], groups)
        self.stage3 = self._make_stage(stages_out_channels[1], stages_out_channels[2], stages_repeats[1], groups)
        self.stage4 = self._make_stage(stages_out_channels[2], stages_out_channels[3], stages_repeats[2], groups)
        self.conv5 = nn.Conv2d(stages_out_channels[3], 1024, 1, 1, 0, bias=False)
        self.bn5 = nn.BatchNorm2d(1024)
        self.fc = nn.Linear(1024, num_classes)

    def _make_stage(self, cin, cout, rep, groups):
        layers = [ShuffleNetUnit(cin, cout, groups)]
        for _ in range(1, rep):
            layers.append(ShuffleNetUnit(cout, cout, groups))
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
