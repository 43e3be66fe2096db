// main.cpp for erf_gated_unit: x (2048, 16384) fp32 -> y, same shape.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_erf_gated_unit.h"

struct ErfGatedUnitTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowsPerCore;
    uint32_t tileCols;
};

#define ACL_TRY(x)                                                  \
    do {                                                            \
        if ((x) != ACL_SUCCESS) {                                   \
            fprintf(stderr, "acl call failed: %s\n", #x);           \
            return 2;                                               \
        }                                                           \
    } while (0)

int main(int argc, char **argv)
{
    const uint32_t rows = 2048;
    const uint32_t cols = 16384;
    const uint32_t blockDim = 40;
    const size_t bytes = (size_t)rows * cols * sizeof(float);

    ErfGatedUnitTiling tiling{rows, cols, (rows + blockDim - 1) / blockDim, 4096};

    std::vector<float> xs((size_t)rows * cols), ys((size_t)rows * cols);
    std::ifstream fin("./input/x.bin", std::ios::binary);
    if (!fin) {
        fprintf(stderr, "missing ./input/x.bin\n");
        return 1;
    }
    fin.read(reinterpret_cast<char *>(xs.data()), bytes);

    ACL_TRY(aclInit(nullptr));
    ACL_TRY(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_TRY(aclrtCreateStream(&stream));

    void *xd = nullptr, *yd = nullptr, *td = nullptr;
    ACL_TRY(aclrtMalloc(&xd, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_TRY(aclrtMalloc(&yd, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_TRY(aclrtMalloc(&td, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_TRY(aclrtMemcpy(xd, bytes, xs.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_TRY(aclrtMemcpy(td, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    erf_gated_unit<<<blockDim, nullptr, stream>>>((uint8_t *)xd, (uint8_t *)yd, (uint8_t *)td);
    ACL_TRY(aclrtSynchronizeStream(stream));

    ACL_TRY(aclrtMemcpy(ys.data(), bytes, yd, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/y.bin", std::ios::binary).write(reinterpret_cast<const char *>(ys.data()), bytes);

    aclrtFree(xd);
    aclrtFree(yd);
    aclrtFree(td);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
