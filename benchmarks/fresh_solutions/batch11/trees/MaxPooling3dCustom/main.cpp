// Host program for volume_peak_pool: (16, 32, 128, 128, 128) -> (16, 32, 64, 64, 64)
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_volume_peak_pool.h"

struct VolumePeakPoolTiling {
    uint32_t planes, inD, inH, inW, outD, outH, outW, rowsPerUnit, unitsPerSlice, totalUnits;
};

#define ACL_OK(x)                                                             \
    if ((x) != ACL_SUCCESS) {                                                 \
        fprintf(stderr, "ACL call failed at line %d: %s\n", __LINE__, #x);    \
        return -1;                                                            \
    }

int main()
{
    const uint32_t N = 16, C = 32, D = 128, H = 128, W = 128;
    const uint32_t K = 3, S = 2, P = 1;
    const uint32_t OD = (D + 2 * P - K) / S + 1;
    const uint32_t OH = (H + 2 * P - K) / S + 1;
    const uint32_t OW = (W + 2 * P - K) / S + 1;
    const uint32_t blockDim = 48;

    VolumePeakPoolTiling tiling{};
    tiling.planes = N * C;
    tiling.inD = D;
    tiling.inH = H;
    tiling.inW = W;
    tiling.outD = OD;
    tiling.outH = OH;
    tiling.outW = OW;
    // 16 output rows -> 33 staged rows of 128 floats (16.5 KB) per buffer
    tiling.rowsPerUnit = 16;
    tiling.unitsPerSlice = (OH + tiling.rowsPerUnit - 1) / tiling.rowsPerUnit;
    tiling.totalUnits = tiling.planes * OD * tiling.unitsPerSlice;

    const size_t inBytes = (size_t)N * C * D * H * W * sizeof(float);
    const size_t outBytes = (size_t)N * C * OD * OH * OW * sizeof(float);

    ACL_OK(aclInit(nullptr));
    ACL_OK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    ACL_OK(aclrtCreateStream(&stream));

    void *hostIn = nullptr;
    void *hostOut = nullptr;
    ACL_OK(aclrtMallocHost(&hostIn, inBytes));
    ACL_OK(aclrtMallocHost(&hostOut, outBytes));
    {
        std::ifstream f("./input/input_x.bin", std::ios::binary);
        if (!f) {
            fprintf(stderr, "input/input_x.bin not found, run scripts/gen_data.py\n");
            return -1;
        }
        f.read(static_cast<char *>(hostIn), inBytes);
    }

    void *devIn = nullptr;
    void *devOut = nullptr;
    void *devTiling = nullptr;
    ACL_OK(aclrtMalloc(&devIn, inBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&devOut, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&devTiling, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemcpy(devIn, inBytes, hostIn, inBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(devTiling, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(volume_peak_pool)(blockDim, stream, devIn, devOut, devTiling);
    ACL_OK(aclrtSynchronizeStream(stream));

    ACL_OK(aclrtMemcpy(hostOut, outBytes, devOut, outBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    {
        std::ofstream f("./output/output_y.bin", std::ios::binary);
        f.write(static_cast<const char *>(hostOut), outBytes);
    }
    printf("pooled %u units on %u cores\n", tiling.totalUnits, blockDim);

    aclrtFree(devIn);
    aclrtFree(devOut);
    aclrtFree(devTiling);
    aclrtFreeHost(hostIn);
    aclrtFreeHost(hostOut);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
