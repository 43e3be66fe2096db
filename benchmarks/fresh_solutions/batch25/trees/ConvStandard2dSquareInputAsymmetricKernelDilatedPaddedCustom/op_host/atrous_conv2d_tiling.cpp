#include "atrous_conv2d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
// upper bound for the per-core im2col scratch, in elements
constexpr uint64_t COL_SCRATCH_ELEMS = 4ULL * 1024 * 1024;

uint32_t Align(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// reads the idx-th entry of a 2-element list attribute, falling back to def
uint32_t ListAttr(const gert::RuntimeAttrs *attrs, size_t attrIdx, size_t idx, uint32_t def)
{
    const gert::ContinuousVector *lst = attrs->GetAttrPointer<gert::ContinuousVector>(attrIdx);
    if (lst == nullptr || lst->GetSize() == 0) {
        return def;
    }
    const int64_t *data = reinterpret_cast<const int64_t *>(lst->GetData());
    size_t i = lst->GetSize() > idx ? idx : 0;  // a single value applies to both axes
    return static_cast<uint32_t>(data[i]);
}
}  // namespace

ge::graphStatus AtrousConv2dTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();  // [N, C, H, W]
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();  // [OC, C, KH, KW]
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    uint32_t sH = ListAttr(attrs, 0, 0, 1), sW = ListAttr(attrs, 0, 1, 1);
    uint32_t pH = ListAttr(attrs, 1, 0, 0), pW = ListAttr(attrs, 1, 1, 0);
    uint32_t dH = ListAttr(attrs, 2, 0, 1), dW = ListAttr(attrs, 2, 1, 1);

    uint32_t N = xs.GetDim(0), C = xs.GetDim(1), H = xs.GetDim(2), W = xs.GetDim(3);
    uint32_t OC = ws.GetDim(0), KH = ws.GetDim(2), KW = ws.GetDim(3);
    int64_t effKH = static_cast<int64_t>(dH) * (KH - 1) + 1;
    int64_t effKW = static_cast<int64_t>(dW) * (KW - 1) + 1;
    int64_t oh = (static_cast<int64_t>(H) + 2 * pH - effKH) / sH + 1;
    int64_t ow = (static_cast<int64_t>(W) + 2 * pW - effKW) / sW + 1;
    if (oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t OH = static_cast<uint32_t>(oh), OW = static_cast<uint32_t>(ow);

    auto dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elem = dt == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t alignElems = 32 / elem;
    uint64_t K = static_cast<uint64_t>(C) * KH * KW;

    // rows of output computed per unit, bounded by the im2col scratch
    uint32_t rows = static_cast<uint32_t>(COL_SCRATCH_ELEMS / (K * OW));
    rows = rows == 0 ? 1 : (rows > OH ? OH : rows);
    uint32_t coreNum = plat.GetCoreNumAic();
    // prefer at least one unit per core when the images are few
    while (rows > 1 && static_cast<uint64_t>(N) * ((OH + rows - 1) / rows) < coreNum) {
        rows = (rows + 1) / 2;
    }
    uint32_t unitsPerImage = (OH + rows - 1) / rows;
    uint32_t totalUnits = N * unitsPerImage;
    uint32_t blockDim = totalUnits < coreNum ? totalUnits : coreNum;

    // staging row must cover the furthest gathered column
    uint32_t leftMargin = Align(pW, alignElems);
    uint32_t reach = (OW - 1) * sW + (KW - 1) * dW + 1;  // in padded coordinates
    uint32_t rowBufLen = Align(leftMargin + (reach > W + pW ? reach - pW : W) + alignElems, alignElems);

    AtrousConv2dTilingData td;
    td.set_batch(N);
    td.set_inC(C);
    td.set_inH(H);
    td.set_inW(W);
    td.set_outC(OC);
    td.set_kH(KH);
    td.set_kW(KW);
    td.set_outH(OH);
    td.set_outW(OW);
    td.set_strideH(sH);
    td.set_strideW(sW);
    td.set_padH(pH);
    td.set_padW(pW);
    td.set_dilH(dH);
    td.set_dilW(dW);
    td.set_rowsPerUnit(rows);
    td.set_unitsPerImage(unitsPerImage);
    td.set_totalUnits(totalUnits);
    td.set_leftMargin(leftMargin);
    td.set_rowBufLen(rowBufLen);
    td.set_outWAlign(Align(OW, alignElems));

    matmul_tiling::DataType mmDt = dt == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16
                                                         : matmul_tiling::DataType::DT_FLOAT;
    matmul_tiling::MatmulApiTiling mm(plat);
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmDt);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmDt);
    mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmDt);
    mm.SetShape(OC, rows * OW, K);
    mm.SetOrgShape(OC, rows * OW, K);
    mm.SetBias(false);
    mm.SetBufferSpace(-1, -1, -1);
    if (mm.GetTiling(td.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(blockDim);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(blockDim) * K * rows * OW * elem;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
