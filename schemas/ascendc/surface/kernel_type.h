// curate AscendC surface: the vendor sub-header kernel_type.h, answered by the whole surface.
#pragma once
#include "kernel_operator.h"
