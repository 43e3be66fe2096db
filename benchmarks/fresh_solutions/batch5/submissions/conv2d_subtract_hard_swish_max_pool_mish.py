# project json
project_json_src='''
[
    {
        "op": "Conv2dSubtractHardSwishMaxPoolMishCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "subtract_value", "param_type": "required", "type": "float"}
        ]
    }
]
'''

# host tiling
host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dSubtractHardSwishMaxPoolMishCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, wa);
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(float, sub);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dSubtractHardSwishMaxPoolMishCustom, Conv2dSubtractHardSwishMaxPoolMishCustomTilingData)
}
"""

# host operator
host_operator_src="""
#include "conv2d_subtract_hard_swish_max_pool_mish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const gert::Shape& s = ctx->GetInputShape(0)->GetStorageShape();
    uint32_t planes = s.GetDim(0) * s.GetDim(1);
    uint32_t h = s.GetDim(2), w = s.GetDim(3);
    uint32_t oh = h / 2, ow = w / 2;
    uint32_t wa = (w + 15) / 16 * 16;
    uint32_t rows = 5120 / wa;
    if (rows == 0) rows = 1;
    if (rows > oh) rows = oh;
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t per = (planes + cores - 1) / cores;
    uint32_t used = (planes + per - 1) / per;
    float sv = *ctx->GetAttrs()->GetFloat(0);

    Conv2dSubtractHardSwishMaxPoolMishCustomTilingData t;
    t.set_planes(planes);
    t.set_h(h);
    t.set_w(w);
    t.set_oh(oh);
    t.set_ow(ow);
    t.set_wa(wa);
    t.set_rows(rows);
    t.set_planesPerCore(per);
    t.set_sub(sv);
    ctx->SetBlockDim(used);
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
    const gert::Shape* x = ctx->GetInputShape(0);
    gert::Shape* y = ctx->GetOutputShape(0);
    *y = *x;
    y->SetDim(2, x->GetDim(2) / 2);
    y->SetDim(3, x->GetDim(3) / 2);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv2dSubtractHardSwishMaxPoolMishCustom : public OpDef {
public:
    explicit Conv2dSubtractHardSwishMaxPoolMishCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("subtract_value").Float();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Conv2dSubtractHardSwishMaxPoolMishCustom);
}
"""

# kernel
kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUF = 2;

class KernelSubHswPoolMish {
public:
    __aicore__ inline KernelSubHswPoolMish() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const Conv2dSubtractHardSwishMaxPoolMishCustomTilingData& td)
    {
        h = td.h; w = td.w; oh = td.oh; ow = td.ow; wa = td.wa;
        R = td.rows;
        sub = td.sub;
        p0 = GetBlockIdx() * td.planesPerCore;
        p1 = p0 + td.planesPerCore;
        if (p1 > td.planes) p1 = td.planes;
        rep = (R * wa + 63) / 64;
        xg.SetGlobalBuffer((__gm__ float*)x);
        yg.SetGlobalBuffer((__gm__ float*)y);
        pipe.InitBuffer(qa, BUF, rep * 64 * sizeof(float));
        pipe.InitBuffer(qb, BUF, rep * 64 * sizeof(float));
        pipe.InitBuffer(qo, BUF, rep * 32 * sizeof(float));
        pipe.InitBuffer(tb, rep * 64 * sizeof(float));
        pipe.InitBuffer(ob, rep * 32 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t p = p0; p < p1; ++p) {
            for (uint32_t r0 = 0; r0 < oh; r0 += R) {
                uint32_t n = oh - r0 < R ? oh - r0 : R;
                CopyIn(p, r0, n);
                Compute();
                CopyOut(p, r0, n);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t p, uint32_t r0, uint32_t n)
    {
        LocalTensor<float> a = qa.AllocTensor<float>();
        LocalTensor<float> b = qb.AllocTensor<float>();
        uint64_t base = ((uint64_t)p * h + 2 * r0) * w;
        uint32_t rb = w * sizeof(float);
        uint32_t gap = (wa * sizeof(float) - (rb + 31) / 32 * 32) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(n), rb, rb, gap, 0};
        DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
        DataCopyPad(a, xg[base], cp, pd);
        DataCopyPad(b, xg[base + w], cp, pd);
        qa.EnQue(a);
        qb.EnQue(b);
    }
    __aicore__ inline void HardSwish(const LocalTensor<float>& v, const LocalTensor<float>& t, uint32_t len)
    {
        Adds(v, v, -sub, len);
        Adds(t, v, 3.0f, len);
        Maxs(t, t, 0.0f, len);
        Mins(t, t, 6.0f, len);
        Muls(t, t, 1.0f / 6.0f, len);
        Mul(v, v, t, len);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<float> a = qa.DeQue<float>();
        LocalTensor<float> b = qb.DeQue<float>();
        LocalTensor<float> o = qo.AllocTensor<float>();
        LocalTensor<float> t = tb.Get<float>();
        LocalTensor<float> od = ob.Get<float>();
        uint32_t len = rep * 64;
        HardSwish(a, t, len);
        HardSwish(b, t, len);
        Max(a, a, b, len);
        uint64_t cnt = 0;
        GatherMaskParams gp{1, static_cast<uint16_t>(rep), 8, 0};
        GatherMask(o, a, (uint8_t)1, false, (uint32_t)0, gp, cnt);
        GatherMask(od, a, (uint8_t)2, false, (uint32_t)0, gp, cnt);
        uint32_t hl = rep * 32;
        Max(o, o, od, hl);
        Mins(t, o, 20.0f, hl);
        Exp(t, t, hl);
        Adds(t, t, 1.0f, hl);
        Mul(t, t, t, hl);
        Adds(od, t, 1.0f, hl);
        Adds(t, t, -1.0f, hl);
        Div(t, t, od, hl);
        Mul(o, o, t, hl);
        qo.EnQue(o);
        qa.FreeTensor(a);
        qb.FreeTensor(b);
    }
    __aicore__ inline void CopyOut(uint32_t p, uint32_t r0, uint32_t n)
    {
        LocalTensor<float> o = qo.DeQue<float>();
        uint32_t rb = ow * sizeof(float);
        uint32_t gap = ((wa / 2) * sizeof(float) - (rb + 31) / 32 * 32) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(n), rb, gap, 0, 0};
        DataCopyPad(yg[((uint64_t)p * oh + r0) * ow], o, cp);
        qo.FreeTensor(o);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUF> qa, qb;
    TQue<TPosition::VECOUT, BUF> qo;
    TBuf<TPosition::VECCALC> tb, ob;
    GlobalTensor<float> xg, yg;
    uint32_t h, w, oh, ow, wa, R, rep, p0, p1;
    float sub;
};

extern "C" __global__ __aicore__ void conv2d_subtract_hard_swish_max_pool_mish_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelSubHswPoolMish op;
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

at::Tensor conv2d_subtract_hard_swish_max_pool_mish_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                                    const at::Tensor& bias, double subtract_value)
{
    at::Tensor c = at::conv2d(x, weight, bias).contiguous();
    at::Tensor y = at::empty({c.size(0), c.size(1), c.size(2) / 2, c.size(3) / 2}, c.options());
    float sv = static_cast<float>(subtract_value);
    EXEC_NPU_CMD(aclnnConv2dSubtractHardSwishMaxPoolMishCustom, c, sv, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_subtract_hard_swish_max_pool_mish_custom", &conv2d_subtract_hard_swish_max_pool_mish_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_subtract_hard_swish_max_pool_mish_custom", &conv2d_subtract_hard_swish_max_pool_mish_custom_impl_npu,
          "conv2d - v -> hardswish -> maxpool2 -> mish");
}
"""

# model
model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, subtract_value, pool_kernel_size):
        super().__init__()
        assert pool_kernel_size == 2
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.subtract_value = float(subtract_value)

    def forward(self, x):
        return custom_ops_lib.conv2d_subtract_hard_swish_max_pool_mish_custom(
            x, self.conv.weight, self.conv.bias, self.subtract_value)
'''
