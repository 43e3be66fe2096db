/* Host launcher for conv3x3_gated_ramp: x[16,8,128,128] (*) W[64,8,3,3] + b -> y[16,64,126,126] */
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_conv3x3_gated_ramp.h"

struct Conv3x3GatedRampTiling {
    uint32_t batch, cin, height, width;
    uint32_t cout, outH, outW, outWAlign;
    uint32_t rowsPerCore;
};

#define CHECK(expr)                                                   \
    do {                                                              \
        if ((expr) != ACL_SUCCESS) {                                  \
            printf("fail: %s (%s:%d)\n", #expr, __FILE__, __LINE__);  \
            return 1;                                                 \
        }                                                             \
    } while (0)

template <typename T>
static bool ReadInto(const std::string &f, std::vector<T> &v)
{
    std::ifstream in(f, std::ios::binary);
    if (!in) {
        printf("cannot read %s\n", f.c_str());
        return false;
    }
    in.read(reinterpret_cast<char *>(v.data()), v.size() * sizeof(T));
    return true;
}

int main()
{
    Conv3x3GatedRampTiling tl{};
    tl.batch = 16;
    tl.cin = 8;
    tl.height = 128;
    tl.width = 128;
    tl.cout = 64;
    tl.outH = tl.height - 2;
    tl.outW = tl.width - 2;
    tl.outWAlign = (tl.outW + 7) / 8 * 8;
    const uint32_t aivCores = 40;
    const uint32_t rows = tl.batch * tl.outH;
    tl.rowsPerCore = (rows + aivCores - 1) / aivCores;
    const uint32_t blockDim = (rows + tl.rowsPerCore - 1) / tl.rowsPerCore;

    std::vector<float> x((size_t)tl.batch * tl.cin * tl.height * tl.width);
    std::vector<float> w((size_t)tl.cout * tl.cin * 9);
    std::vector<float> b(tl.cout);
    std::vector<float> y((size_t)tl.batch * tl.cout * tl.outH * tl.outW);
    if (!ReadInto("./input/x.bin", x) || !ReadInto("./input/weight.bin", w) || !ReadInto("./input/bias.bin", b)) {
        return 1;
    }

    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    void *dx, *dw, *db, *dy, *dt;
    const size_t xB = x.size() * 4, wB = w.size() * 4, bB = b.size() * 4, yB = y.size() * 4;
    CHECK(aclrtMalloc(&dx, xB, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dw, wB, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&db, bB, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dy, yB, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dt, sizeof(tl), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dx, xB, x.data(), xB, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dw, wB, w.data(), wB, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(db, bB, b.data(), bB, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dt, sizeof(tl), &tl, sizeof(tl), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(conv3x3_gated_ramp)(blockDim, stream, dx, dw, db, dy, dt);
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(y.data(), yB, dy, yB, ACL_MEMCPY_DEVICE_TO_HOST));

    std::ofstream out("./output/output.bin", std::ios::binary);
    out.write(reinterpret_cast<const char *>(y.data()), yB);

    aclrtFree(dx);
    aclrtFree(dw);
    aclrtFree(db);
    aclrtFree(dy);
    aclrtFree(dt);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
