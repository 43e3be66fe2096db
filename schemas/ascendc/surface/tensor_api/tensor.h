// curate AscendC surface: `#include "tensor_api/tensor.h"` (answered by the surface's own declarations).
#ifndef CURATE_TENSOR_API_TENSOR_H
#define CURATE_TENSOR_API_TENSOR_H

#include "ascendc/tensor_api.h"

#endif  // CURATE_TENSOR_API_TENSOR_H
