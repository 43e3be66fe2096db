// main.cpp - host program for row_unit_scale
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_row_unit_scale.h"

struct RowUnitScaleTiling {
    uint32_t rows, cols, rowsPerCore, bigCores, chunk, chunkCount, lastChunk;
};

static void Die(const char *what, aclError e)
{
    if (e != ACL_SUCCESS) {
        std::fprintf(stderr, "%s failed: %d\n", what, static_cast<int>(e));
        std::exit(1);
    }
}

int main()
{
    constexpr uint32_t ROWS = 1024;
    constexpr uint32_t COLS = 4095;
    constexpr uint32_t CORES = 48;
    constexpr uint32_t CHUNK = 8192;

    RowUnitScaleTiling t{};
    t.rows = ROWS;
    t.cols = COLS;
    uint32_t used = ROWS < CORES ? ROWS : CORES;
    t.rowsPerCore = (ROWS + used - 1) / used;
    // cores that take the ceil share; the others take one row less
    t.bigCores = ROWS - (t.rowsPerCore - 1) * used;
    t.chunk = CHUNK;
    t.chunkCount = (COLS + CHUNK - 1) / CHUNK;
    t.lastChunk = COLS - (t.chunkCount - 1) * CHUNK;

    size_t bytes = sizeof(float) * ROWS * COLS;
    std::vector<float> host(ROWS * COLS);
    {
        std::ifstream f("./input/x.bin", std::ios::binary);
        f.read(reinterpret_cast<char *>(host.data()), bytes);
    }

    Die("aclInit", aclInit(nullptr));
    Die("aclrtSetDevice", aclrtSetDevice(0));
    aclrtStream stream;
    Die("aclrtCreateStream", aclrtCreateStream(&stream));

    void *dIn = nullptr, *dOut = nullptr, *dTiling = nullptr;
    Die("malloc in", aclrtMalloc(&dIn, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    Die("malloc out", aclrtMalloc(&dOut, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    Die("malloc tiling", aclrtMalloc(&dTiling, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    Die("copy in", aclrtMemcpy(dIn, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    Die("copy tiling", aclrtMemcpy(dTiling, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(row_unit_scale)(used, stream, dIn, dOut, dTiling);
    Die("sync", aclrtSynchronizeStream(stream));

    Die("copy out", aclrtMemcpy(host.data(), bytes, dOut, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(host.data()), bytes);

    aclrtFree(dIn);
    aclrtFree(dOut);
    aclrtFree(dTiling);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::puts("done");
    return 0;
}
