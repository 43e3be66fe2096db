#include "deconv3d_channel_softmax_sigmoid_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t UB_BUDGET = 160 * 1024;

inline uint32_t Align8(uint32_t v) { return (v + 7U) / 8U * 8U; }

uint32_t AttrAt(const gert::ContinuousVector *v, size_t i, uint32_t dflt)
{
    if (v == nullptr || v->GetSize() == 0) {
        return dflt;
    }
    const int64_t *d = static_cast<const int64_t *>(v->GetData());
    return static_cast<uint32_t>(v->GetSize() == 1 ? d[0] : d[i]);
}
}  // namespace

ge::graphStatus Deconv3dSoftmaxSigmoidTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();  // N Cin D H W
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();  // Cin Cout kD kH kW
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5 || xs.GetDim(1) != ws.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    auto strides = attrs->GetAttrPointer<gert::ContinuousVector>(0);
    auto pads = attrs->GetAttrPointer<gert::ContinuousVector>(1);
    auto outPads = attrs->GetAttrPointer<gert::ContinuousVector>(2);

    Deconv3dSoftmaxSigmoidTiling t;
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1);
    uint32_t d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t cout = ws.GetDim(1);
    uint32_t kd = ws.GetDim(2), kh = ws.GetDim(3), kw = ws.GetDim(4);
    uint32_t sd = AttrAt(strides, 0, 1), sh = AttrAt(strides, 1, 1), sw = AttrAt(strides, 2, 1);
    uint32_t pd = AttrAt(pads, 0, 0), ph = AttrAt(pads, 1, 0), pw = AttrAt(pads, 2, 0);
    uint32_t od = AttrAt(outPads, 0, 0), oh = AttrAt(outPads, 1, 0), ow = AttrAt(outPads, 2, 0);

    uint32_t outD = (d - 1) * sd + kd + od - 2 * pd;
    uint32_t outH = (h - 1) * sh + kh + oh - 2 * ph;
    uint32_t outW = (w - 1) * sw + kw + ow - 2 * pw;
    uint32_t coutPad = Align8(cout);

    // acc[owTile][coutPad] + transposed tile[cout][owTile] + stats, plus x row and weight taps
    uint64_t fixed = (uint64_t)Align8(w) * 4 * 2 + (uint64_t)kw * coutPad * 4 * 2;
    uint64_t perCol = (uint64_t)coutPad * 4 * 2 + 4 * 4;
    uint32_t owTile = static_cast<uint32_t>((UB_BUDGET - fixed) / perCol);
    owTile = owTile / 8 * 8;
    if (owTile == 0) {
        return ge::GRAPH_FAILED;
    }
    if (owTile > Align8(outW)) {
        owTile = Align8(outW);
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t rows = n * outD * outH;
    uint32_t perCore = (rows + cores - 1) / cores;

    t.set_batch(n);
    t.set_cin(cin);
    t.set_inD(d);
    t.set_inH(h);
    t.set_inW(w);
    t.set_cout(cout);
    t.set_coutPad(coutPad);
    t.set_outD(outD);
    t.set_outH(outH);
    t.set_outW(outW);
    t.set_kD(kd);
    t.set_kH(kh);
    t.set_kW(kw);
    t.set_strideD(sd);
    t.set_strideH(sh);
    t.set_strideW(sw);
    t.set_padD(pd);
    t.set_padH(ph);
    t.set_padW(pw);
    t.set_totalRows(rows);
    t.set_rowsPerCore(perCore);
    t.set_owTile(owTile);
    t.set_inWPad(Align8(w));

    context->SetBlockDim(cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());

    // user workspace: weights regrouped as [kd][kh][kw][cin][coutPad]
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize() + (size_t)kd * kh * kw * cin * coutPad * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
