// grouped_volume_upsample host program
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_grouped_volume_upsample.h"

struct GroupedVolumeUpsampleTiling {
    uint32_t batch;
    uint32_t inCh;
    uint32_t outCh;
    uint32_t groups;
    uint32_t inD, inH, inW;
    uint32_t k;
    uint32_t stride;
    uint32_t pad;
    uint32_t outD, outH, outW;
    uint32_t outWAlign;
};

#define RET_IF_FAIL(call)                                              \
    do {                                                               \
        auto rc_ = (call);                                             \
        if (rc_ != ACL_SUCCESS) {                                      \
            printf("[ERROR] %s returned %d\n", #call, (int)rc_);       \
            return -1;                                                 \
        }                                                              \
    } while (0)

template <typename T>
static bool Load(const char *file, std::vector<T> &v)
{
    std::ifstream is(file, std::ios::binary);
    is.read(reinterpret_cast<char *>(v.data()), v.size() * sizeof(T));
    return is.good();
}

int main()
{
    GroupedVolumeUpsampleTiling tl{};
    tl.batch = 4; tl.inCh = 32; tl.outCh = 32; tl.groups = 4;
    tl.inD = 32; tl.inH = 64; tl.inW = 128;
    tl.k = 3; tl.stride = 2; tl.pad = 1;
    tl.outD = (tl.inD - 1) * tl.stride - 2 * tl.pad + tl.k;   // 63
    tl.outH = (tl.inH - 1) * tl.stride - 2 * tl.pad + tl.k;   // 127
    tl.outW = (tl.inW - 1) * tl.stride - 2 * tl.pad + tl.k;   // 255
    tl.outWAlign = (tl.outW + 7) / 8 * 8;

    const size_t xN = (size_t)tl.batch * tl.inCh * tl.inD * tl.inH * tl.inW;
    const size_t wN = (size_t)tl.inCh * (tl.outCh / tl.groups) * tl.k * tl.k * tl.k;
    const size_t wPadN = (wN + 7) / 8 * 8;
    const size_t yN = (size_t)tl.batch * tl.outCh * tl.outD * tl.outH * tl.outW;

    std::vector<float> x(xN), w(wPadN, 0.0f), y(yN);
    w.resize(wN);
    if (!Load("./input/x.bin", x) || !Load("./input/weight.bin", w)) {
        printf("input files missing, run scripts/gen_data.py first\n");
        return -1;
    }
    w.resize(wPadN, 0.0f);

    RET_IF_FAIL(aclInit(nullptr));
    RET_IF_FAIL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    RET_IF_FAIL(aclrtCreateStream(&stream));

    void *dx = nullptr, *dw = nullptr, *dy = nullptr, *dt = nullptr;
    RET_IF_FAIL(aclrtMalloc(&dx, xN * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMalloc(&dw, wPadN * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMalloc(&dy, yN * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMalloc(&dt, sizeof(tl), ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMemcpy(dx, xN * 4, x.data(), xN * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_FAIL(aclrtMemcpy(dw, wPadN * 4, w.data(), wPadN * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_FAIL(aclrtMemcpy(dt, sizeof(tl), &tl, sizeof(tl), ACL_MEMCPY_HOST_TO_DEVICE));

    uint32_t blockDim = 40;
    ACLRT_LAUNCH_KERNEL(grouped_volume_upsample)(blockDim, stream, dx, dw, dy, dt);
    RET_IF_FAIL(aclrtSynchronizeStream(stream));

    RET_IF_FAIL(aclrtMemcpy(y.data(), yN * 4, dy, yN * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream os("./output/output.bin", std::ios::binary);
    os.write(reinterpret_cast<const char *>(y.data()), yN * sizeof(float));

    aclrtFree(dx);
    aclrtFree(dw);
    aclrtFree(dy);
    aclrtFree(dt);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    printf("output [%u, %u, %u, %u, %u] written\n", tl.batch, tl.outCh, tl.outD, tl.outH, tl.outW);
    return 0;
}
