#ifndef MASK_TO_NEG_INF_TILING_H
#define MASK_TO_NEG_INF_TILING_H

#include <cstdint>

// Host fills this once per launch.
//   totalElems   : number of elements of x (== number of bool mask bytes)
//   elemsPerCore : contiguous span given to each vector core (multiple of 256
//                  except possibly for the last core, which takes the remainder)
//   tileElems    : elements per UB round trip, multiple of 256
struct MaskToNegInfTiling {
    uint64_t totalElems;
    uint64_t elemsPerCore;
    uint32_t tileElems;
    uint32_t usedCores;
};

#endif // MASK_TO_NEG_INF_TILING_H
