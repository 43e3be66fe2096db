// Host launcher for box_filter3d_valid.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_box_filter3d_valid.h"

#define ACL_TRY(stmt)                                                            \
    do {                                                                         \
        auto code_ = (stmt);                                                     \
        if (code_ != ACL_SUCCESS) {                                              \
            std::fprintf(stderr, "%s returned %d (line %d)\n", #stmt, (int)code_, __LINE__); \
            std::exit(1);                                                        \
        }                                                                        \
    } while (0)

struct BoxFilter3dValidTiling {
    uint32_t batch, cin, cout;
    uint32_t inD, inH, inW;
    uint32_t kD, kH, kW;
    uint32_t outD, outH, outW;
    uint32_t lineStride;
    uint32_t itemsPerCore;
    uint32_t totalItems;
    uint32_t filterLen;
};

template <typename T>
static void ReadInto(const std::string &path, std::vector<T> &buf)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", path.c_str());
        std::exit(1);
    }
    in.read(reinterpret_cast<char *>(buf.data()), buf.size() * sizeof(T));
}

int main()
{
    BoxFilter3dValidTiling t{};
    t.batch = 2;  t.cin = 3;   t.cout = 64;
    t.inD = 16;   t.inH = 128; t.inW = 128;
    t.kD = 3;     t.kH = 5;    t.kW = 7;
    t.outD = t.inD - t.kD + 1;
    t.outH = t.inH - t.kH + 1;
    t.outW = t.inW - t.kW + 1;
    t.lineStride = (t.outW + 7) / 8 * 8;
    t.filterLen = t.cout * t.cin * t.kD * t.kH * t.kW;
    t.totalItems = t.batch * t.outD * t.outH;
    const uint32_t blockDim = 48;
    t.itemsPerCore = (t.totalItems + blockDim - 1) / blockDim;

    std::vector<float> x(size_t(t.batch) * t.cin * t.inD * t.inH * t.inW);
    std::vector<float> w(t.filterLen);
    std::vector<float> y(size_t(t.batch) * t.cout * t.outD * t.outH * t.outW);
    ReadInto("./input/input_x.bin", x);
    ReadInto("./input/input_w.bin", w);

    ACL_TRY(aclInit(nullptr));
    ACL_TRY(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    ACL_TRY(aclrtCreateStream(&stream));

    void *dx = nullptr, *dw = nullptr, *dy = nullptr, *dt = nullptr;
    ACL_TRY(aclrtMalloc(&dx, x.size() * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_TRY(aclrtMalloc(&dw, w.size() * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_TRY(aclrtMalloc(&dy, y.size() * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_TRY(aclrtMalloc(&dt, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_TRY(aclrtMemcpy(dx, x.size() * sizeof(float), x.data(), x.size() * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_TRY(aclrtMemcpy(dw, w.size() * sizeof(float), w.data(), w.size() * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_TRY(aclrtMemcpy(dt, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    box_filter3d_valid<<<blockDim, nullptr, stream>>>((GM_ADDR)dx, (GM_ADDR)dw, (GM_ADDR)dy, (GM_ADDR)dt);
    ACL_TRY(aclrtSynchronizeStream(stream));

    ACL_TRY(aclrtMemcpy(y.data(), y.size() * sizeof(float), dy, y.size() * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream out("./output/output_y.bin", std::ios::binary);
    out.write(reinterpret_cast<const char *>(y.data()), y.size() * sizeof(float));

    aclrtFree(dx);
    aclrtFree(dw);
    aclrtFree(dy);
    aclrtFree(dt);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
