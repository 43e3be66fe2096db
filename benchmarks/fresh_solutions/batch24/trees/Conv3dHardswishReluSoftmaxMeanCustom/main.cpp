// Host side of voxel_filter_hswish_gnorm_pool: loads inputs, fills the tiling,
// launches the kernel on all vector cores and dumps the (N, C) result.
#include <cstdio>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_voxel_filter_hswish_gnorm_pool.h"

#define ACL_OK(x)                                                                 \
    do {                                                                          \
        aclError r_ = (x);                                                        \
        if (r_ != ACL_SUCCESS) {                                                  \
            printf("[ERROR] %s failed (%d) at line %d\n", #x, (int)r_, __LINE__); \
            return 1;                                                             \
        }                                                                         \
    } while (0)

struct VoxelFilterHswishGnormPoolTiling {
    uint32_t batch, cin, depth, height, width, cout, ksize;
    uint32_t outD, outH, outW, rowPitch, groups, samplesPerCore;
    float eps;
};

static std::vector<char> Load(const std::string &path, size_t size)
{
    std::vector<char> buf(size);
    std::ifstream f(path, std::ios::binary);
    f.read(buf.data(), size);
    if ((size_t)f.gcount() != size) printf("[WARN] short read on %s\n", path.c_str());
    return buf;
}

int main()
{
    VoxelFilterHswishGnormPoolTiling t{};
    t.batch = 1024; t.cin = 3; t.depth = 16; t.height = 32; t.width = 32;
    t.cout = 16; t.ksize = 4; t.groups = 4; t.eps = 1e-5f;
    t.outD = t.depth - t.ksize + 1;
    t.outH = t.height - t.ksize + 1;
    t.outW = t.width - t.ksize + 1;
    t.rowPitch = (t.outW + 7) / 8 * 8;
    const uint32_t blockDim = 48;
    t.samplesPerCore = (t.batch + blockDim - 1) / blockDim;

    const size_t xBytes = (size_t)t.batch * t.cin * t.depth * t.height * t.width * sizeof(float);
    const size_t wBytes = (size_t)t.cout * t.cin * t.ksize * t.ksize * t.ksize * sizeof(float);
    const size_t cBytes = t.cout * sizeof(float);
    const size_t yBytes = (size_t)t.batch * t.cout * sizeof(float);

    ACL_OK(aclInit(nullptr));
    ACL_OK(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_OK(aclrtCreateStream(&stream));

    struct Arg { const char *file; size_t bytes; void *dev; };
    Arg args[] = {
        {"./input/x.bin", xBytes, nullptr},
        {"./input/weight.bin", wBytes, nullptr},
        {"./input/bias.bin", cBytes, nullptr},
        {"./input/gamma.bin", cBytes, nullptr},
        {"./input/beta.bin", cBytes, nullptr},
    };
    for (auto &a : args) {
        auto host = Load(a.file, a.bytes);
        ACL_OK(aclrtMalloc(&a.dev, a.bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        ACL_OK(aclrtMemcpy(a.dev, a.bytes, host.data(), a.bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    void *yDev = nullptr, *tilingDev = nullptr;
    ACL_OK(aclrtMalloc(&yDev, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&tilingDev, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemcpy(tilingDev, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(voxel_filter_hswish_gnorm_pool)(blockDim, stream,
        args[0].dev, args[1].dev, args[2].dev, args[3].dev, args[4].dev, yDev, tilingDev);
    ACL_OK(aclrtSynchronizeStream(stream));

    std::vector<float> y(t.batch * t.cout);
    ACL_OK(aclrtMemcpy(y.data(), yBytes, yDev, yBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write((const char *)y.data(), yBytes);
    printf("y[0][0..3] = %f %f %f %f\n", y[0], y[1], y[2], y[3]);

    for (auto &a : args) aclrtFree(a.dev);
    aclrtFree(yDev);
    aclrtFree(tilingDev);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
