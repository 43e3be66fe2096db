#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"

struct ChannelOffsetAddTiling {
    uint32_t batch;
    uint32_t channels;
    uint32_t planeSize;
    uint32_t tileLen;
    uint32_t planesPerCore;
    uint32_t extraPlanes;
};

extern void channel_offset_add_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *offset, uint8_t *out,
                                  uint8_t *tiling);

static int Fail(const char *what, int rc)
{
    fprintf(stderr, "%s failed: %d\n", what, rc);
    return 1;
}

int main()
{
    const uint32_t B = 8, C = 512, H = 32, W = 32;
    const uint32_t blockDim = 48;

    ChannelOffsetAddTiling t;
    t.batch = B;
    t.channels = C;
    t.planeSize = H * W;
    t.tileLen = 1024;  // one 32x32 plane per tile
    uint32_t planes = B * C;
    t.planesPerCore = planes / blockDim;
    t.extraPlanes = planes % blockDim;

    const size_t xCount = (size_t)B * C * H * W;
    std::vector<float> x(xCount), bias(C), out(xCount);
    {
        std::ifstream fx("./input/x.bin", std::ios::binary), fb("./input/bias.bin", std::ios::binary);
        if (!fx.read(reinterpret_cast<char *>(x.data()), xCount * sizeof(float)) ||
            !fb.read(reinterpret_cast<char *>(bias.data()), C * sizeof(float))) {
            fprintf(stderr, "input files missing\n");
            return 1;
        }
    }

    int rc;
    if ((rc = aclInit(nullptr)) != ACL_SUCCESS) return Fail("aclInit", rc);
    if ((rc = aclrtSetDevice(0)) != ACL_SUCCESS) return Fail("aclrtSetDevice", rc);
    aclrtStream stream;
    if ((rc = aclrtCreateStream(&stream)) != ACL_SUCCESS) return Fail("aclrtCreateStream", rc);

    uint8_t *dX, *dB, *dOut, *dT;
    aclrtMalloc(reinterpret_cast<void **>(&dX), xCount * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(reinterpret_cast<void **>(&dB), C * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(reinterpret_cast<void **>(&dOut), xCount * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(reinterpret_cast<void **>(&dT), sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dX, xCount * sizeof(float), x.data(), xCount * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dB, C * sizeof(float), bias.data(), C * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dT, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE);

    channel_offset_add_do(blockDim, stream, dX, dB, dOut, dT);
    if ((rc = aclrtSynchronizeStream(stream)) != ACL_SUCCESS) return Fail("kernel", rc);

    aclrtMemcpy(out.data(), xCount * sizeof(float), dOut, xCount * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
    std::ofstream("./output/output.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(out.data()), xCount * sizeof(float));

    aclrtFree(dX);
    aclrtFree(dB);
    aclrtFree(dOut);
    aclrtFree(dT);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
