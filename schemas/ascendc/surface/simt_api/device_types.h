// curate AscendC surface: SIMT header device_types.h (the whole SIMT surface).
#pragma once
#include "ascendc/types.h"
#include "ascendc/simt.h"
#include "libc/cmath"
