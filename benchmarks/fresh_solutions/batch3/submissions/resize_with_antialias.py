project_json_src='''
[
    {
        "op": "ResizeWithAntialiasCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "out_h", "param_type": "optional", "type": "int", "default_value": "128"},
            {"name": "out_w", "param_type": "optional", "type": "int", "default_value": "128"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ResizeWithAntialiasCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, tapsH);
  TILING_DATA_FIELD_DEF(uint32_t, tapsW);
  TILING_DATA_FIELD_DEF(float, scaleH);
  TILING_DATA_FIELD_DEF(float, scaleW);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ResizeWithAntialiasCustom, ResizeWithAntialiasCustomTilingData)
}
"""

host_operator_src="""
#include <cmath>
#include "resize_with_antialias_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static uint32_t MaxTaps(float scale)
{
    // bilinear: support = scale when downsampling, 1 when upsampling
    float support = scale >= 1.0f ? scale : 1.0f;
    return (uint32_t)std::ceil(support) * 2 + 1;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ResizeWithAntialiasCustomTilingData tiling;
    auto xs = context->GetInputShape(0)->GetStorageShape();
    const auto* attrs = context->GetAttrs();
    uint32_t oh = (uint32_t)*attrs->GetAttrPointer<int64_t>(0);
    uint32_t ow = (uint32_t)*attrs->GetAttrPointer<int64_t>(1);
    uint32_t planes = xs.GetDim(0) * xs.GetDim(1);
    uint32_t ih = xs.GetDim(2), iw = xs.GetDim(3);

    float sh = (float)ih / (float)oh;
    float sw = (float)iw / (float)ow;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t total = planes * oh;
    uint32_t per = (total + cores - 1) / cores;
    uint32_t used = (total + per - 1) / per;

    tiling.set_planes(planes);
    tiling.set_inH(ih);
    tiling.set_inW(iw);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_outWAlign((ow + 63) / 64 * 64);
    tiling.set_tapsH(MaxTaps(sh));
    tiling.set_tapsW(MaxTaps(sw));
    tiling.set_scaleH(sh);
    tiling.set_scaleW(sw);
    tiling.set_rowsPerCore(per);
    tiling.set_totalRows(total);

    context->SetBlockDim(used);
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
    const gert::Shape* xs = context->GetInputShape(0);
    const auto* attrs = context->GetAttrs();
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, xs->GetDim(1));
    ys->SetDim(2, *attrs->GetAttrPointer<int64_t>(0));
    ys->SetDim(3, *attrs->GetAttrPointer<int64_t>(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ResizeWithAntialiasCustom : public OpDef {
public:
    explicit ResizeWithAntialiasCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("out_h").AttrType(OPTIONAL).Int(128);
        this->Attr("out_w").AttrType(OPTIONAL).Int(128);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ResizeWithAntialiasCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// torch's separable antialiased bilinear (align_corners=False):
// center = scale*(i+0.5), support = max(scale,1), taps [xmin, xmin+size), w = tri((j - center + 0.5)/max(scale,1)), normalized
__aicore__ inline void AaSpan(uint32_t i, float scale, uint32_t inSize, int32_t& lo, int32_t& size)
{
    float support = scale >= 1.0f ? scale : 1.0f;
    float center = scale * ((float)i + 0.5f);
    int32_t a = (int32_t)(center - support + 0.5f);
    int32_t b = (int32_t)(center + support + 0.5f);
    if (a < 0) a = 0;
    if (b > (int32_t)inSize) b = (int32_t)inSize;
    lo = a;
    size = b - a;
}

__aicore__ inline float AaTri(float v)
{
    if (v < 0.0f) v = -v;
    return v < 1.0f ? 1.0f - v : 0.0f;
}

class KernelResizeAA {
public:
    __aicore__ inline KernelResizeAA() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t planes, uint32_t ih, uint32_t iw,
                                uint32_t oh, uint32_t ow, uint32_t owA, uint32_t th, uint32_t tw,
                                float sh, float sw, uint32_t per, uint32_t total)
    {
        IH = ih; IW = iw; OH = oh; OW = ow; OWA = owA; TH = th; TW = tw; SH = sh; SW = sw;
        r0 = GetBlockIdx() * per;
        r1 = r0 + per;
        if (r1 > total) r1 = total;
        IWA = (iw + 7) / 8 * 8;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)planes * ih * iw);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)planes * oh * ow);

        pipe.InitBuffer(inQue, BUFFER_NUM, TH * IWA * sizeof(float));
        pipe.InitBuffer(outQue, BUFFER_NUM, OWA * sizeof(float));
        pipe.InitBuffer(rowBuf, IWA * sizeof(float));
        pipe.InitBuffer(idxBuf, TW * OWA * sizeof(uint32_t));
        pipe.InitBuffer(wxBuf, TW * OWA * sizeof(float));
        pipe.InitBuffer(gBuf, OWA * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        BuildColumnTables();
        for (uint32_t r = r0; r < r1; r++) {
            uint32_t plane = r / OH;
            uint32_t oy = r % OH;
            int32_t ylo, ysz;
            AaSpan(oy, SH, IH, ylo, ysz);
            CopyIn(plane, ylo, ysz);
            Compute(oy, ylo, ysz);
            CopyOut(r);
        }
    }

private:
    // per output column: byte offsets + normalized weights for every tap slot
    __aicore__ inline void BuildColumnTables()
    {
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        LocalTensor<float> wx = wxBuf.Get<float>();
        float inv = SW >= 1.0f ? 1.0f / SW : 1.0f;
        for (uint32_t ox = 0; ox < OWA; ox++) {
            if (ox >= OW) {
                for (uint32_t k = 0; k < TW; k++) {
                    idx.SetValue(k * OWA + ox, 0);
                    wx.SetValue(k * OWA + ox, 0.0f);
                }
                continue;
            }
            int32_t lo, sz;
            AaSpan(ox, SW, IW, lo, sz);
            float center = SW * ((float)ox + 0.5f);
            float tot = 0.0f;
            for (int32_t k = 0; k < sz && k < (int32_t)TW; k++) {
                tot += AaTri(((float)(k + lo) - center + 0.5f) * inv);
            }
            float norm = tot != 0.0f ? 1.0f / tot : 0.0f;
            for (uint32_t k = 0; k < TW; k++) {
                if ((int32_t)k < sz) {
                    idx.SetValue(k * OWA + ox, (uint32_t)((lo + (int32_t)k) * sizeof(float)));
                    wx.SetValue(k * OWA + ox, AaTri(((float)((int32_t)k + lo) - center + 0.5f) * inv) * norm);
                } else {
                    idx.SetValue(k * OWA + ox, 0);
                    wx.SetValue(k * OWA + ox, 0.0f);
                }
            }
        }
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void CopyIn(uint32_t plane, int32_t ylo, int32_t ysz)
    {
        LocalTensor<float> rows = inQue.AllocTensor<float>();
        uint64_t base = ((uint64_t)plane * IH + ylo) * IW;
        if (IW == IWA) {
            DataCopy(rows, xGm[base], ysz * IW);
        } else {
            DataCopyExtParams cp{(uint16_t)ysz, (uint32_t)(IW * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
            DataCopyPad(rows, xGm[base], cp, pp);
        }
        inQue.EnQue(rows);
    }

    __aicore__ inline void Compute(uint32_t oy, int32_t ylo, int32_t ysz)
    {
        LocalTensor<float> rows = inQue.DeQue<float>();
        LocalTensor<float> tmp = rowBuf.Get<float>();
        LocalTensor<float> g = gBuf.Get<float>();
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        LocalTensor<float> wx = wxBuf.Get<float>();

        // vertical pass (weights in scalar regs)
        float inv = SH >= 1.0f ? 1.0f / SH : 1.0f;
        float center = SH * ((float)oy + 0.5f);
        float wts[16];
        float tot = 0.0f;
        for (int32_t k = 0; k < ysz && k < 16; k++) {
            wts[k] = AaTri(((float)(k + ylo) - center + 0.5f) * inv);
            tot += wts[k];
        }
        float norm = tot != 0.0f ? 1.0f / tot : 0.0f;
        Muls(tmp, rows, wts[0] * norm, IWA);
        for (int32_t k = 1; k < ysz && k < 16; k++) {
            Axpy(tmp, rows[k * IWA], wts[k] * norm, IWA);
        }
        inQue.FreeTensor(rows);

        // horizontal pass via gather
        LocalTensor<float> out = outQue.AllocTensor<float>();
        Gather(g, tmp, idx, 0, OWA);
        Mul(out, g, wx, OWA);
        for (uint32_t k = 1; k < TW; k++) {
            Gather(g, tmp, idx[k * OWA], 0, OWA);
            MulAddDst(out, g, wx[k * OWA], OWA);
        }
        outQue.EnQue(out);
    }

    __aicore__ inline void CopyOut(uint32_t r)
    {
        LocalTensor<float> out = outQue.DeQue<float>();
        if (OW % 8 == 0) {
            DataCopy(yGm[(uint64_t)r * OW], out, OW);
        } else {
            DataCopyExtParams cp{1, (uint32_t)(OW * sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm[(uint64_t)r * OW], out, cp);
        }
        outQue.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<TPosition::VECCALC> rowBuf, idxBuf, wxBuf, gBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t IH, IW, IWA, OH, OW, OWA, TH, TW;
    float SH, SW;
    uint32_t r0, r1;
};

extern "C" __global__ __aicore__ void resize_with_antialias_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelResizeAA op;
    op.Init(x, y, td.planes, td.inH, td.inW, td.outH, td.outW, td.outWAlign, td.tapsH, td.tapsW,
            td.scaleH, td.scaleW, td.rowsPerCore, td.totalRows);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor resize_with_antialias_custom_impl_npu(const at::Tensor& x, int64_t out_h, int64_t out_w)
{
    at::Tensor y = at::empty({x.size(0), x.size(1), out_h, out_w}, x.options());
    EXEC_NPU_CMD(aclnnResizeWithAntialiasCustom, x, out_h, out_w, y);
    return y;
}

at::Tensor resize_with_antialias_default(const at::Tensor& x)
{
    return resize_with_antialias_custom_impl_npu(x, 128, 128);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("resize_with_antialias_custom", &resize_with_antialias_default);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("resize_with_antialias_custom", &resize_with_antialias_default, "bilinear antialias resize to 128x128");
    m.def("resize_with_antialias_custom_sized", &resize_with_antialias_custom_impl_npu, "bilinear antialias resize");
}
"""
