/*
 * main.cpp - host program for conv_offset_mish
 * x: (8, 8, 256, 256)  w: (64, 8, 3, 3)  b: (64)  ->  y: (8, 64, 254, 254)
 */
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_conv_offset_mish.h"

#define RET_IF_FAIL(x)                                                      \
    do {                                                                    \
        auto __r = (x);                                                     \
        if (__r != ACL_SUCCESS) {                                           \
            printf("%s failed with %d (line %d)\n", #x, (int)__r, __LINE__); \
            return 1;                                                       \
        }                                                                   \
    } while (0)

struct ConvOffsetMishTiling {
    uint32_t batch;
    uint32_t inC;
    uint32_t inH;
    uint32_t inW;
    uint32_t outC;
    uint32_t kH;
    uint32_t kW;
    uint32_t outH;
    uint32_t outW;
    uint32_t outWAlign;
    uint32_t rowsPerCore;
    uint32_t totalRows;
    float offset;
};

static void ReadInto(const char *f, std::vector<float> &v)
{
    std::ifstream in(f, std::ios::binary);
    in.read(reinterpret_cast<char *>(v.data()), v.size() * sizeof(float));
}

int main()
{
    const uint32_t N = 8, C = 8, H = 256, W = 256, OC = 64, K = 3;
    const float sub1 = 0.5f, sub2 = 0.2f;
    const uint32_t coreNum = 48;

    ConvOffsetMishTiling t{};
    t.batch = N; t.inC = C; t.inH = H; t.inW = W;
    t.outC = OC; t.kH = K; t.kW = K;
    t.outH = H - K + 1;
    t.outW = W - K + 1;
    t.outWAlign = (t.outW + 7) / 8 * 8;
    t.totalRows = N * t.outH;
    t.rowsPerCore = (t.totalRows + coreNum - 1) / coreNum;
    t.offset = sub1 + sub2;

    std::vector<float> x((size_t)N * C * H * W), w((size_t)OC * C * K * K), b(OC);
    std::vector<float> y((size_t)N * OC * t.outH * t.outW);
    ReadInto("./input/x.bin", x);
    ReadInto("./input/w.bin", w);
    ReadInto("./input/b.bin", b);

    RET_IF_FAIL(aclInit(nullptr));
    RET_IF_FAIL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    RET_IF_FAIL(aclrtCreateStream(&stream));

    void *dx, *dw, *db, *dy, *dt;
    RET_IF_FAIL(aclrtMalloc(&dx, x.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMalloc(&dw, w.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMalloc(&db, b.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMalloc(&dy, y.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMalloc(&dt, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMemcpy(dx, x.size() * 4, x.data(), x.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_FAIL(aclrtMemcpy(dw, w.size() * 4, w.data(), w.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_FAIL(aclrtMemcpy(db, b.size() * 4, b.data(), b.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_FAIL(aclrtMemcpy(dt, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    conv_offset_mish<<<coreNum, nullptr, stream>>>((uint8_t *)dx, (uint8_t *)dw, (uint8_t *)db,
                                                   (uint8_t *)dy, (uint8_t *)dt);
    RET_IF_FAIL(aclrtSynchronizeStream(stream));

    RET_IF_FAIL(aclrtMemcpy(y.data(), y.size() * 4, dy, y.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream out("./output/y.bin", std::ios::binary);
    out.write(reinterpret_cast<const char *>(y.data()), y.size() * sizeof(float));

    aclrtFree(dx); aclrtFree(dw); aclrtFree(db); aclrtFree(dy); aclrtFree(dt);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
