#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_channel_offset_add.h"

struct ChannelOffsetAddTiling {
    uint32_t planes, channels, planeLen, planesPerTile, planesPerCore;
};

#define CK(x) do { if ((x) != ACL_SUCCESS) { printf("%s failed\n", #x); return 1; } } while (0)

int main()
{
    const uint32_t N = 8, C = 512, H = 32, W = 32;
    const uint32_t blockDim = 32;
    ChannelOffsetAddTiling t;
    t.planes = N * C;
    t.channels = C;
    t.planeLen = H * W;
    t.planesPerCore = (t.planes + blockDim - 1) / blockDim;   // 128
    t.planesPerTile = 8;                                       // 8 x 4KB = 32KB per buffer

    size_t xN = (size_t)N * C * H * W;
    std::vector<float> x(xN), bias(C), y(xN);
    std::ifstream("input/x.bin", std::ios::binary).read((char *)x.data(), xN * 4);
    std::ifstream("input/bias.bin", std::ios::binary).read((char *)bias.data(), C * 4);

    CK(aclInit(nullptr));
    CK(aclrtSetDevice(0));
    aclrtStream stream;
    CK(aclrtCreateStream(&stream));
    void *dx, *db, *dy, *dt;
    CK(aclrtMalloc(&dx, xN * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CK(aclrtMalloc(&dy, xN * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CK(aclrtMalloc(&db, C * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CK(aclrtMalloc(&dt, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    CK(aclrtMemcpy(dx, xN * 4, x.data(), xN * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CK(aclrtMemcpy(db, C * 4, bias.data(), C * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CK(aclrtMemcpy(dt, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(channel_offset_add)(blockDim, stream, dx, db, dy, dt);
    CK(aclrtSynchronizeStream(stream));
    CK(aclrtMemcpy(y.data(), xN * 4, dy, xN * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("output/output.bin", std::ios::binary).write((const char *)y.data(), xN * 4);

    aclrtFree(dx); aclrtFree(dy); aclrtFree(db); aclrtFree(dt);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
