# project json
project_json_src='''
[
    {
        "op": "ConvDepthwise2dSquareInputAsymmetricKernelCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "stride", "param_type": "required", "type": "int"},
            {"name": "dilation", "param_type": "required", "type": "int"}
        ]
    }
]
'''

# host tiling
host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvDepthwise2dSquareInputAsymmetricKernelCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, wa);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, rowTile);
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvDepthwise2dSquareInputAsymmetricKernelCustom, ConvDepthwise2dSquareInputAsymmetricKernelCustomTilingData)
}
"""

# host operator
host_operator_src="""
#include "conv_depthwise2d_square_input_asymmetric_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t UB_FLOATS = 40000;

static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const gert::Shape& xs = ctx->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = ctx->GetInputShape(1)->GetStorageShape();
    auto attrs = ctx->GetAttrs();
    uint32_t s = static_cast<uint32_t>(*attrs->GetInt(0));
    uint32_t d = static_cast<uint32_t>(*attrs->GetInt(1));
    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t k = ws.GetDim(1);
    uint32_t span = (k - 1) * d + 1;
    if (h < span || s == 0) return ge::GRAPH_FAILED;
    uint32_t oh = (h - span) / s + 1;
    uint32_t wa = (w + 7) / 8 * 8;
    uint32_t rt = oh;
    while (rt > 1 && 2 * wa * ((rt - 1) * s + span) + 2 * wa * rt > UB_FLOATS) rt--;
    uint32_t planes = n * c;
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t per = (planes + cores - 1) / cores;

    ConvDepthwise2dSquareInputAsymmetricKernelCustomTilingData t;
    t.set_planes(planes);
    t.set_channels(c);
    t.set_h(h);
    t.set_w(w);
    t.set_wa(wa);
    t.set_kh(k);
    t.set_stride(s);
    t.set_dilation(d);
    t.set_oh(oh);
    t.set_rowTile(rt);
    t.set_planesPerCore(per);
    ctx->SetBlockDim((planes + per - 1) / per);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t* wsz = ctx->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* x = ctx->GetInputShape(0);
    const gert::Shape* w = ctx->GetInputShape(1);
    auto attrs = ctx->GetAttrs();
    int64_t s = *attrs->GetInt(0);
    int64_t d = *attrs->GetInt(1);
    gert::Shape* y = ctx->GetOutputShape(0);
    *y = *x;
    y->SetDim(2, (x->GetDim(2) - (w->GetDim(1) - 1) * d - 1) / s + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvDepthwise2dSquareInputAsymmetricKernelCustom : public OpDef {
public:
    explicit ConvDepthwise2dSquareInputAsymmetricKernelCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").Int();
        this->Attr("dilation").Int();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvDepthwise2dSquareInputAsymmetricKernelCustom);
}
"""

# kernel
kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUF = 2;
constexpr uint32_t MAX_K = 32;

class KernelDwColConv {
public:
    __aicore__ inline KernelDwColConv() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wt, GM_ADDR y, const ConvDepthwise2dSquareInputAsymmetricKernelCustomTilingData& td)
    {
        c = td.channels; h = td.h; w = td.w; wa = td.wa;
        k = td.kh; s = td.stride; d = td.dilation;
        oh = td.oh; rt = td.rowTile;
        p0 = GetBlockIdx() * td.planesPerCore;
        p1 = p0 + td.planesPerCore;
        if (p1 > td.planes) p1 = td.planes;
        uint32_t inRows = (rt - 1) * s + (k - 1) * d + 1;
        xg.SetGlobalBuffer((__gm__ float*)x);
        wg.SetGlobalBuffer((__gm__ float*)wt);
        yg.SetGlobalBuffer((__gm__ float*)y);
        pipe.InitBuffer(qi, BUF, inRows * wa * sizeof(float));
        pipe.InitBuffer(qo, BUF, rt * wa * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t p = p0; p < p1; ++p) {
            uint32_t ch = p % c;
            for (uint32_t j = 0; j < k; ++j) wv[j] = wg.GetValue(ch * k + j);
            for (uint32_t r0 = 0; r0 < oh; r0 += rt) {
                uint32_t nr = oh - r0 < rt ? oh - r0 : rt;
                CopyIn(p, r0, nr);
                Compute(nr);
                CopyOut(p, r0, nr);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t p, uint32_t r0, uint32_t nr)
    {
        LocalTensor<float> in = qi.AllocTensor<float>();
        uint32_t rows = (nr - 1) * s + (k - 1) * d + 1;
        uint32_t rb = w * sizeof(float);
        uint32_t gap = (wa * sizeof(float) - (rb + 31) / 32 * 32) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(rows), rb, 0, gap, 0};
        DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
        DataCopyPad(in, xg[((uint64_t)p * h + (uint64_t)r0 * s) * w], cp, pd);
        qi.EnQue(in);
    }
    __aicore__ inline void Compute(uint32_t nr)
    {
        LocalTensor<float> in = qi.DeQue<float>();
        LocalTensor<float> out = qo.AllocTensor<float>();
        for (uint32_t r = 0; r < nr; ++r) {
            LocalTensor<float> dst = out[r * wa];
            uint32_t b = r * s;
            Muls(dst, in[b * wa], wv[0], w);
            for (uint32_t j = 1; j < k; ++j) {
                Axpy(dst, in[(b + j * d) * wa], wv[j], w);
            }
        }
        qo.EnQue(out);
        qi.FreeTensor(in);
    }
    __aicore__ inline void CopyOut(uint32_t p, uint32_t r0, uint32_t nr)
    {
        LocalTensor<float> out = qo.DeQue<float>();
        uint32_t rb = w * sizeof(float);
        uint32_t gap = (wa * sizeof(float) - (rb + 31) / 32 * 32) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(nr), rb, gap, 0, 0};
        DataCopyPad(yg[((uint64_t)p * oh + r0) * w], out, cp);
        qo.FreeTensor(out);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUF> qi;
    TQue<TPosition::VECOUT, BUF> qo;
    GlobalTensor<float> xg, wg, yg;
    float wv[MAX_K];
    uint32_t c, h, w, wa, k, s, d, oh, rt, p0, p1;
};

extern "C" __global__ __aicore__ void conv_depthwise2d_square_input_asymmetric_kernel_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelDwColConv op;
    op.Init(x, weight, y, td);
    op.Process();
}
"""

# python binding
python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_depthwise2d_square_input_asymmetric_kernel_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                                          int64_t stride, int64_t padding, int64_t dilation)
{
    at::Tensor xp = x;
    if (padding > 0) xp = at::constant_pad_nd(x, {padding, padding, padding, padding}, 0);
    xp = xp.contiguous();
    at::Tensor w2 = weight.reshape({weight.size(0), weight.size(2)}).contiguous();
    int64_t kh = w2.size(1);
    int64_t oh = (xp.size(2) - (kh - 1) * dilation - 1) / stride + 1;
    at::Tensor y = at::empty({xp.size(0), xp.size(1), oh, xp.size(3)}, xp.options());
    EXEC_NPU_CMD(aclnnConvDepthwise2dSquareInputAsymmetricKernelCustom, xp, w2, stride, dilation, y);
    if (stride > 1) y = y.slice(3, 0, xp.size(3), stride).contiguous();
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_depthwise2d_square_input_asymmetric_kernel_custom", &conv_depthwise2d_square_input_asymmetric_kernel_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_depthwise2d_square_input_asymmetric_kernel_custom", &conv_depthwise2d_square_input_asymmetric_kernel_custom_impl_npu,
          "depthwise conv with (k,1) kernel");
}
"""

# model
model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, kernel_size: int, stride: int = 1, padding: int = 0, dilation: int = 1, bias: bool = False):
        super().__init__()
        self.conv2d = nn.Conv2d(in_channels, in_channels, kernel_size=(kernel_size, 1), stride=stride, padding=padding,
                                dilation=dilation, groups=in_channels, bias=bias)
        self.stride = stride
        self.padding = padding
        self.dilation = dilation

    def forward(self, x):
        y = custom_ops_lib.conv_depthwise2d_square_input_asymmetric_kernel_custom(
            x, self.conv2d.weight, self.stride, self.padding, self.dilation)
        if self.conv2d.bias is not None:
            y = y + self.conv2d.bias.view(1, -1, 1, 1)
        return y
'''
