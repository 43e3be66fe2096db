# project json
project_json_src='''
[
    {
        "op": "Densenet121TransitionLayerCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "scale", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "shift", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

# host tiling
host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Densenet121TransitionLayerCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, wa);
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, rowTiles);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Densenet121TransitionLayerCustom, Densenet121TransitionLayerCustomTilingData)
}
"""

# host operator
host_operator_src="""
#include "densenet121_transition_layer_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t ACC_FLOATS = 16384;

static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const gert::Shape& xs = ctx->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = ctx->GetInputShape(3)->GetStorageShape();
    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t co = ws.GetDim(0);
    uint32_t oh = h / 2, ow = w / 2;
    uint32_t wa = (w + 63) / 64 * 64;
    uint32_t owa = wa / 2;
    uint32_t r = ACC_FLOATS / (co * owa);
    if (r == 0) r = 1;
    if (r > oh) r = oh;
    while (r > 1 && r * wa / 64 > 255) r--;
    uint32_t rt = (oh + r - 1) / r;
    uint32_t tasks = n * rt;
    uint32_t cores = plat.GetCoreNumAiv();

    Densenet121TransitionLayerCustomTilingData t;
    t.set_n(n);
    t.set_cin(ci);
    t.set_cout(co);
    t.set_h(h);
    t.set_w(w);
    t.set_oh(oh);
    t.set_ow(ow);
    t.set_wa(wa);
    t.set_rows(r);
    t.set_rowTiles(rt);
    ctx->SetBlockDim(tasks < cores ? tasks : cores);
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
    const gert::Shape* w = ctx->GetInputShape(3);
    gert::Shape* y = ctx->GetOutputShape(0);
    *y = *x;
    y->SetDim(1, w->GetDim(0));
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
class Densenet121TransitionLayerCustom : public OpDef {
public:
    explicit Densenet121TransitionLayerCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Densenet121TransitionLayerCustom);
}
"""

# kernel
kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUF = 2;

class KernelTransition {
public:
    __aicore__ inline KernelTransition() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR sc, GM_ADDR sh, GM_ADDR wt, GM_ADDR y,
                                const Densenet121TransitionLayerCustomTilingData& td)
    {
        n = td.n; ci = td.cin; co = td.cout; h = td.h; w = td.w;
        oh = td.oh; ow = td.ow; wa = td.wa; owa = wa / 2;
        R = td.rows; rt = td.rowTiles;
        xg.SetGlobalBuffer((__gm__ float*)x);
        scg.SetGlobalBuffer((__gm__ float*)sc, ci);
        shg.SetGlobalBuffer((__gm__ float*)sh, ci);
        wg.SetGlobalBuffer((__gm__ float*)wt, co * ci);
        yg.SetGlobalBuffer((__gm__ float*)y);
        pipe.InitBuffer(qa, BUF, R * wa * sizeof(float));
        pipe.InitBuffer(qb, BUF, R * wa * sizeof(float));
        pipe.InitBuffer(qacc, 1, co * R * owa * sizeof(float));
        pipe.InitBuffer(pb, R * owa * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        uint32_t tasks = n * rt;
        for (uint32_t i = GetBlockIdx(); i < tasks; i += GetBlockNum()) {
            uint32_t bi = i / rt;
            uint32_t r0 = (i % rt) * R;
            uint32_t nr = oh - r0 < R ? oh - r0 : R;
            LocalTensor<float> acc = qacc.AllocTensor<float>();
            Duplicate(acc, 0.0f, co * R * owa);
            for (uint32_t c = 0; c < ci; ++c) {
                CopyIn(bi, c, r0, nr);
                Compute(acc, c);
            }
            qacc.EnQue(acc);
            CopyOut(bi, r0, nr);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t bi, uint32_t c, uint32_t r0, uint32_t nr)
    {
        LocalTensor<float> a = qa.AllocTensor<float>();
        LocalTensor<float> b = qb.AllocTensor<float>();
        uint64_t base = (((uint64_t)bi * ci + c) * h + 2 * r0) * w;
        uint32_t rb = w * sizeof(float);
        uint32_t gap = (wa * sizeof(float) - (rb + 31) / 32 * 32) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(nr), rb, rb, gap, 0};
        DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
        DataCopyPad(a, xg[base], cp, pd);
        DataCopyPad(b, xg[base + w], cp, pd);
        qa.EnQue(a);
        qb.EnQue(b);
    }
    __aicore__ inline void Compute(LocalTensor<float>& acc, uint32_t c)
    {
        LocalTensor<float> a = qa.DeQue<float>();
        LocalTensor<float> b = qb.DeQue<float>();
        LocalTensor<float> p = pb.Get<float>();
        float s = scg.GetValue(c);
        float t = shg.GetValue(c);
        uint32_t len = R * wa;
        Muls(a, a, s, len);
        Adds(a, a, t, len);
        Relu(a, a, len);
        Muls(b, b, s, len);
        Adds(b, b, t, len);
        Relu(b, b, len);
        Add(a, a, b, len);
        PairReduceSum(p, a, static_cast<int32_t>(len / 64), 64, 1, 1, 8);
        uint32_t pl = R * owa;
        for (uint32_t o = 0; o < co; ++o) {
            float wv = wg.GetValue(o * ci + c) * 0.25f;
            Axpy(acc[o * pl], p, wv, pl);
        }
        qa.FreeTensor(a);
        qb.FreeTensor(b);
    }
    __aicore__ inline void CopyOut(uint32_t bi, uint32_t r0, uint32_t nr)
    {
        LocalTensor<float> acc = qacc.DeQue<float>();
        uint32_t rb = ow * sizeof(float);
        uint32_t gap = (owa * sizeof(float) - (rb + 31) / 32 * 32) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(nr), rb, gap, 0, 0};
        for (uint32_t o = 0; o < co; ++o) {
            uint64_t off = (((uint64_t)bi * co + o) * oh + r0) * ow;
            DataCopyPad(yg[off], acc[o * R * owa], cp);
        }
        qacc.FreeTensor(acc);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUF> qa, qb;
    TQue<TPosition::VECOUT, 1> qacc;
    TBuf<TPosition::VECCALC> pb;
    GlobalTensor<float> xg, scg, shg, wg, yg;
    uint32_t n, ci, co, h, w, oh, ow, wa, owa, R, rt;
};

extern "C" __global__ __aicore__ void densenet121_transition_layer_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR weight,
                                                                         GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelTransition op;
    op.Init(x, scale, shift, weight, y, td);
    op.Process();
}
"""

# python binding
python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor densenet121_transition_layer_custom_impl_npu(const at::Tensor& x, const at::Tensor& gamma, const at::Tensor& beta,
                                                        const at::Tensor& rmean, const at::Tensor& rvar, const at::Tensor& weight,
                                                        bool training, double eps)
{
    at::Tensor xc = x.contiguous();
    at::Tensor mean, var;
    if (training) {
        auto vm = at::var_mean(xc, {0, 2, 3}, 0, false);
        var = std::get<0>(vm);
        mean = std::get<1>(vm);
    } else {
        mean = rmean;
        var = rvar;
    }
    at::Tensor sc = (gamma / at::sqrt(var + eps)).contiguous();
    at::Tensor sh = (beta - mean * sc).contiguous();
    at::Tensor w2 = weight.reshape({weight.size(0), weight.size(1)}).contiguous();
    at::Tensor y = at::empty({xc.size(0), w2.size(0), xc.size(2) / 2, xc.size(3) / 2}, xc.options());
    EXEC_NPU_CMD(aclnnDensenet121TransitionLayerCustom, xc, sc, sh, w2, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("densenet121_transition_layer_custom", &densenet121_transition_layer_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("densenet121_transition_layer_custom", &densenet121_transition_layer_custom_impl_npu, "bn-relu-conv1x1-avgpool");
}
"""

# model
model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, num_input_features: int, num_output_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_input_features)
        self.conv = nn.Conv2d(num_input_features, num_output_features, kernel_size=1, bias=False)

    def forward(self, x):
        return custom_ops_lib.densenet121_transition_layer_custom(
            x, self.bn.weight, self.bn.bias, self.bn.running_mean, self.bn.running_var,
            self.conv.weight, self.training, self.bn.eps)
'''
