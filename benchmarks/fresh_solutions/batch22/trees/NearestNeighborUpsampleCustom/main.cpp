// Host side of pixel_replicate_x4: [16,128,32,32] -> [16,128,128,128]
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_pixel_replicate_x4.h"

struct PixelReplicateTiling {
    uint32_t planes, inH, inW, factor, rowsIn, tilesPerCore;
};

#define CHECK_RET(x)                                              \
    if ((x) != ACL_SUCCESS) {                                     \
        printf("[ERROR] %s failed at %s:%d\n", #x, __FILE__, __LINE__); \
        return 1;                                                 \
    }

int main()
{
    const uint32_t N = 16, C = 128, H = 32, W = 32, F = 4;
    const uint32_t cores = 40;

    PixelReplicateTiling tl;
    tl.planes = N * C;
    tl.inH = H;
    tl.inW = W;
    tl.factor = F;
    // out tile = rowsIn*F*W*F floats; 8 input rows -> 32 output rows x 128 = 16KB,
    // x2 buffers plus a 16KB offset table
    tl.rowsIn = 8;
    const uint32_t tiles = tl.planes * (H / tl.rowsIn);
    tl.tilesPerCore = (tiles + cores - 1) / cores;
    const uint32_t blockDim = (tiles + tl.tilesPerCore - 1) / tl.tilesPerCore;

    const size_t inN = (size_t)N * C * H * W;
    const size_t outN = inN * F * F;
    std::vector<float> hin(inN), hout(outN);
    std::ifstream fin("./input/x.bin", std::ios::binary);
    if (!fin.read(reinterpret_cast<char *>(hin.data()), inN * sizeof(float))) {
        printf("[ERROR] cannot read input/x.bin\n");
        return 1;
    }

    CHECK_RET(aclInit(nullptr));
    CHECK_RET(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK_RET(aclrtCreateStream(&stream));

    uint8_t *din, *dout, *dtl;
    CHECK_RET(aclrtMalloc((void **)&din, inN * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMalloc((void **)&dout, outN * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMalloc((void **)&dtl, sizeof(tl), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMemcpy(din, inN * sizeof(float), hin.data(), inN * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_RET(aclrtMemcpy(dtl, sizeof(tl), &tl, sizeof(tl), ACL_MEMCPY_HOST_TO_DEVICE));

    pixel_replicate_x4<<<blockDim, nullptr, stream>>>(din, dout, dtl);
    CHECK_RET(aclrtSynchronizeStream(stream));

    CHECK_RET(aclrtMemcpy(hout.data(), outN * sizeof(float), dout, outN * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(hout.data()), outN * sizeof(float));

    aclrtFree(din);
    aclrtFree(dout);
    aclrtFree(dtl);
    CHECK_RET(aclrtDestroyStream(stream));
    CHECK_RET(aclrtResetDevice(0));
    CHECK_RET(aclFinalize());
    return 0;
}
