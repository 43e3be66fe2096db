// curate AscendC surface: SIMT header asc_bf16.h (the whole SIMT surface).
#pragma once
#include "ascendc/types.h"
#include "ascendc/simt.h"
#include "libc/cmath"
#include "simt_api/asc_simt.h"
