// curate AscendC surface: SIMT header device_sync_functions.h (thread synchronisation and fences).
#pragma once
#include "ascendc/types.h"
#include "ascendc/simt.h"
#include "libc/cmath"

__aicore__ inline void asc_syncthreads();
__aicore__ inline void asc_threadfence();
__aicore__ inline void asc_threadfence_block();
