#include <cstdio>
#include <cstdint>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_volume_filter_rect_taps.h"

struct VolumeFilterRectTapsTiling {
    uint32_t n;
    uint32_t cin;
    uint32_t cout;
    uint32_t inD, inH, inW;
    uint32_t kD, kH, kW;
    uint32_t outD, outH, outW;
    uint32_t lineStride;
};

static bool ReadAll(const char *p, void *buf, size_t n)
{
    FILE *f = fopen(p, "rb");
    if (!f) { printf("cannot read %s\n", p); return false; }
    size_t got = fread(buf, 1, n, f);
    fclose(f);
    return got == n;
}

int main()
{
    VolumeFilterRectTapsTiling t{};
    t.n = 16; t.cin = 3; t.cout = 64;
    t.inD = 64; t.inH = 64; t.inW = 64;
    t.kD = 3; t.kH = 5; t.kW = 7;
    t.outD = t.inD - t.kD + 1;   // 62
    t.outH = t.inH - t.kH + 1;   // 60
    t.outW = t.inW - t.kW + 1;   // 58
    t.lineStride = (t.outW + 7) / 8 * 8;

    size_t xCnt = (size_t)t.n * t.cin * t.inD * t.inH * t.inW;
    size_t fCnt = (size_t)t.cout * t.cin * t.kD * t.kH * t.kW;
    size_t yCnt = (size_t)t.n * t.cout * t.outD * t.outH * t.outW;
    std::vector<float> hx(xCnt), hf(fCnt), hy(yCnt);
    if (!ReadAll("./input/x.bin", hx.data(), xCnt * 4) ||
        !ReadAll("./input/filter_packed.bin", hf.data(), fCnt * 4)) {
        return 1;
    }

    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream;
    aclrtCreateStream(&stream);

    void *dx, *df, *dy, *dt;
    aclrtMalloc(&dx, xCnt * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&df, fCnt * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dy, yCnt * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dt, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, xCnt * 4, hx.data(), xCnt * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(df, fCnt * 4, hf.data(), fCnt * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dt, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE);

    const uint32_t blockDim = 48;   // units (n*outD*outH = 59520) are strided over the cores
    ACLRT_LAUNCH_KERNEL(volume_filter_rect_taps)(blockDim, stream, dx, df, dy, dt);
    aclError ret = aclrtSynchronizeStream(stream);
    if (ret != ACL_SUCCESS) {
        printf("launch failed: %d\n", ret);
        return 1;
    }
    aclrtMemcpy(hy.data(), yCnt * 4, dy, yCnt * 4, ACL_MEMCPY_DEVICE_TO_HOST);

    FILE *fo = fopen("./output/output.bin", "wb");
    fwrite(hy.data(), 4, yCnt, fo);
    fclose(fo);

    aclrtFree(dx); aclrtFree(df); aclrtFree(dy); aclrtFree(dt);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
