/**
 * Tiling data for PanelGemm: C = A * B with the output partitioned into a
 * grid of fixed-size panels that are scheduled round-robin over AI Cores.
 */
#ifndef PANEL_GEMM_TILING_H
#define PANEL_GEMM_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PanelGemmTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, m);
    TILING_DATA_FIELD_DEF(uint32_t, n);
    TILING_DATA_FIELD_DEF(uint32_t, k);
    TILING_DATA_FIELD_DEF(uint32_t, panelM);
    TILING_DATA_FIELD_DEF(uint32_t, panelN);
    TILING_DATA_FIELD_DEF(uint32_t, panelsM);
    TILING_DATA_FIELD_DEF(uint32_t, panelsN);
    TILING_DATA_FIELD_DEF(uint32_t, groupM);      // panels along M visited together (L2 reuse)
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PanelGemm, PanelGemmTilingData)

ge::graphStatus PanelGemmTiling(gert::TilingContext *context);
}  // namespace optiling

#endif
