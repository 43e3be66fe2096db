/**
 * Copyright (c) 2026 Ascend-CoT curate authors.
 *
 * This example file belongs to the curate example corpus and is offered under the
 * CANN Open Software License Agreement Version 2.0 (the "License"). Use, copy or modify
 * it only as the License allows. The LICENSE file at the root of this example repository
 * says where the official text of the License is published.
 * The file is provided as is, without warranty of any kind, express or implied, including
 * fitness for a particular purpose.
 */

/*!
 * \file attention_score_lite_tiling.h
 * \brief Tiling data of attention_score_lite (host and kernel view).
 */
#ifndef ATTENTION_SCORE_LITE_TILING_H
#define ATTENTION_SCORE_LITE_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AttentionScoreLiteTilingData)
TILING_DATA_FIELD_DEF(uint32_t, batch);
TILING_DATA_FIELD_DEF(uint32_t, seqLen);
TILING_DATA_FIELD_DEF(uint32_t, headDim);
TILING_DATA_FIELD_DEF(uint32_t, rowsPerTask);
TILING_DATA_FIELD_DEF(float, scaleValue);
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, qkTiling);
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, pvTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AttentionScoreLite, AttentionScoreLiteTilingData)
}  // namespace optiling

#endif  // ATTENTION_SCORE_LITE_TILING_H
