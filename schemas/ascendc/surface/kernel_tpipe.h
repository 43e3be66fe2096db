// curate AscendC surface: the vendor sub-header kernel_tpipe.h, answered by the whole surface.
#pragma once
#include "kernel_operator.h"
