// curate AscendC surface: the vendor sub-header kernel_tensor.h, answered by the whole surface.
#pragma once
#include "kernel_operator.h"
