// Host driver for upconv3d_rownorm_gelu (sample uses batch 2).
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_upconv3d_rownorm_gelu.h"

struct Upconv3dRownormGeluTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t inD;
    uint32_t inH;
    uint32_t inW;
    uint32_t outD;
    uint32_t outH;
    uint32_t outW;
    float eps;
    float scale;
};

#define CHECK_RET(call)                                                  \
    do {                                                                 \
        int r_ = static_cast<int>(call);                                 \
        if (r_ != 0) {                                                   \
            printf("[%s:%d] %s failed (%d)\n", __FILE__, __LINE__, #call, r_); \
            return r_;                                                   \
        }                                                                \
    } while (0)

static bool LoadBin(const char *p, std::vector<float> &v)
{
    std::ifstream f(p, std::ios::binary);
    return static_cast<bool>(f.read(reinterpret_cast<char *>(v.data()), v.size() * sizeof(float)));
}

int main()
{
    const uint32_t N = 2, CI = 32, CO = 64, D = 16, H = 32, W = 32, K = 4, S = 2, P = 1;
    Upconv3dRownormGeluTiling t{};
    t.batch = N;
    t.cin = CI;
    t.cout = CO;
    t.inD = D;
    t.inH = H;
    t.inW = W;
    t.outD = (D - 1) * S - 2 * P + K;  // 32
    t.outH = (H - 1) * S - 2 * P + K;  // 64
    t.outW = (W - 1) * S - 2 * P + K;  // 64, the normalised axis
    t.eps = 1e-5f;
    t.scale = 1.0f;
    const uint32_t blockDim = 48;

    std::vector<float> x((size_t)N * CI * D * H * W), w((size_t)CI * CO * K * K * K), g(t.outW), b(t.outW);
    if (!LoadBin("./input/x.bin", x) || !LoadBin("./input/weight.bin", w) || !LoadBin("./input/gamma.bin", g) ||
        !LoadBin("./input/beta.bin", b)) {
        printf("run scripts/gen_data.py first\n");
        return 1;
    }
    size_t yCount = (size_t)N * CO * t.outD * t.outH * t.outW;
    std::vector<float> y(yCount);

    CHECK_RET(aclInit(nullptr));
    CHECK_RET(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK_RET(aclrtCreateStream(&stream));

    void *dx, *dw, *dg, *db, *dy, *dt;
    CHECK_RET(aclrtMalloc(&dx, x.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMalloc(&dw, w.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMalloc(&dg, g.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMalloc(&db, b.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMalloc(&dy, yCount * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMalloc(&dt, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMemcpy(dx, x.size() * 4, x.data(), x.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_RET(aclrtMemcpy(dw, w.size() * 4, w.data(), w.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_RET(aclrtMemcpy(dg, g.size() * 4, g.data(), g.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_RET(aclrtMemcpy(db, b.size() * 4, b.data(), b.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_RET(aclrtMemcpy(dt, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(upconv3d_rownorm_gelu)(blockDim, stream, dx, dw, dg, db, dy, dt);
    CHECK_RET(aclrtSynchronizeStream(stream));

    CHECK_RET(aclrtMemcpy(y.data(), yCount * 4, dy, yCount * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(y.data()), yCount * 4);

    aclrtFree(dx);
    aclrtFree(dw);
    aclrtFree(dg);
    aclrtFree(db);
    aclrtFree(dy);
    aclrtFree(dt);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
