// Host side of column_bound_clip.
#include <cstdio>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_column_bound_clip.h"

#define CHECK(call)                                                          \
    do {                                                                     \
        aclError err_ = (call);                                              \
        if (err_ != ACL_SUCCESS) {                                           \
            printf("acl error %d at line %d: %s\n", err_, __LINE__, #call);  \
            return -1;                                                       \
        }                                                                    \
    } while (0)

struct ColumnBoundClipTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowsPerCore;
    uint32_t tileRows;
};

static void ReadInto(const std::string &file, std::vector<float> &buf)
{
    std::ifstream in(file, std::ios::binary);
    in.read(reinterpret_cast<char *>(buf.data()), buf.size() * sizeof(float));
}

int main()
{
    constexpr uint32_t ROWS = 256;
    constexpr uint32_t COLS = 2048;
    constexpr uint32_t CORES = 32;

    ColumnBoundClipTiling tiling{};
    tiling.rows = ROWS;
    tiling.cols = COLS;
    tiling.rowsPerCore = (ROWS + CORES - 1) / CORES;        // 8
    // 2 queues x 2 buffers x tileRows x 8KB + 16KB bounds must fit in UB
    tiling.tileRows = tiling.rowsPerCore < 4 ? tiling.rowsPerCore : 4;

    std::vector<float> x(ROWS * COLS), lo(COLS), hi(COLS), y(ROWS * COLS);
    ReadInto("./input/input_x.bin", x);
    ReadInto("./input/input_min.bin", lo);
    ReadInto("./input/input_max.bin", hi);

    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK(aclrtCreateStream(&stream));

    size_t matBytes = x.size() * sizeof(float);
    size_t vecBytes = lo.size() * sizeof(float);
    void *dx, *dlo, *dhi, *dy, *dt;
    CHECK(aclrtMalloc(&dx, matBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dy, matBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dlo, vecBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dhi, vecBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dt, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));

    CHECK(aclrtMemcpy(dx, matBytes, x.data(), matBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dlo, vecBytes, lo.data(), vecBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dhi, vecBytes, hi.data(), vecBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dt, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    column_bound_clip<<<CORES, nullptr, stream>>>((uint8_t *)dx, (uint8_t *)dlo, (uint8_t *)dhi, (uint8_t *)dy,
                                                  (uint8_t *)dt);
    CHECK(aclrtSynchronizeStream(stream));

    CHECK(aclrtMemcpy(y.data(), matBytes, dy, matBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream out("./output/output.bin", std::ios::binary);
    out.write(reinterpret_cast<const char *>(y.data()), matBytes);

    aclrtFree(dx);
    aclrtFree(dy);
    aclrtFree(dlo);
    aclrtFree(dhi);
    aclrtFree(dt);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
