// curate AscendC surface: the entry header a kernel includes (`#include "kernel_operator.h"`).
//
// This is not the vendor header. It declares the AscendC programming interface so that clang can
// type-check a kernel without the CANN toolkit: every name, template parameter list and parameter
// list follows the public interface; the declarations themselves are written for curate.
#ifndef CURATE_KERNEL_OPERATOR_H
#define CURATE_KERNEL_OPERATOR_H

#include "asc_prelude.h"
#include "libc/cstdint"
#include "libc/type_traits"
#include "libc/utility"
#include "libc/limits"
#include "ascendc/intrinsics.h"
#include "ascendc/types.h"
#include "ascendc/std.h"
#include "ascendc/tensor.h"
#include "ascendc/pipe.h"
#include "ascendc/datacopy.h"
#include "ascendc/system.h"
#include "ascendc/vec.h"
#include "ascendc/cube.h"
#include "ascendc/adv.h"
#include "ascendc/reg.h"
#include "ascendc/simt.h"
#include "ascendc/tiling.h"
#include "ascendc/generations.h"
#include "ascendc/tensor_api.h"

#endif  // CURATE_KERNEL_OPERATOR_H
