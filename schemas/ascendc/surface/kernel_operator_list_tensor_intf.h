// curate AscendC surface: the vendor sub-header kernel_operator_list_tensor_intf.h, answered by the whole surface.
#pragma once
#include "kernel_operator.h"
