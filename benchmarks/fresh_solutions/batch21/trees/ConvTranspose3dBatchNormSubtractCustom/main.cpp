// deconv3d_norm_center: host launcher
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_deconv3d_norm_center.h"

#define CHECK_ACL(x)                                                                   \
    do {                                                                               \
        aclError __ret = x;                                                            \
        if (__ret != ACL_ERROR_NONE) {                                                 \
            std::fprintf(stderr, "%s:%d aclError:%d\n", __FILE__, __LINE__, __ret);    \
            std::exit(1);                                                              \
        }                                                                              \
    } while (0)

struct Deconv3dNormCenterTiling {
    uint32_t n, cin, cout;
    uint32_t id, ih, iw;
    uint32_t od, oh, ow;
    uint32_t k, stride, pad;
    float eps;
};

struct DevBuf {
    void *ptr = nullptr;
    size_t bytes = 0;
};

static DevBuf MakeDev(size_t bytes, const std::string &file = "")
{
    DevBuf d;
    d.bytes = bytes;
    CHECK_ACL(aclrtMalloc(&d.ptr, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    if (!file.empty()) {
        std::vector<char> host(bytes);
        std::ifstream f(file, std::ios::binary);
        if (!f.read(host.data(), bytes)) {
            std::fprintf(stderr, "cannot read %zu bytes from %s\n", bytes, file.c_str());
            std::exit(1);
        }
        CHECK_ACL(aclrtMemcpy(d.ptr, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    return d;
}

int main()
{
    Deconv3dNormCenterTiling t{};
    t.n = 2; t.cin = 8; t.cout = 16;
    t.id = 8; t.ih = 16; t.iw = 16;
    t.k = 3; t.stride = 2; t.pad = 1;
    t.od = (t.id - 1) * t.stride - 2 * t.pad + t.k;   // 15
    t.oh = (t.ih - 1) * t.stride - 2 * t.pad + t.k;   // 31
    t.ow = (t.iw - 1) * t.stride - 2 * t.pad + t.k;   // 31
    t.eps = 1e-5f;
    if (t.n > 64) {
        std::fprintf(stderr, "kernel keeps per-sample sums for at most 64 samples\n");
        return 1;
    }
    // one sample of input (all channels) must fit in UB next to the row/chunk buffers
    const size_t inSample = (size_t)t.cin * t.id * t.ih * t.iw * sizeof(float);
    if (inSample > 96 * 1024) {
        std::fprintf(stderr, "input sample too large for UB residency (%zu bytes)\n", inSample);
        return 1;
    }

    const size_t xBytes = (size_t)t.n * inSample;
    const size_t wBytes = (size_t)t.cin * t.cout * t.k * t.k * t.k * sizeof(float);
    const size_t cBytes = t.cout * sizeof(float);
    const size_t oBytes = (size_t)t.n * t.cout * t.od * t.oh * t.ow * sizeof(float);

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    DevBuf x = MakeDev(xBytes, "./input/input_x.bin");
    DevBuf w = MakeDev(wBytes, "./input/input_w.bin");
    DevBuf b = MakeDev(cBytes, "./input/input_bias.bin");
    DevBuf g = MakeDev(cBytes, "./input/input_gamma.bin");
    DevBuf o = MakeDev(oBytes);
    DevBuf tilingDev = MakeDev(sizeof(t));
    CHECK_ACL(aclrtMemcpy(tilingDev.ptr, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    // channels are independent in this formulation: one core each
    const uint32_t blockDim = t.cout;
    ACLRT_LAUNCH_KERNEL(deconv3d_norm_center)(blockDim, stream, x.ptr, w.ptr, b.ptr, g.ptr, o.ptr, tilingDev.ptr);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    std::vector<char> result(oBytes);
    CHECK_ACL(aclrtMemcpy(result.data(), oBytes, o.ptr, oBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output_z.bin", std::ios::binary).write(result.data(), oBytes);

    for (DevBuf *d : {&x, &w, &b, &g, &o, &tilingDev}) {
        CHECK_ACL(aclrtFree(d->ptr));
    }
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    std::printf("output [%u, %u, %u, %u, %u] written\n", t.n, t.cout, t.od, t.oh, t.ow);
    return 0;
}
