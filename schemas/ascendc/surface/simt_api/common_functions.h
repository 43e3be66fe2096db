// curate AscendC surface: SIMT header common_functions.h (the whole SIMT surface).
#pragma once
#include "ascendc/types.h"
#include "ascendc/simt.h"
#include "libc/cmath"
#include "simt_api/device_sync_functions.h"
