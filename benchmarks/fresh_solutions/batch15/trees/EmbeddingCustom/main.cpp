// main.cpp - host program for token_row_gather
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_token_row_gather.h"

#define ACL_CHECK(call)                                                            \
    do {                                                                           \
        aclError status = (call);                                                  \
        if (status != ACL_SUCCESS) {                                               \
            std::printf("ACL error %d: %s (%s:%d)\n", status, #call, __FILE__, __LINE__); \
            return -1;                                                             \
        }                                                                          \
    } while (0)

struct TokenRowGatherTiling {
    uint32_t numTokens;
    uint32_t vocab;
    uint32_t dim;
    uint32_t tokensPerCore;
    uint32_t rowsPerTile;
    uint32_t reserved;
};

template <typename T>
static bool ReadBin(const char *path, std::vector<T> &buf)
{
    std::ifstream f(path, std::ios::binary);
    return static_cast<bool>(f.read(reinterpret_cast<char *>(buf.data()), buf.size() * sizeof(T)));
}

int main()
{
    const uint32_t BATCH = 64, SEQ = 128, VOCAB = 32000, DIM = 768;
    const uint32_t CORES = 40;

    TokenRowGatherTiling tiling{};
    tiling.numTokens = BATCH * SEQ;
    tiling.vocab = VOCAB;
    tiling.dim = DIM;
    tiling.rowsPerTile = 16;                         // 16 * 768 * 4 B = 48 KB per buffer
    uint32_t per = (tiling.numTokens + CORES - 1) / CORES;
    tiling.tokensPerCore = (per + 3) / 4 * 4;        // int64 id slices stay 32B aligned
    uint32_t blockDim = (tiling.numTokens + tiling.tokensPerCore - 1) / tiling.tokensPerCore;

    std::vector<int64_t> ids(tiling.numTokens);
    std::vector<float> table((size_t)VOCAB * DIM);
    if (!ReadBin("./input/indices.bin", ids) || !ReadBin("./input/table.bin", table)) {
        std::printf("input files missing, run scripts/gen_data.py\n");
        return -1;
    }
    size_t idBytes = ids.size() * sizeof(int64_t);
    size_t tableBytes = table.size() * sizeof(float);
    size_t outBytes = (size_t)tiling.numTokens * DIM * sizeof(float);

    ACL_CHECK(aclInit(nullptr));
    ACL_CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    ACL_CHECK(aclrtCreateStream(&stream));

    void *idDev, *tableDev, *outDev, *tilingDev;
    ACL_CHECK(aclrtMalloc(&idDev, idBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CHECK(aclrtMalloc(&tableDev, tableBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CHECK(aclrtMalloc(&outDev, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CHECK(aclrtMalloc(&tilingDev, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CHECK(aclrtMemcpy(idDev, idBytes, ids.data(), idBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CHECK(aclrtMemcpy(tableDev, tableBytes, table.data(), tableBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CHECK(aclrtMemcpy(tilingDev, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    token_row_gather<<<blockDim, nullptr, stream>>>((uint8_t *)idDev, (uint8_t *)tableDev, (uint8_t *)outDev,
                                                     (uint8_t *)tilingDev);
    ACL_CHECK(aclrtSynchronizeStream(stream));

    std::vector<float> out((size_t)tiling.numTokens * DIM);
    ACL_CHECK(aclrtMemcpy(out.data(), outBytes, outDev, outBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<const char *>(out.data()), outBytes);
    std::printf("gathered %u rows of %u floats on %u cores\n", tiling.numTokens, DIM, blockDim);

    aclrtFree(idDev);
    aclrtFree(tableDev);
    aclrtFree(outDev);
    aclrtFree(tilingDev);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
