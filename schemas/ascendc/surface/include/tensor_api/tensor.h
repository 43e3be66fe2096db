// curate AscendC surface: `#include "include/tensor_api/tensor.h"` (answered by the surface's own declarations).
#ifndef CURATE_INCLUDE_TENSOR_API_TENSOR_H
#define CURATE_INCLUDE_TENSOR_API_TENSOR_H

#include "ascendc/tensor_api.h"

#endif  // CURATE_INCLUDE_TENSOR_API_TENSOR_H
