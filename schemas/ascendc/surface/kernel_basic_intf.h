// curate AscendC surface: `#include "kernel_basic_intf.h"` (answered by the surface's own declarations).
#ifndef CURATE_KERNEL_BASIC_INTF_H
#define CURATE_KERNEL_BASIC_INTF_H

#include "kernel_operator.h"

#endif  // CURATE_KERNEL_BASIC_INTF_H
