// outer_max_grid host: a[16,1,1024], b[1,256,1] -> out[16,256,1024]
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_outer_max_grid.h"

struct OuterMaxGridTiling {
    uint32_t p;
    uint32_t q;
    uint32_t rowLen;
    uint32_t rowsPerCore;
    uint32_t rowsRemainder;
};

#define RET_IF(cond, msg)          \
    if (cond) {                    \
        fprintf(stderr, "%s\n", msg); \
        return 1;                  \
    }

int main()
{
    constexpr uint32_t P = 16, Q = 256, L = 1024;
    constexpr uint32_t kCores = 40;

    OuterMaxGridTiling tiling{P, Q, L, (P * Q) / kCores, (P * Q) % kCores};

    std::vector<float> a(P * L), b(Q), out((size_t)P * Q * L);
    std::ifstream("./input/a.bin", std::ios::binary).read(reinterpret_cast<char *>(a.data()), a.size() * 4);
    std::ifstream("./input/b.bin", std::ios::binary).read(reinterpret_cast<char *>(b.data()), b.size() * 4);

    RET_IF(aclInit(nullptr) != ACL_SUCCESS, "aclInit");
    RET_IF(aclrtSetDevice(0) != ACL_SUCCESS, "set device");
    aclrtStream stream = nullptr;
    RET_IF(aclrtCreateStream(&stream) != ACL_SUCCESS, "create stream");

    void *dA = nullptr, *dB = nullptr, *dOut = nullptr, *dTiling = nullptr;
    RET_IF(aclrtMalloc(&dA, a.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS, "malloc a");
    RET_IF(aclrtMalloc(&dB, b.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS, "malloc b");
    RET_IF(aclrtMalloc(&dOut, out.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS, "malloc out");
    RET_IF(aclrtMalloc(&dTiling, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS, "malloc tiling");

    aclrtMemcpy(dA, a.size() * 4, a.data(), a.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dB, b.size() * 4, b.data(), b.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dTiling, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE);

    ACLRT_LAUNCH_KERNEL(outer_max_grid)(kCores, stream, dA, dB, dOut, dTiling);
    RET_IF(aclrtSynchronizeStream(stream) != ACL_SUCCESS, "kernel run");

    aclrtMemcpy(out.data(), out.size() * 4, dOut, out.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST);
    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(out.data()), out.size() * 4);

    aclrtFree(dA);
    aclrtFree(dB);
    aclrtFree(dOut);
    aclrtFree(dTiling);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    printf("outer_max_grid finished\n");
    return 0;
}
