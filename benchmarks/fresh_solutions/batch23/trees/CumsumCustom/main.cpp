#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "acl/acl.h"
#include "aclrtlaunch_row_prefix_total.h"

#define CHECK(call)                                                              \
    do {                                                                         \
        aclError rc_ = (call);                                                   \
        if (rc_ != ACL_SUCCESS) {                                                \
            std::fprintf(stderr, "%s:%d: %s -> %d\n", __FILE__, __LINE__, #call, rc_); \
            return -1;                                                           \
        }                                                                        \
    } while (0)

struct RowPrefixTotalTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowsPerCore;
    uint32_t chunk;
    uint32_t chunksPerRow;
    uint32_t lastChunk;
};

static size_t ReadFile(const std::string &name, void *buf, size_t cap)
{
    std::ifstream in(name, std::ios::binary);
    if (!in.is_open()) {
        std::fprintf(stderr, "open %s failed\n", name.c_str());
        return 0;
    }
    in.read(reinterpret_cast<char *>(buf), cap);
    return static_cast<size_t>(in.gcount());
}

static void WriteFile(const std::string &name, const void *buf, size_t len)
{
    std::ofstream out(name, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(buf), len);
}

int main()
{
    const uint32_t rows = 512;
    const uint32_t cols = 32768;
    const uint32_t blockDim = 40;
    const uint32_t chunk = 8192;  // 32 KB per buffer, 4 buffers in flight

    RowPrefixTotalTiling tiling{};
    tiling.rows = rows;
    tiling.cols = cols;
    tiling.rowsPerCore = (rows + blockDim - 1) / blockDim;
    tiling.chunk = chunk;
    tiling.chunksPerRow = (cols + chunk - 1) / chunk;
    tiling.lastChunk = cols - (tiling.chunksPerRow - 1) * chunk;

    const size_t bytes = static_cast<size_t>(rows) * cols * sizeof(float);

    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK(aclrtCreateStream(&stream));

    void *host = nullptr;
    CHECK(aclrtMallocHost(&host, bytes));
    if (ReadFile("./input/input_x.bin", host, bytes) != bytes) {
        return -1;
    }

    void *dIn = nullptr, *dOut = nullptr, *dTiling = nullptr;
    CHECK(aclrtMalloc(&dIn, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dOut, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dTiling, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dIn, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dTiling, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(row_prefix_total)(blockDim, stream, dIn, dOut, dTiling);
    CHECK(aclrtSynchronizeStream(stream));

    CHECK(aclrtMemcpy(host, bytes, dOut, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_y.bin", host, bytes);

    aclrtFree(dIn);
    aclrtFree(dOut);
    aclrtFree(dTiling);
    aclrtFreeHost(host);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::printf("row_prefix_total done\n");
    return 0;
}
