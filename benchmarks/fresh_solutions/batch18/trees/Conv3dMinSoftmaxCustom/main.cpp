// Host program for vol_filter_dmin_softmax.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_vol_filter_dmin_softmax.h"

struct VolFilterDminSoftmaxTiling {
    uint32_t batch, inC, inD, inH, inW, outC, outD, outH, outW, wPad, ksize;
};

#define CHECK_RET(expr)                                                \
    do {                                                               \
        auto _ret = (expr);                                            \
        if (_ret != ACL_SUCCESS) {                                     \
            printf("[ERROR] %s returned %d\n", #expr, (int)_ret);     \
            return -1;                                                 \
        }                                                              \
    } while (0)

template <typename T>
static bool LoadFile(const std::string &path, std::vector<T> &buf)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    f.read(reinterpret_cast<char *>(buf.data()), buf.size() * sizeof(T));
    return true;
}

int main()
{
    VolFilterDminSoftmaxTiling t{};
    t.batch = 128; t.inC = 3; t.inD = 24; t.inH = 32; t.inW = 32;
    t.outC = 24; t.ksize = 3;
    t.outD = t.inD - t.ksize + 1;
    t.outH = t.inH - t.ksize + 1;
    t.outW = t.inW - t.ksize + 1;
    t.wPad = (t.outW + 7) / 8 * 8;
    const uint32_t maxCores = 40;
    uint32_t units = t.batch * t.outH;
    uint32_t blockDim = units < maxCores ? units : maxCores;

    size_t xCount = (size_t)t.batch * t.inC * t.inD * t.inH * t.inW;
    size_t wCount = (size_t)t.outC * t.inC * t.ksize * t.ksize * t.ksize;
    size_t yCount = (size_t)t.batch * t.outC * t.outH * t.outW;
    std::vector<float> hx(xCount), hw(wCount), hb(t.outC), hy(yCount);
    if (!LoadFile("input/x.bin", hx) || !LoadFile("input/weight.bin", hw) || !LoadFile("input/bias.bin", hb)) {
        printf("[ERROR] missing inputs, run scripts/gen_data.py\n");
        return -1;
    }

    CHECK_RET(aclInit(nullptr));
    CHECK_RET(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_RET(aclrtCreateStream(&stream));

    void *dx, *dw, *db, *dy, *dt;
    CHECK_RET(aclrtMalloc(&dx, xCount * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMalloc(&dw, wCount * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMalloc(&db, t.outC * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMalloc(&dy, yCount * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMalloc(&dt, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMemcpy(dx, xCount * 4, hx.data(), xCount * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_RET(aclrtMemcpy(dw, wCount * 4, hw.data(), wCount * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_RET(aclrtMemcpy(db, t.outC * 4, hb.data(), t.outC * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_RET(aclrtMemcpy(dt, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(vol_filter_dmin_softmax)(blockDim, stream, dx, dw, db, dy, dt);
    CHECK_RET(aclrtSynchronizeStream(stream));

    CHECK_RET(aclrtMemcpy(hy.data(), yCount * 4, dy, yCount * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(hy.data()), yCount * 4);

    aclrtFree(dx); aclrtFree(dw); aclrtFree(db); aclrtFree(dy); aclrtFree(dt);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    printf("done, output (%u, %u, %u, %u)\n", t.batch, t.outC, t.outH, t.outW);
    return 0;
}
