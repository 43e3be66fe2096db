// Host side of table_row_fetch: looks up 512x128 ids in a 100000x768 table.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "acl/acl.h"
#include "aclrtlaunch_table_row_fetch.h"

struct TableRowFetchTiling {
    uint32_t numTokens;
    uint32_t vocab;
    uint32_t dim;
    uint32_t tokensPerCore;
    uint32_t groupRows;
};

#define ACL_OK(x)                                                          \
    do {                                                                   \
        auto __r = (x);                                                    \
        if (__r != ACL_SUCCESS) {                                          \
            printf("[ERROR] %s returned %d (line %d)\n", #x, (int)__r, __LINE__); \
            return -1;                                                     \
        }                                                                  \
    } while (0)

static size_t LoadFile(const std::string &name, void *dst, size_t bytes)
{
    std::ifstream in(name, std::ios::binary);
    if (!in.is_open()) {
        printf("[ERROR] missing %s\n", name.c_str());
        return 0;
    }
    in.read(reinterpret_cast<char *>(dst), bytes);
    return in.gcount();
}

static void SaveFile(const std::string &name, const void *src, size_t bytes)
{
    std::ofstream o(name, std::ios::binary);
    o.write(reinterpret_cast<const char *>(src), bytes);
}

int main()
{
    constexpr uint32_t kBatch = 512, kSeq = 128;
    constexpr uint32_t kVocab = 100000, kDim = 768;
    constexpr uint32_t kCores = 48;

    TableRowFetchTiling tl;
    tl.numTokens = kBatch * kSeq;
    tl.vocab = kVocab;
    tl.dim = kDim;
    // round per-core share up to a multiple of 8 so every group's output offset stays aligned
    tl.tokensPerCore = ((tl.numTokens + kCores - 1) / kCores + 7) / 8 * 8;
    // 2 staging buffers of groupRows*dim floats: 2 * 16 * 768 * 4 = 96KB
    tl.groupRows = 16;
    uint32_t usedCores = (tl.numTokens + tl.tokensPerCore - 1) / tl.tokensPerCore;

    size_t idBytes = (size_t)tl.numTokens * sizeof(int32_t);
    size_t tblBytes = (size_t)kVocab * kDim * sizeof(float);
    size_t outBytes = (size_t)tl.numTokens * kDim * sizeof(float);

    ACL_OK(aclInit(nullptr));
    ACL_OK(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_OK(aclrtCreateStream(&stream));

    void *hIds, *hTbl, *hOut;
    ACL_OK(aclrtMallocHost(&hIds, idBytes));
    ACL_OK(aclrtMallocHost(&hTbl, tblBytes));
    ACL_OK(aclrtMallocHost(&hOut, outBytes));
    if (LoadFile("./input/ids.bin", hIds, idBytes) != idBytes ||
        LoadFile("./input/table.bin", hTbl, tblBytes) != tblBytes) {
        return -1;
    }

    void *dIds, *dTbl, *dOut, *dTiling;
    ACL_OK(aclrtMalloc(&dIds, idBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&dTbl, tblBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&dOut, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&dTiling, sizeof(tl), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemcpy(dIds, idBytes, hIds, idBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(dTbl, tblBytes, hTbl, tblBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(dTiling, sizeof(tl), &tl, sizeof(tl), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(table_row_fetch)(usedCores, stream, dIds, dTbl, dOut, dTiling);
    ACL_OK(aclrtSynchronizeStream(stream));

    ACL_OK(aclrtMemcpy(hOut, outBytes, dOut, outBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    SaveFile("./output/output.bin", hOut, outBytes);

    aclrtFree(dIds);
    aclrtFree(dTbl);
    aclrtFree(dOut);
    aclrtFree(dTiling);
    aclrtFreeHost(hIds);
    aclrtFreeHost(hTbl);
    aclrtFreeHost(hOut);
    ACL_OK(aclrtDestroyStream(stream));
    ACL_OK(aclrtResetDevice(0));
    ACL_OK(aclFinalize());
    return 0;
}
