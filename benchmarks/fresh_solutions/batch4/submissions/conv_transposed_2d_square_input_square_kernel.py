# project json
project_json_src='''
[
    {
        "op": "ConvTransposed2dSquareInputSquareKernelCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

# tiling
host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTransposed2dSquareInputSquareKernelCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, owPad);
  TILING_DATA_FIELD_DEF(uint32_t, ocBlk);
  TILING_DATA_FIELD_DEF(uint32_t, nOcBlk);
  TILING_DATA_FIELD_DEF(uint32_t, taskNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTransposed2dSquareInputSquareKernelCustom, ConvTransposed2dSquareInputSquareKernelCustomTilingData)
}
"""

# host
host_operator_src="""
#include "conv_transposed2d_square_input_square_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    ConvTransposed2dSquareInputSquareKernelCustomTilingData t;
    auto xs = ctx->GetInputShape(0)->GetStorageShape();
    auto ws = ctx->GetInputShape(1)->GetStorageShape();
    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t co = ws.GetDim(1), k = ws.GetDim(2);
    uint32_t oh = h + k - 1, ow = w + k - 1;
    uint32_t owp = (ow + 7) / 8 * 8;
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint64_t avail = ub - 2 * owp * sizeof(float) - 4096;
    uint32_t ob = static_cast<uint32_t>(avail / (owp * sizeof(float)));
    if (ob > co) ob = co;
    if (ob > 16) ob = 16;
    if (ob == 0) ob = 1;
    uint32_t nob = (co + ob - 1) / ob;
    uint32_t tasks = n * oh * nob;
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > tasks) cores = tasks;
    ctx->SetBlockDim(cores);
    t.set_n(n); t.set_cin(ci); t.set_cout(co); t.set_h(h); t.set_w(w); t.set_k(k);
    t.set_oh(oh); t.set_ow(ow); t.set_owPad(owp); t.set_ocBlk(ob); t.set_nOcBlk(nob); t.set_taskNum(tasks);
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
    gert::Shape* y = ctx->GetOutputShape(0);
    int64_t k = w->GetDim(2);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, x->GetDim(2) + k - 1);
    y->SetDim(3, x->GetDim(3) + k - 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTransposed2dSquareInputSquareKernelCustom : public OpDef {
public:
    explicit ConvTransposed2dSquareInputSquareKernelCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTransposed2dSquareInputSquareKernelCustom);
}
"""

# kernel
kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUF = 2;

class KernelConvT2d {
public:
    __aicore__ inline KernelConvT2d() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wt, GM_ADDR y, ConvTransposed2dSquareInputSquareKernelCustomTilingData* t)
    {
        n = t->n; ci = t->cin; co = t->cout; h = t->h; w = t->w; k = t->k;
        oh = t->oh; ow = t->ow; owp = t->owPad; ob = t->ocBlk; nob = t->nOcBlk; tasks = t->taskNum;
        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)n * ci * h * w);
        wGm.SetGlobalBuffer((__gm__ float*)wt, (uint64_t)ci * co * k * k);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)n * co * oh * ow);
        pipe.InitBuffer(inQ, BUF, owp * sizeof(float));
        pipe.InitBuffer(accBuf, ob * owp * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t id = GetBlockIdx(); id < tasks; id += GetBlockNum()) {
            uint32_t b = id % nob;
            uint32_t r = (id / nob) % oh;
            uint32_t bn = id / nob / oh;
            uint32_t o0 = b * ob;
            uint32_t oc = (co - o0) < ob ? (co - o0) : ob;
            Row(bn, r, o0, oc);
        }
    }

private:
    __aicore__ inline void Row(uint32_t bn, uint32_t r, uint32_t o0, uint32_t oc)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, ob * owp);
        for (uint32_t c = 0; c < ci; c++) {
            for (uint32_t kh = 0; kh < k; kh++) {
                int32_t ih = (int32_t)r - (int32_t)kh;
                if (ih < 0 || ih >= (int32_t)h) continue;
                uint64_t src = (((uint64_t)bn * ci + c) * h + ih) * w;
                for (uint32_t kw = 0; kw < k; kw++) {
                    LocalTensor<float> xs = inQ.AllocTensor<float>();
                    uint8_t rp = (uint8_t)((8 - (kw + w) % 8) % 8);
                    DataCopyExtParams cp{1, (uint32_t)(w * sizeof(float)), 0, 0, 0};
                    DataCopyPadExtParams<float> pp{true, (uint8_t)kw, rp, 0.0f};
                    DataCopyPad(xs, xGm[src], cp, pp);
                    inQ.EnQue(xs);
                    xs = inQ.DeQue<float>();
                    uint64_t wb = ((uint64_t)c * co + o0) * k * k + kh * k + kw;
                    for (uint32_t j = 0; j < oc; j++) {
                        float wv = wGm.GetValue(wb + (uint64_t)j * k * k);
                        Axpy(acc[j * owp], xs, wv, w + kw);
                    }
                    inQ.FreeTensor(xs);
                }
            }
        }
        event_t e0 = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(e0);
        WaitFlag<HardEvent::V_MTE3>(e0);
        DataCopyExtParams op{1, (uint32_t)(ow * sizeof(float)), 0, 0, 0};
        for (uint32_t j = 0; j < oc; j++) {
            uint64_t dst = (((uint64_t)bn * co + o0 + j) * oh + r) * ow;
            DataCopyPad(yGm[dst], acc[j * owp], op);
        }
        event_t e1 = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_V));
        SetFlag<HardEvent::MTE3_V>(e1);
        WaitFlag<HardEvent::MTE3_V>(e1);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUF> inQ;
    TBuf<QuePosition::VECCALC> accBuf;
    GlobalTensor<float> xGm, wGm, yGm;
    uint32_t n, ci, co, h, w, k, oh, ow, owp, ob, nob, tasks;
};

extern "C" __global__ __aicore__ void conv_transposed_2d_square_input_square_kernel_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelConvT2d op;
    op.Init(x, weight, y, &td);
    op.Process();
}
"""

# binding
python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transposed_2d_square_input_square_kernel_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight)
{
    int64_t k = weight.size(2);
    at::Tensor y = at::empty({x.size(0), weight.size(1), x.size(2) + k - 1, x.size(3) + k - 1}, x.options());
    EXEC_NPU_CMD(aclnnConvTransposed2dSquareInputSquareKernelCustom, x, weight, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed_2d_square_input_square_kernel_custom", &conv_transposed_2d_square_input_square_kernel_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed_2d_square_input_square_kernel_custom", &conv_transposed_2d_square_input_square_kernel_custom_impl_npu, "");
}
"""

# model
model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=False):
        super().__init__()
        self.conv_transpose2d = torch.nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, output_padding=output_padding, groups=groups, bias=bias)

    def forward(self, x):
        return custom_ops_lib.conv_transposed_2d_square_input_square_kernel_custom(x, self.conv_transpose2d.weight)
'''
