#include "grouped_deconv2d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t COL_BUDGET = 2ULL * 1024 * 1024;  // elements of column scratch per core

int64_t Pick(const gert::RuntimeAttrs *attrs, size_t a, size_t i, int64_t def)
{
    auto v = attrs->GetAttrPointer<gert::ContinuousVector>(a);
    if (v == nullptr || v->GetSize() == 0) {
        return def;
    }
    auto d = static_cast<const int64_t *>(v->GetData());
    return d[v->GetSize() > i ? i : 0];
}
uint32_t Up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
}  // namespace

ge::graphStatus GroupedDeconv2dTilingFunc(gert::TilingContext *ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    auto xs = ctx->GetInputShape(0)->GetStorageShape();   // [N, Cin, H, W]
    auto ws = ctx->GetInputShape(1)->GetStorageShape();   // [Cin, Cout/groups, KH, KW]
    auto attrs = ctx->GetAttrs();
    uint32_t groups = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(3));
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || groups == 0 || xs.GetDim(1) != ws.GetDim(0) ||
        xs.GetDim(1) % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    GroupedDeconv2dTilingData t;
    uint32_t N = xs.GetDim(0), Cin = xs.GetDim(1), H = xs.GetDim(2), W = xs.GetDim(3);
    uint32_t CoG = ws.GetDim(1), KH = ws.GetDim(2), KW = ws.GetDim(3);
    uint32_t sH = Pick(attrs, 0, 0, 1), sW = Pick(attrs, 0, 1, 1);
    uint32_t pH = Pick(attrs, 1, 0, 0), pW = Pick(attrs, 1, 1, 0);
    uint32_t dH = Pick(attrs, 2, 0, 1), dW = Pick(attrs, 2, 1, 1);
    int64_t OH = static_cast<int64_t>(H - 1) * sH - 2 * pH + dH * (KH - 1) + 1;
    int64_t OW = static_cast<int64_t>(W - 1) * sW - 2 * pW + dW * (KW - 1) + 1;
    if (OH <= 0 || OW <= 0) {
        return ge::GRAPH_FAILED;
    }

    bool f16 = ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    uint32_t esz = f16 ? 2 : 4;
    uint32_t cinG = Cin / groups;
    uint32_t coKK = CoG * KH * KW;

    // choose the output row block so that the column scratch fits the budget
    uint32_t ohBlock = static_cast<uint32_t>(OH);
    auto spanOf = [&](uint32_t blk) { return ((blk - 1) + (KH - 1) * dH) / sH + 2; };
    while (ohBlock > 1 && static_cast<uint64_t>(coKK) * spanOf(ohBlock) * W > COL_BUDGET) {
        ohBlock = (ohBlock + 1) / 2;
    }
    uint32_t cores = plat.GetCoreNumAic();
    uint32_t perPlane = (static_cast<uint32_t>(OH) + ohBlock - 1) / ohBlock;
    while (ohBlock > 1 && N * groups * perPlane < cores) {
        ohBlock = (ohBlock + 1) / 2;
        perPlane = (static_cast<uint32_t>(OH) + ohBlock - 1) / ohBlock;
    }
    uint32_t span = spanOf(ohBlock);
    if (span > H) {
        span = H;
    }
    uint32_t units = N * groups * perPlane;

    t.set_n(N); t.set_cin(Cin); t.set_h(H); t.set_w(W);
    t.set_cout(CoG * groups); t.set_kh(KH); t.set_kw(KW);
    t.set_oh(static_cast<uint32_t>(OH)); t.set_ow(static_cast<uint32_t>(OW));
    t.set_sh(sH); t.set_sw(sW); t.set_ph(pH); t.set_pw(pW); t.set_dh(dH); t.set_dw(dW);
    t.set_groups(groups);
    t.set_ohBlock(ohBlock);
    t.set_ihSpan(span);
    t.set_blocksPerPlane(perPlane);
    t.set_units(units);
    t.set_wPad(Up(W + 1, 32 / esz));
    t.set_owPad(Up(static_cast<uint32_t>(OW), 32 / esz));

    matmul_tiling::DataType dt = f16 ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;
    matmul_tiling::MatmulApiTiling mm(plat);
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, true);   // weight read transposed
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, false);
    mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mm.SetShape(coKK, span * W, cinG);
    mm.SetOrgShape(coKK, span * W, cinG);
    mm.SetBias(false);
    mm.SetBufferSpace(-1, -1, -1);
    if (mm.GetTiling(t.colMm) == -1) {
        return ge::GRAPH_FAILED;
    }

    uint32_t blockDim = units < cores ? units : cores;
    ctx->SetBlockDim(blockDim);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] =
        plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(blockDim) * coKK * span * W * esz;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
