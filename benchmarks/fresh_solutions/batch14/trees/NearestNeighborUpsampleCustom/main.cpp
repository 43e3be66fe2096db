// main.cpp -- host launcher for pixel_replicate_x4 (nearest upscale by 4 of an NCHW tensor)
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_pixel_replicate_x4.h"

#define ACL_CALL(x)                                                    \
    do {                                                               \
        aclError err_ = (x);                                           \
        if (err_ != ACL_SUCCESS) {                                     \
            std::printf("[ERROR] %s returned %d\n", #x, (int)err_);    \
            return 1;                                                  \
        }                                                              \
    } while (0)

struct PixelReplicateX4Tiling {
    uint32_t srcRows, srcW, factor, rowsPerCore, rowsPerLoop;
};

int main()
{
    const uint32_t N = 16, C = 128, H = 32, W = 32, S = 4;
    const uint32_t kCores = 48;

    PixelReplicateX4Tiling tiling{};
    tiling.srcRows = N * C * H;
    tiling.srcW = W;
    tiling.factor = S;
    tiling.rowsPerCore = (tiling.srcRows + kCores - 1) / kCores;
    // 32 rows -> 4 KB in, 16 KB out, 16 KB index table per buffer
    tiling.rowsPerLoop = 32;
    uint32_t blockDim = (tiling.srcRows + tiling.rowsPerCore - 1) / tiling.rowsPerCore;

    size_t inCount = static_cast<size_t>(N) * C * H * W;
    size_t outCount = inCount * S * S;
    std::vector<float> hostIn(inCount), hostOut(outCount);
    std::ifstream fin("./input/x.bin", std::ios::binary);
    if (!fin.read(reinterpret_cast<char *>(hostIn.data()), inCount * sizeof(float))) {
        std::printf("input/x.bin missing, run scripts/gen_data.py\n");
        return 1;
    }

    ACL_CALL(aclInit(nullptr));
    ACL_CALL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    ACL_CALL(aclrtCreateStream(&stream));

    void *devIn = nullptr, *devOut = nullptr, *devTiling = nullptr;
    ACL_CALL(aclrtMalloc(&devIn, inCount * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&devOut, outCount * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&devTiling, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMemcpy(devIn, inCount * sizeof(float), hostIn.data(), inCount * sizeof(float),
                         ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CALL(aclrtMemcpy(devTiling, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    pixel_replicate_x4<<<blockDim, nullptr, stream>>>((uint8_t *)devIn, (uint8_t *)devOut, (uint8_t *)devTiling);
    ACL_CALL(aclrtSynchronizeStream(stream));

    ACL_CALL(aclrtMemcpy(hostOut.data(), outCount * sizeof(float), devOut, outCount * sizeof(float),
                         ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(hostOut.data()), outCount * sizeof(float));
    std::printf("upscaled %ux%u -> %ux%u on %u cores\n", H, W, H * S, W * S, blockDim);

    aclrtFree(devIn);
    aclrtFree(devOut);
    aclrtFree(devTiling);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
