# project json
project_json_src='''
[
    {
        "op": "InterpolateDynamicCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "out_h", "param_type": "required", "type": "int"},
            {"name": "out_w", "param_type": "required", "type": "int"}
        ]
    }
]
'''

# tiling
host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(InterpolateDynamicCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);
  TILING_DATA_FIELD_DEF(uint32_t, ih);
  TILING_DATA_FIELD_DEF(uint32_t, iw);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, iwPad);
  TILING_DATA_FIELD_DEF(uint32_t, owPad);
  TILING_DATA_FIELD_DEF(float, sh);
  TILING_DATA_FIELD_DEF(float, sw);
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(InterpolateDynamicCustom, InterpolateDynamicCustomTilingData)
}
"""

# host
host_operator_src="""
#include "interpolate_dynamic_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    InterpolateDynamicCustomTilingData td;
    auto s = ctx->GetInputShape(0)->GetStorageShape();
    auto attrs = ctx->GetAttrs();
    uint32_t oh = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t ow = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t planes = s.GetDim(0) * s.GetDim(1);
    uint32_t ih = s.GetDim(2), iw = s.GetDim(3);
    uint32_t rows = planes * oh;
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > rows) cores = rows;
    uint32_t per = (rows + cores - 1) / cores;
    cores = (rows + per - 1) / per;
    ctx->SetBlockDim(cores);
    td.set_planes(planes); td.set_ih(ih); td.set_iw(iw); td.set_oh(oh); td.set_ow(ow);
    td.set_iwPad((iw + 7) / 8 * 8); td.set_owPad((ow + 7) / 8 * 8);
    td.set_sh(static_cast<float>(ih) / oh); td.set_sw(static_cast<float>(iw) / ow);
    td.set_rows(rows); td.set_rowsPerCore(per);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
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
    auto attrs = ctx->GetAttrs();
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, x->GetDim(1));
    y->SetDim(2, *attrs->GetAttrPointer<int64_t>(0));
    y->SetDim(3, *attrs->GetAttrPointer<int64_t>(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class InterpolateDynamicCustom : public OpDef {
public:
    explicit InterpolateDynamicCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("out_h").Int();
        this->Attr("out_w").Int();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(InterpolateDynamicCustom);
}
"""

# kernel
kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BN = 2;

class KernelBilinear {
public:
    __aicore__ inline KernelBilinear() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const InterpolateDynamicCustomTilingData& td)
    {
        ih = td.ih; iw = td.iw; oh = td.oh; ow = td.ow; iwp = td.iwPad; owp = td.owPad;
        sh = td.sh; sw = td.sw;
        r0 = GetBlockIdx() * td.rowsPerCore;
        r1 = r0 + td.rowsPerCore;
        if (r1 > td.rows) r1 = td.rows;
        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)td.planes * ih * iw);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)td.planes * oh * ow);
        pipe.InitBuffer(topQ, BN, iwp * sizeof(float));
        pipe.InitBuffer(botQ, BN, iwp * sizeof(float));
        pipe.InitBuffer(outQ, BN, owp * sizeof(float));
        pipe.InitBuffer(rowBuf, iwp * sizeof(float));
        pipe.InitBuffer(g0Buf, owp * sizeof(float));
        pipe.InitBuffer(g1Buf, owp * sizeof(float));
        pipe.InitBuffer(o0Buf, owp * sizeof(uint32_t));
        pipe.InitBuffer(o1Buf, owp * sizeof(uint32_t));
        pipe.InitBuffer(lwBuf, owp * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        BuildTables();
        for (uint32_t r = r0; r < r1; r++) {
            uint32_t p = r / oh, oy = r % oh;
            float fy = ((float)oy + 0.5f) * sh - 0.5f;
            if (fy < 0.0f) fy = 0.0f;
            uint32_t y0 = (uint32_t)fy;
            if (y0 > ih - 1) y0 = ih - 1;
            uint32_t y1 = y0 + 1 < ih ? y0 + 1 : ih - 1;
            float ly = fy - (float)y0;
            uint64_t base = (uint64_t)p * ih * iw;
            CopyIn(base + (uint64_t)y0 * iw, base + (uint64_t)y1 * iw);
            Compute(ly);
            CopyOut((uint64_t)r * ow);
        }
    }

private:
    __aicore__ inline void BuildTables()
    {
        LocalTensor<uint32_t> o0 = o0Buf.Get<uint32_t>();
        LocalTensor<uint32_t> o1 = o1Buf.Get<uint32_t>();
        LocalTensor<float> lw = lwBuf.Get<float>();
        for (uint32_t j = 0; j < ow; j++) {
            float fx = ((float)j + 0.5f) * sw - 0.5f;
            if (fx < 0.0f) fx = 0.0f;
            uint32_t x0 = (uint32_t)fx;
            if (x0 > iw - 1) x0 = iw - 1;
            uint32_t x1 = x0 + 1 < iw ? x0 + 1 : iw - 1;
            o0.SetValue(j, x0 * sizeof(float));
            o1.SetValue(j, x1 * sizeof(float));
            lw.SetValue(j, fx - (float)x0);
        }
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }
    __aicore__ inline void CopyIn(uint64_t a, uint64_t b)
    {
        LocalTensor<float> t = topQ.AllocTensor<float>();
        LocalTensor<float> d = botQ.AllocTensor<float>();
        DataCopyExtParams cp{1, iw * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        DataCopyPad(t, xGm[a], cp, pp);
        DataCopyPad(d, xGm[b], cp, pp);
        topQ.EnQue(t);
        botQ.EnQue(d);
    }
    __aicore__ inline void Compute(float ly)
    {
        LocalTensor<float> t = topQ.DeQue<float>();
        LocalTensor<float> d = botQ.DeQue<float>();
        LocalTensor<float> row = rowBuf.Get<float>();
        LocalTensor<float> g0 = g0Buf.Get<float>();
        LocalTensor<float> g1 = g1Buf.Get<float>();
        LocalTensor<float> lw = lwBuf.Get<float>();
        LocalTensor<float> o = outQ.AllocTensor<float>();
        Sub(row, d, t, iw);
        Muls(row, row, ly, iw);
        Add(row, row, t, iw);
        Gather(g0, row, o0Buf.Get<uint32_t>(), 0, ow);
        Gather(g1, row, o1Buf.Get<uint32_t>(), 0, ow);
        Sub(g1, g1, g0, ow);
        Mul(g1, g1, lw, ow);
        Add(o, g0, g1, ow);
        outQ.EnQue(o);
        topQ.FreeTensor(t);
        botQ.FreeTensor(d);
    }
    __aicore__ inline void CopyOut(uint64_t off)
    {
        LocalTensor<float> o = outQ.DeQue<float>();
        DataCopyExtParams cp{1, ow * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[off], o, cp);
        outQ.FreeTensor(o);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BN> topQ, botQ;
    TQue<QuePosition::VECOUT, BN> outQ;
    TBuf<QuePosition::VECCALC> rowBuf, g0Buf, g1Buf, o0Buf, o1Buf, lwBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t ih, iw, oh, ow, iwp, owp, r0, r1;
    float sh, sw;
};

extern "C" __global__ __aicore__ void interpolate_dynamic_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelBilinear op;
    op.Init(x, y, td);
    op.Process();
}
"""

# binding
python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor interpolate_dynamic_custom_impl_npu(const at::Tensor& x, std::vector<int64_t> size)
{
    int64_t oh = size[0], ow = size[1];
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty({x.size(0), x.size(1), oh, ow}, x.options());
    EXEC_NPU_CMD(aclnnInterpolateDynamicCustom, xc, oh, ow, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("interpolate_dynamic_custom", &interpolate_dynamic_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("interpolate_dynamic_custom", &interpolate_dynamic_custom_impl_npu, "");
}
"""

# model
model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, target_size):
        return custom_ops_lib.interpolate_dynamic_custom(x, list(target_size))
'''
