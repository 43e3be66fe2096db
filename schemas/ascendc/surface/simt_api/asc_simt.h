// curate AscendC surface: SIMT header asc_simt.h (all of the SIMT C interface).
#pragma once
#include "simt_api/common_functions.h"
#include "simt_api/math_functions.h"
#include "simt_api/device_functions.h"
#include "simt_api/vector_functions.h"
#include "simt_api/device_sync_functions.h"
