# project json
project_json_src='''
[
    {
        "op": "MobilenetV2Custom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "scale", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "shift", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "act", "param_type": "required", "type": "int"}
        ]
    }
]
'''

# tiling
host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MobilenetV2CustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);
  TILING_DATA_FIELD_DEF(uint32_t, ch);
  TILING_DATA_FIELD_DEF(uint32_t, hw);
  TILING_DATA_FIELD_DEF(uint32_t, tile);
  TILING_DATA_FIELD_DEF(uint32_t, perCore);
  TILING_DATA_FIELD_DEF(uint32_t, act);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MobilenetV2Custom, MobilenetV2CustomTilingData)
}
"""

# host
host_operator_src="""
#include "mobilenet_v2_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    MobilenetV2CustomTilingData t;
    auto s = ctx->GetInputShape(0)->GetStorageShape();
    uint32_t n = s.GetDim(0), c = s.GetDim(1);
    uint32_t hw = 1;
    for (size_t i = 2; i < s.GetDimNum(); i++) hw *= s.GetDim(i);
    uint32_t planes = n * c;
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > planes) cores = planes;
    uint32_t per = (planes + cores - 1) / cores;
    cores = (planes + per - 1) / per;
    uint32_t tile = (hw + 7) / 8 * 8;
    if (tile > 8192) tile = 8192;
    const int64_t* act = ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
    ctx->SetBlockDim(cores);
    t.set_planes(planes); t.set_ch(c); t.set_hw(hw); t.set_tile(tile); t.set_perCore(per);
    t.set_act(static_cast<uint32_t>(*act));
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
class MobilenetV2Custom : public OpDef {
public:
    explicit MobilenetV2Custom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("act").Int();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MobilenetV2Custom);
}
"""

# kernel
kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

class KernelBnRelu6 {
public:
    __aicore__ inline KernelBnRelu6() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR sc, GM_ADDR sh, GM_ADDR y, const MobilenetV2CustomTilingData& td)
    {
        planes = td.planes; ch = td.ch; hw = td.hw; tile = td.tile; act = td.act;
        p0 = AscendC::GetBlockIdx() * td.perCore;
        p1 = p0 + td.perCore;
        if (p1 > planes) p1 = planes;
        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)planes * hw);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)planes * hw);
        scGm.SetGlobalBuffer((__gm__ float*)sc, ch);
        shGm.SetGlobalBuffer((__gm__ float*)sh, ch);
        pipe.InitBuffer(inQ, BUFFER_NUM, tile * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tile * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t p = p0; p < p1; p++) {
            uint32_t c = p % ch;
            float a = scGm.GetValue(c);
            float b = shGm.GetValue(c);
            uint64_t base = (uint64_t)p * hw;
            for (uint32_t off = 0; off < hw; off += tile) {
                uint32_t len = (hw - off) < tile ? (hw - off) : tile;
                CopyIn(base + off, len);
                Compute(len, a, b);
                CopyOut(base + off, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> xl = inQ.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xl, xGm[off], cp, pp);
        inQ.EnQue(xl);
    }
    __aicore__ inline void Compute(uint32_t len, float a, float b)
    {
        AscendC::LocalTensor<float> xl = inQ.DeQue<float>();
        AscendC::LocalTensor<float> yl = outQ.AllocTensor<float>();
        AscendC::Muls(yl, xl, a, len);
        AscendC::Adds(yl, yl, b, len);
        if (act) {
            AscendC::Maxs(yl, yl, 0.0f, len);
            AscendC::Mins(yl, yl, 6.0f, len);
        }
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }
    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> yl = outQ.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(yGm[off], yl, cp);
        outQ.FreeTensor(yl);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::GlobalTensor<float> xGm, yGm, scGm, shGm;
    uint32_t planes, ch, hw, tile, act, p0, p1;
};

extern "C" __global__ __aicore__ void mobilenet_v2_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelBnRelu6 op;
    op.Init(x, scale, shift, y, td);
    op.Process();
}
"""

# binding
python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

static at::Tensor conv_bn(const at::Tensor& x, const at::Tensor& w, const at::Tensor& g, const at::Tensor& b,
                          int64_t s, int64_t p, int64_t grp, int64_t act)
{
    at::Tensor y = at::conv2d(x, w, {}, {s, s}, {p, p}, {1, 1}, grp);
    auto vm = at::var_mean(y, {0, 2, 3}, false, false);
    at::Tensor sc = g / at::sqrt(std::get<0>(vm) + 1e-5);
    at::Tensor sh = b - std::get<1>(vm) * sc;
    sc = sc.contiguous();
    sh = sh.contiguous();
    at::Tensor out = at::empty_like(y);
    EXEC_NPU_CMD(aclnnMobilenetV2Custom, y, sc, sh, act, out);
    return out;
}

at::Tensor mobilenet_v2_custom_impl_npu(const at::Tensor& x, std::vector<at::Tensor> ps, const at::Tensor& fw, const at::Tensor& fb)
{
    const int64_t cfg[7][4] = {{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2}, {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
    size_t k = 0;
    at::Tensor h = conv_bn(x, ps[k], ps[k + 1], ps[k + 2], 2, 1, 1, 1);
    k += 3;
    int64_t cin = 32;
    for (int i = 0; i < 7; i++) {
        int64_t t = cfg[i][0], c = cfg[i][1], n = cfg[i][2], s = cfg[i][3];
        for (int64_t j = 0; j < n; j++) {
            int64_t st = j == 0 ? s : 1;
            int64_t hid = cin * t;
            at::Tensor r = h;
            if (t != 1) {
                r = conv_bn(r, ps[k], ps[k + 1], ps[k + 2], 1, 0, 1, 1);
                k += 3;
            }
            r = conv_bn(r, ps[k], ps[k + 1], ps[k + 2], st, 1, hid, 1);
            k += 3;
            r = conv_bn(r, ps[k], ps[k + 1], ps[k + 2], 1, 0, 1, 0);
            k += 3;
            h = r;
            cin = c;
        }
    }
    h = conv_bn(h, ps[k], ps[k + 1], ps[k + 2], 1, 0, 1, 1);
    h = at::mean(h, {2, 3});
    return at::addmm(fb, h, fw.t());
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("mobilenet_v2_custom", &mobilenet_v2_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("mobilenet_v2_custom", &mobilenet_v2_custom_impl_npu, "");
}
"""

# model
model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()

        def _make_divisible(v, divisor, min_value=None):
            if min_value is None:
                min_value = divisor
            new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
            if new_v < 0.9 * v:
                new_v += divisor
            return new_v

        def _block(inp, oup, stride, t):
            hid = int(inp * t)
            layers = []
            if t != 1:
                layers += [nn.Conv2d(inp, hid, 1, 1, 0, bias=False), nn.BatchNorm2d(hid), nn.ReLU6(inplace=True)]
            layers += [nn.Conv2d(hid, hid, 3, stride, 1, groups=hid, bias=False), nn.BatchNorm2d(hid), nn.ReLU6(inplace=True),
                       nn.Conv2d(hid, oup, 1, 1, 0, bias=False), nn.BatchNorm2d(oup)]
            return nn.Sequential(*layers)

        ic = 32
        cfg = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2], [6, 96, 3, 1], [6, 160, 3, 2], [6, 320, 1, 1]]
        feats = [nn.Conv2d(3, ic, 3, 2, 1, bias=False), nn.BatchNorm2d(ic), nn.ReLU6(inplace=True)]
        for t, c, n, s in cfg:
            oc = _make_divisible(c, 8)
            for i in range(n):
                feats.append(_block(ic, oc, s if i == 0 else 1, t))
                ic = oc
        feats += [nn.Conv2d(ic, 1280, 1, 1, 0, bias=False), nn.BatchNorm2d(1280), nn.ReLU6(inplace=True), nn.AdaptiveAvgPool2d((1, 1))]
        self.features = nn.Sequential(*feats)
        self.classifier = nn.Sequential(nn.Dropout(0.0), nn.Linear(1280, num_classes))
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
        ps = []
        for m in self.features.modules():
            if isinstance(m, nn.Conv2d):
                ps.append(m.weight)
            elif isinstance(m, nn.BatchNorm2d):
                ps += [m.weight, m.bias]
        fc = self.classifier[1]
        return custom_ops_lib.mobilenet_v2_custom(x, ps, fc.weight, fc.bias)
'''
