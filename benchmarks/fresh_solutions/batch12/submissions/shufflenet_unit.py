project_json_src='''
[
    {
        "op": "ShufflenetUnitCustom",
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
            {"name": "groups", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ShufflenetUnitCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, channelsPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);      // H * W
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);  // planes = N * C, split across cores
  TILING_DATA_FIELD_DEF(uint32_t, planesTail);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ShufflenetUnitCustom, ShufflenetUnitCustomTilingData)
}
"""

host_operator_src="""
#include "shufflenet_unit_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE = 16384;  // 64 KB per slot, two slots

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ShufflenetUnitCustomTilingData tiling;
    const auto& shape = context->GetInputShape(0)->GetOriginShape();
    if (shape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = static_cast<uint32_t>(shape.GetDim(0));
    uint32_t c = static_cast<uint32_t>(shape.GetDim(1));
    uint32_t hw = static_cast<uint32_t>(shape.GetDim(2) * shape.GetDim(3));
    uint32_t g = static_cast<uint32_t>(*context->GetAttrs()->GetAttrPointer<int64_t>(0));
    if (g == 0 || c % g != 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t planes = n * c;
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > planes) cores = planes;
    if (cores == 0) cores = 1;

    tiling.set_channels(c);
    tiling.set_groups(g);
    tiling.set_channelsPerGroup(c / g);
    tiling.set_planeSize(hw);
    tiling.set_planesPerCore(planes / cores);
    tiling.set_planesTail(planes % cores);
    tiling.set_tileLength(hw < TILE ? (hw + 7) / 8 * 8 : TILE);

    context->SetBlockDim(cores);
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
class ShufflenetUnitCustom : public OpDef {
public:
    explicit ShufflenetUnitCustom(const char* name) : OpDef(name)
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

OP_ADD(ShufflenetUnitCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Channel shuffle of the ShuffleNet unit:
//   view (N, g, C/g, H, W) -> transpose(1, 2) -> view (N, C, H, W)
// Output channel oc = j * g + gi reads input channel ic = gi * (C/g) + j.
// Every (n, oc) plane is a contiguous H*W block, so the op is a plane-wise gather:
// GM -> UB -> GM through a bound VECIN/VECOUT queue, no vector compute needed.
class KernelChannelShuffle {
public:
    __aicore__ inline KernelChannelShuffle() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ShufflenetUnitCustomTilingData& td)
    {
        C = td.channels;
        G = td.groups;
        cpg = td.channelsPerGroup;
        hw = td.planeSize;
        tile = td.tileLength;

        uint32_t bid = AscendC::GetBlockIdx();
        planeCnt = td.planesPerCore + (bid < td.planesTail ? 1 : 0);
        planeBeg = bid * td.planesPerCore + (bid < td.planesTail ? bid : td.planesTail);

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        pipe.InitBuffer(moveQue, BUFFER_NUM, tile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = planeBeg; p < planeBeg + planeCnt; ++p) {
            uint32_t n = p / C;
            uint32_t oc = p % C;
            uint32_t j = oc / G;
            uint32_t gi = oc % G;
            uint32_t ic = gi * cpg + j;
            uint64_t src = (static_cast<uint64_t>(n) * C + ic) * hw;
            uint64_t dst = static_cast<uint64_t>(p) * hw;
            MovePlane(src, dst);
        }
    }

private:
    __aicore__ inline void MovePlane(uint64_t src, uint64_t dst)
    {
        for (uint32_t off = 0; off < hw; off += tile) {
            uint32_t len = (hw - off) < tile ? (hw - off) : tile;
            AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};

            AscendC::LocalTensor<float> buf = moveQue.AllocTensor<float>();
            AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(buf, xGm[src + off], cp, pad);
            moveQue.EnQue(buf);

            AscendC::LocalTensor<float> outBuf = moveQue.DeQue<float>();
            AscendC::DataCopyPad(yGm[dst + off], outBuf, cp);
            moveQue.FreeTensor(outBuf);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, BUFFER_NUM> moveQue;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t C, G, cpg, hw, tile;
    uint32_t planeBeg, planeCnt;
};

extern "C" __global__ __aicore__ void shufflenet_unit_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
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

static at::Tensor bn_train(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b,
                           const at::Tensor& rm, const at::Tensor& rv, double eps)
{
    // batch statistics, as nn.BatchNorm2d does in training mode
    return at::batch_norm(x, w, b, rm, rv, true, 0.1, eps, false);
}

// Full ShuffleNet unit: the 1x1 group convs / depthwise conv / batch norms run through aten,
// the channel shuffle is the custom AscendC kernel (it replaces view/transpose/contiguous).
at::Tensor shufflenet_unit_custom_impl_npu(
    const at::Tensor& x, int64_t groups,
    const at::Tensor& w1, const at::Tensor& g1, const at::Tensor& b1, const at::Tensor& rm1, const at::Tensor& rv1,
    const at::Tensor& w2, const at::Tensor& g2, const at::Tensor& b2, const at::Tensor& rm2, const at::Tensor& rv2,
    const at::Tensor& w3, const at::Tensor& g3, const at::Tensor& b3, const at::Tensor& rm3, const at::Tensor& rv3,
    const c10::optional<at::Tensor>& ws, const c10::optional<at::Tensor>& gs, const c10::optional<at::Tensor>& bs,
    const c10::optional<at::Tensor>& rms, const c10::optional<at::Tensor>& rvs, double eps)
{
    int64_t mid = w1.size(0);
    at::Tensor out = at::conv2d(x, w1, {}, {1, 1}, {0, 0}, {1, 1}, groups);
    out = at::relu(bn_train(out, g1, b1, rm1, rv1, eps));
    out = at::conv2d(out, w2, {}, {1, 1}, {1, 1}, {1, 1}, mid);
    out = bn_train(out, g2, b2, rm2, rv2, eps).contiguous();

    at::Tensor shuffled = at::empty_like(out);
    EXEC_NPU_CMD(aclnnShufflenetUnitCustom, out, groups, shuffled);

    out = at::conv2d(shuffled, w3, {}, {1, 1}, {0, 0}, {1, 1}, groups);
    out = at::relu(bn_train(out, g3, b3, rm3, rv3, eps));

    if (ws.has_value()) {
        at::Tensor sc = at::conv2d(x, ws.value());
        sc = bn_train(sc, gs.value(), bs.value(), rms.value(), rvs.value(), eps);
        out.add_(sc);
    } else {
        out.add_(x);
    }
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("shufflenet_unit_custom", &shufflenet_unit_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("shufflenet_unit_custom", &shufflenet_unit_custom_impl_npu, "ShuffleNet unit with custom channel shuffle");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, groups=3):
        super(ModelNew, self).__init__()
        assert out_channels % 4 == 0
        mid_channels = out_channels // 4
        self.groups = groups
        self.conv1 = nn.Conv2d(in_channels, mid_channels, kernel_size=1, stride=1, padding=0, groups=groups, bias=False)
        self.bn1 = nn.BatchNorm2d(mid_channels)
        self.conv2 = nn.Conv2d(mid_channels, mid_channels, kernel_size=3, stride=1, padding=1, groups=mid_channels, bias=False)
        self.bn2 = nn.BatchNorm2d(mid_channels)
        self.conv3 = nn.Conv2d(mid_channels, out_channels, kernel_size=1, stride=1, padding=0, groups=groups, bias=False)
        self.bn3 = nn.BatchNorm2d(out_channels)
        if in_channels == out_channels:
            self.shortcut = nn.Sequential()
        else:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_channels, out_channels, kernel_size=1, stride=1, padding=0, bias=False),
                nn.BatchNorm2d(out_channels)
            )

    def forward(self, x):
        if len(self.shortcut) > 0:
            sc_conv, sc_bn = self.shortcut[0], self.shortcut[1]
            sc = (sc_conv.weight, sc_bn.weight, sc_bn.bias, sc_bn.running_mean, sc_bn.running_var)
        else:
            sc = (None, None, None, None, None)
        return custom_ops_lib.shufflenet_unit_custom(
            x, self.groups,
            self.conv1.weight, self.bn1.weight, self.bn1.bias, self.bn1.running_mean, self.bn1.running_var,
            self.conv2.weight, self.bn2.weight, self.bn2.bias, self.bn2.running_mean, self.bn2.running_var,
            self.conv3.weight, self.bn3.weight, self.bn3.bias, self.bn3.running_mean, self.bn3.running_var,
            *sc, self.bn1.eps)
'''
