project_json_src='''
[
    {
        "op": "GroupedDeconv2dPhaseCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "weight",
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
            {"name": "stride_h", "param_type": "required", "type": "int"},
            {"name": "stride_w", "param_type": "required", "type": "int"},
            {"name": "pad_h", "param_type": "required", "type": "int"},
            {"name": "pad_w", "param_type": "required", "type": "int"},
            {"name": "dilation_h", "param_type": "required", "type": "int"},
            {"name": "dilation_w", "param_type": "required", "type": "int"},
            {"name": "groups", "param_type": "required", "type": "int"},
            {"name": "orig_w", "param_type": "required", "type": "int"},
            {"name": "pad_left", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GroupedDeconv2dPhaseTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, paddedW);     // width of the pre-padded input
  TILING_DATA_FIELD_DEF(uint32_t, padLeft);     // zero columns added in front
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, cinPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, coutPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(int32_t, strideH);
  TILING_DATA_FIELD_DEF(int32_t, strideW);
  TILING_DATA_FIELD_DEF(int32_t, padH);
  TILING_DATA_FIELD_DEF(int32_t, padW);
  TILING_DATA_FIELD_DEF(int32_t, dilH);
  TILING_DATA_FIELD_DEF(int32_t, dilW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, phaseStride); // floats reserved per column phase
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore); // (n, g, oh) units per core
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GroupedDeconv2dPhaseCustom, GroupedDeconv2dPhaseTilingData)
}
"""

host_operator_src="""
#include "grouped_deconv2d_phase_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();
    auto attrs = context->GetAttrs();
    int32_t sh = (int32_t)*attrs->GetAttrPointer<int64_t>(0);
    int32_t sw = (int32_t)*attrs->GetAttrPointer<int64_t>(1);
    int32_t ph = (int32_t)*attrs->GetAttrPointer<int64_t>(2);
    int32_t pw = (int32_t)*attrs->GetAttrPointer<int64_t>(3);
    int32_t dh = (int32_t)*attrs->GetAttrPointer<int64_t>(4);
    int32_t dw = (int32_t)*attrs->GetAttrPointer<int64_t>(5);
    uint32_t groups = (uint32_t)*attrs->GetAttrPointer<int64_t>(6);
    uint32_t origW = (uint32_t)*attrs->GetAttrPointer<int64_t>(7);
    uint32_t padLeft = (uint32_t)*attrs->GetAttrPointer<int64_t>(8);

    uint32_t n = xs.GetDim(0);
    uint32_t cin = xs.GetDim(1);
    uint32_t h = xs.GetDim(2);
    uint32_t wp = xs.GetDim(3);
    uint32_t coutG = ws.GetDim(1);
    uint32_t kh = ws.GetDim(2);
    uint32_t kw = ws.GetDim(3);
    if (kw > 16 || sw > 8 || groups == 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t oh = (h - 1) * sh - 2 * ph + dh * (kh - 1) + 1;
    uint32_t ow = (origW - 1) * sw - 2 * pw + dw * (kw - 1) + 1;
    // outputs of one column phase: ow = m * sw + phase
    uint32_t longestPhase = (ow + sw - 1) / sw;
    uint32_t phaseStride = (longestPhase + 7) / 8 * 8;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t units = n * groups * oh;
    uint32_t perCore = (units + cores - 1) / cores;
    uint32_t used = (units + perCore - 1) / perCore;

    GroupedDeconv2dPhaseTilingData td;
    td.set_batch(n);
    td.set_cin(cin);
    td.set_inH(h);
    td.set_paddedW(wp);
    td.set_padLeft(padLeft);
    td.set_groups(groups);
    td.set_cinPerGroup(cin / groups);
    td.set_coutPerGroup(coutG);
    td.set_kH(kh);
    td.set_kW(kw);
    td.set_strideH(sh);
    td.set_strideW(sw);
    td.set_padH(ph);
    td.set_padW(pw);
    td.set_dilH(dh);
    td.set_dilW(dw);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_phaseStride(phaseStride);
    td.set_rowsPerCore(perCore);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    auto attrs = context->GetAttrs();
    int64_t sh = *attrs->GetAttrPointer<int64_t>(0);
    int64_t sw = *attrs->GetAttrPointer<int64_t>(1);
    int64_t ph = *attrs->GetAttrPointer<int64_t>(2);
    int64_t pw = *attrs->GetAttrPointer<int64_t>(3);
    int64_t dh = *attrs->GetAttrPointer<int64_t>(4);
    int64_t dw = *attrs->GetAttrPointer<int64_t>(5);
    int64_t groups = *attrs->GetAttrPointer<int64_t>(6);
    int64_t origW = *attrs->GetAttrPointer<int64_t>(7);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1) * groups);
    ys->SetDim(2, (xs->GetDim(2) - 1) * sh - 2 * ph + dh * (ws->GetDim(2) - 1) + 1);
    ys->SetDim(3, (origW - 1) * sw - 2 * pw + dw * (ws->GetDim(3) - 1) + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GroupedDeconv2dPhaseCustom : public OpDef {
public:
    explicit GroupedDeconv2dPhaseCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride_h").Int();
        this->Attr("stride_w").Int();
        this->Attr("pad_h").Int();
        this->Attr("pad_w").Int();
        this->Attr("dilation_h").Int();
        this->Attr("dilation_w").Int();
        this->Attr("groups").Int();
        this->Attr("orig_w").Int();
        this->Attr("pad_left").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GroupedDeconv2dPhaseCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t MAX_KW = 16;

// Transposed convolution written in "gather" form, one output row at a time.
//
// Along W the output splits into strideW column phases: ow = m * sw + phase.
// Tap kw lands in phase ((kw*dw - pw) mod sw) and reads input column
// iw = m - shift(kw), i.e. a plain shifted copy of the input row, so every tap
// becomes a contiguous AXPY on the phase buffer.  The host pads the input in W
// so that every shifted read is in bounds (DataCopyPad handles the unaligned
// GM offset).  At the end the phases are interleaved back with Gather.
class GroupedDeconv2dPhase {
public:
    __aicore__ inline GroupedDeconv2dPhase() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const GroupedDeconv2dPhaseTilingData& td)
    {
        t = td;
        accStride = (uint32_t)t.strideW * t.phaseStride;
        outStride = (t.outW + 7) / 8 * 8;
        wPerGroup = t.cinPerGroup * t.coutPerGroup * t.kH * t.kW;

        // phase / shift of each horizontal tap
        for (uint32_t k = 0; k < t.kW; ++k) {
            int32_t d = (int32_t)k * t.dilW - t.padW;
            int32_t ph = ((d % t.strideW) + t.strideW) % t.strideW;
            tapPhase[k] = (uint32_t)ph;
            tapShift[k] = (d - ph) / t.strideW;
            tapLen[k] = ((uint32_t)ph < t.outW) ? (t.outW - ph + t.strideW - 1) / t.strideW : 0;
        }

        uint32_t units = t.batch * t.groups * t.outH;
        unitBegin = GetBlockIdx() * t.rowsPerCore;
        unitEnd = unitBegin + t.rowsPerCore;
        if (unitEnd > units) unitEnd = units;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(rowQue, 2, t.kW * t.phaseStride * sizeof(float));
        pipe.InitBuffer(wQue, 1, (wPerGroup + 7) / 8 * 8 * sizeof(float));
        pipe.InitBuffer(outQue, 1, t.coutPerGroup * outStride * sizeof(float));
        pipe.InitBuffer(accBuf, t.coutPerGroup * accStride * sizeof(float));
        pipe.InitBuffer(idxBuf, outStride * sizeof(uint32_t));

        // byte offset of output column ow inside one channel's phase buffer
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        for (uint32_t ow = 0; ow < t.outW; ++ow) {
            uint32_t ph = ow % (uint32_t)t.strideW;
            uint32_t m = ow / (uint32_t)t.strideW;
            idx.SetValue(ow, (ph * t.phaseStride + m) * (uint32_t)sizeof(float));
        }
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
    }

    __aicore__ inline void Process()
    {
        int32_t curGroup = -1;
        LocalTensor<float> wl;
        for (uint32_t u = unitBegin; u < unitEnd; ++u) {
            uint32_t oh = u % t.outH;
            uint32_t ng = u / t.outH;
            uint32_t g = ng % t.groups;
            uint32_t n = ng / t.groups;
            if ((int32_t)g != curGroup) {
                if (curGroup >= 0) wQue.FreeTensor(wl);
                wl = LoadGroupWeights(g);
                curGroup = (int32_t)g;
            }
            ComputeRow(n, g, oh, wl);
            StoreRow(n, g, oh);
        }
        if (curGroup >= 0) wQue.FreeTensor(wl);
    }

private:
    __aicore__ inline LocalTensor<float> LoadGroupWeights(uint32_t g)
    {
        LocalTensor<float> wl = wQue.AllocTensor<float>();
        DataCopyExtParams cp{1, (uint32_t)(wPerGroup * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(wl, wGm[(uint64_t)g * wPerGroup], cp, pad);
        wQue.EnQue(wl);
        return wQue.DeQue<float>();
    }

    __aicore__ inline void ComputeRow(uint32_t n, uint32_t g, uint32_t oh, LocalTensor<float>& wl)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, t.coutPerGroup * accStride);

        for (uint32_t kh = 0; kh < t.kH; ++kh) {
            int32_t num = (int32_t)oh + t.padH - (int32_t)kh * t.dilH;
            if (num < 0 || num % t.strideH != 0) continue;
            uint32_t ih = (uint32_t)(num / t.strideH);
            if (ih >= t.inH) continue;

            for (uint32_t ci = 0; ci < t.cinPerGroup; ++ci) {
                uint64_t rowBase = (((uint64_t)n * t.cin + g * t.cinPerGroup + ci) * t.inH + ih) * t.paddedW;
                LocalTensor<float> rows = rowQue.AllocTensor<float>();
                DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
                for (uint32_t k = 0; k < t.kW; ++k) {
                    if (tapLen[k] == 0) continue;
                    int64_t col = (int64_t)t.padLeft - tapShift[k];
                    DataCopyExtParams cp{1, (uint32_t)(tapLen[k] * sizeof(float)), 0, 0, 0};
                    DataCopyPad(rows[k * t.phaseStride], xGm[rowBase + col], cp, pad);
                }
                rowQue.EnQue(rows);
                rows = rowQue.DeQue<float>();

                uint32_t wBase = ci * t.coutPerGroup * t.kH * t.kW + kh * t.kW;
                for (uint32_t co = 0; co < t.coutPerGroup; ++co) {
                    uint32_t wOff = wBase + co * t.kH * t.kW;
                    LocalTensor<float> accCo = acc[co * accStride];
                    for (uint32_t k = 0; k < t.kW; ++k) {
                        if (tapLen[k] == 0) continue;
                        float wv = wl.GetValue(wOff + k);
                        Axpy(accCo[tapPhase[k] * t.phaseStride], rows[k * t.phaseStride], wv, (int32_t)tapLen[k]);
                    }
                }
                rowQue.FreeTensor(rows);
            }
        }

        // interleave the phases back into natural column order
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        LocalTensor<float> out = outQue.AllocTensor<float>();
        for (uint32_t co = 0; co < t.coutPerGroup; ++co) {
            Gather(out[co * outStride], acc[co * accStride], idx, (uint32_t)0, t.outW);
        }
        outQue.EnQue(out);
    }

    __aicore__ inline void StoreRow(uint32_t n, uint32_t g, uint32_t oh)
    {
        LocalTensor<float> out = outQue.DeQue<float>();
        uint32_t cout = t.groups * t.coutPerGroup;
        uint64_t dst = (((uint64_t)n * cout + g * t.coutPerGroup) * t.outH + oh) * t.outW;
        uint32_t srcGapBlocks = (outStride - (t.outW + 7) / 8 * 8) / 8;
        uint32_t dstGapBytes = (t.outH * t.outW - t.outW) * sizeof(float);
        DataCopyExtParams cp{(uint16_t)t.coutPerGroup, (uint32_t)(t.outW * sizeof(float)),
                             srcGapBlocks, dstGapBytes, 0};
        DataCopyPad(yGm[dst], out, cp);
        outQue.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> rowQue;
    TQue<QuePosition::VECIN, 1> wQue;
    TQue<QuePosition::VECOUT, 1> outQue;
    TBuf<QuePosition::VECCALC> accBuf, idxBuf;
    GlobalTensor<float> xGm, wGm, yGm;
    GroupedDeconv2dPhaseTilingData t;
    uint32_t tapPhase[MAX_KW];
    int32_t tapShift[MAX_KW];
    uint32_t tapLen[MAX_KW];
    uint32_t accStride, outStride, wPerGroup;
    uint32_t unitBegin, unitEnd;
};

extern "C" __global__ __aicore__ void grouped_deconv2d_phase_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GroupedDeconv2dPhase op;
    op.Init(x, weight, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <algorithm>

// weight: (Cin, Cout/groups, kH, kW) as stored by nn.ConvTranspose2d.
at::Tensor grouped_deconv2d_npu(const at::Tensor& x, const at::Tensor& weight,
                                std::vector<int64_t> stride, std::vector<int64_t> padding,
                                std::vector<int64_t> dilation, int64_t groups)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expected NCHW input and 4-D weight");
    int64_t sh = stride[0], sw = stride[1];
    int64_t ph = padding[0], pw = padding[1];
    int64_t dh = dilation[0], dw = dilation[1];
    int64_t inW = x.size(3);
    int64_t kW = weight.size(3);
    int64_t outW = (inW - 1) * sw - 2 * pw + dw * (kW - 1) + 1;

    // Work out how far the shifted row reads of the kernel reach beyond the
    // real input and pad W by that much, so the kernel never needs bounds checks.
    int64_t padL = 0;
    int64_t reachR = 0;
    for (int64_t k = 0; k < kW; ++k) {
        int64_t d = k * dw - pw;
        int64_t phs = ((d % sw) + sw) % sw;
        int64_t s = (d - phs) / sw;
        int64_t len = phs < outW ? (outW - phs + sw - 1) / sw : 0;
        padL = std::max(padL, s);
        reachR = std::max(reachR, len - s);
    }
    int64_t padR = std::max<int64_t>(0, reachR - inW);
    at::Tensor xp = at::constant_pad_nd(x, {padL, padR}, 0).contiguous();
    at::Tensor wc = weight.contiguous();

    int64_t outH = (x.size(2) - 1) * sh - 2 * ph + dh * (weight.size(2) - 1) + 1;
    at::Tensor y = at::empty({x.size(0), weight.size(1) * groups, outH, outW}, x.options());
    EXEC_NPU_CMD(aclnnGroupedDeconv2dPhaseCustom, xp, wc, sh, sw, ph, pw, dh, dw, groups, inW, padL, y);
    return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("grouped_deconv2d", &grouped_deconv2d_npu,
          "grouped, strided, padded, dilated ConvTranspose2d (no bias)");
}
"""
