#ifndef TABLE_ROW_GATHER_TILING_H
#define TABLE_ROW_GATHER_TILING_H

#include <cstdint>

// out[i, :] = table[ids[i], :]
//   lookupCount : number of ids (product of the ids shape)
//   rowsPerCore : ids handled by one vector core (last core takes the remainder)
//   rowsPerBatch: rows staged in UB before one contiguous write-back
//   vocabSize   : table rows, used to guard against out-of-range ids
//   rowWidth    : embedding width in elements
struct TableRowGatherTiling {
    uint32_t lookupCount;
    uint32_t rowsPerCore;
    uint32_t rowsPerBatch;
    uint32_t vocabSize;
    uint32_t rowWidth;
    uint32_t usedCores;
};

#endif // TABLE_ROW_GATHER_TILING_H
