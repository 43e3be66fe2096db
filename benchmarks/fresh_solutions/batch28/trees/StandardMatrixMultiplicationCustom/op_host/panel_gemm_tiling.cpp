#include <cstdint>
#include "panel_gemm_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
struct PanelChoice {
    uint32_t pm;
    uint32_t pn;
};

inline uint64_t DivUp(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Pick the panel size that minimises the critical path (rounds * panel area);
// ties go to the panel with less operand re-reading (bigger panels).
PanelChoice ChoosePanel(uint32_t m, uint32_t n, uint32_t cores)
{
    static const uint32_t kSizes[] = {128, 256, 384, 512};
    PanelChoice best{128, 128};
    uint64_t bestTime = UINT64_MAX;
    double bestTraffic = 0.0;
    for (uint32_t pm : kSizes) {
        for (uint32_t pn : kSizes) {
            uint32_t em = pm > m ? m : pm;
            uint32_t en = pn > n ? n : pn;
            uint64_t panels = DivUp(m, em) * DivUp(n, en);
            uint64_t rounds = DivUp(panels, cores);
            uint64_t time = rounds * em * en;
            double traffic = 1.0 / em + 1.0 / en;
            if (time < bestTime || (time == bestTime && traffic < bestTraffic)) {
                bestTime = time;
                bestTraffic = traffic;
                best = {em, en};
            }
        }
    }
    return best;
}
}  // namespace

ge::graphStatus PanelGemmTiling(gert::TilingContext *context)
{
    auto sa = context->GetInputShape(0);
    auto sb = context->GetInputShape(1);
    if (sa == nullptr || sb == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape &a = sa->GetStorageShape();
    const gert::Shape &b = sb->GetStorageShape();
    if (a.GetDimNum() != 2 || b.GetDimNum() != 2 || a.GetDim(1) != b.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t m = static_cast<uint32_t>(a.GetDim(0));
    uint32_t k = static_cast<uint32_t>(a.GetDim(1));
    uint32_t n = static_cast<uint32_t>(b.GetDim(1));
    if (m == 0 || n == 0 || k == 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAic();
    cores = cores == 0 ? 1 : cores;

    PanelChoice pc = ChoosePanel(m, n, cores);
    uint32_t panelsM = static_cast<uint32_t>(DivUp(m, pc.pm));
    uint32_t panelsN = static_cast<uint32_t>(DivUp(n, pc.pn));

    // Single-core tiling for one full panel; edge panels use SetTail in the kernel.
    matmul_tiling::MatmulApiTiling api(plat);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT);
    api.SetShape(pc.pm, pc.pn, k);
    api.SetOrgShape(m, n, k);
    api.SetBias(false);
    api.SetBufferSpace(-1, -1, -1);

    PanelGemmTilingData td;
    if (api.GetTiling(td.cube) == -1) {
        return ge::GRAPH_FAILED;
    }
    td.set_m(m);
    td.set_n(n);
    td.set_k(k);
    td.set_panelM(pc.pm);
    td.set_panelN(pc.pn);
    td.set_panelsM(panelsM);
    td.set_panelsN(panelsN);
    // Visit the grid in column-groups of up to 8 M-panels so that a wave of
    // cores touches few distinct A and B panels.
    td.set_groupM(panelsM < 8 ? panelsM : 8);

    uint32_t total = panelsM * panelsN;
    context->SetBlockDim(total < cores ? total : cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
