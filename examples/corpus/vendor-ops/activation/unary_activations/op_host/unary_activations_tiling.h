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
 * \file unary_activations_tiling.h
 * \brief Tiling data of unary_activations (host and kernel view).
 */
#ifndef UNARY_ACTIVATIONS_TILING_H
#define UNARY_ACTIVATIONS_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(UnaryActivationsTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, tileNum);
TILING_DATA_FIELD_DEF(float, negativeSlope);
TILING_DATA_FIELD_DEF(float, hsAlpha);
TILING_DATA_FIELD_DEF(float, hsBeta);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(UnaryActivations, UnaryActivationsTilingData)
}  // namespace optiling

#endif  // UNARY_ACTIVATIONS_TILING_H
