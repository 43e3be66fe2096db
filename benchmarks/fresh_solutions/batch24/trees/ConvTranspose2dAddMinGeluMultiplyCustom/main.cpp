// deconv2x_clip_gelu host program (direct kernel launch).
#include <cstdio>
#include <cstdint>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_deconv2x_clip_gelu.h"

#define RET_ON_ERR(x)                                                    \
    if ((x) != ACL_SUCCESS) {                                            \
        fprintf(stderr, "line %d: %s failed\n", __LINE__, #x);           \
        return 1;                                                        \
    }

struct Deconv2xClipGeluTiling {
    uint32_t batch, cin, inH, inW, cout, outH, outW, halfPitch, outPitch, rowsPerCore;
    float addValue, mulValue;
};

static size_t LoadInto(const char *file, std::vector<float> &dst)
{
    std::ifstream f(file, std::ios::binary);
    f.read(reinterpret_cast<char *>(dst.data()), dst.size() * sizeof(float));
    return f.gcount();
}

int main()
{
    Deconv2xClipGeluTiling cfg{};
    cfg.batch = 128; cfg.cin = 64; cfg.inH = 64; cfg.inW = 64; cfg.cout = 128;
    cfg.outH = (cfg.inH - 1) * 2 + 4;
    cfg.outW = (cfg.inW - 1) * 2 + 4;
    cfg.halfPitch = (cfg.inW + 1 + 7) / 8 * 8;        // 72
    cfg.outPitch = (cfg.outW + 7) / 8 * 8;            // 136
    cfg.addValue = 0.5f;
    cfg.mulValue = 2.0f;
    uint32_t blockDim = 40;
    cfg.rowsPerCore = (cfg.batch * cfg.outH + blockDim - 1) / blockDim;

    std::vector<float> x((size_t)cfg.batch * cfg.cin * cfg.inH * cfg.inW);
    std::vector<float> w((size_t)cfg.cin * 4 * cfg.cout * 4);
    std::vector<float> b(cfg.cout);
    std::vector<float> y((size_t)cfg.batch * cfg.cout * cfg.outH * cfg.outW);
    if (!LoadInto("./input/x.bin", x) || !LoadInto("./input/w_arranged.bin", w) || !LoadInto("./input/b.bin", b)) {
        fprintf(stderr, "run scripts/gen_data.py first\n");
        return 1;
    }

    RET_ON_ERR(aclInit(nullptr));
    RET_ON_ERR(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    RET_ON_ERR(aclrtCreateStream(&stream));

    void *dX, *dW, *dB, *dY, *dCfg;
    RET_ON_ERR(aclrtMalloc(&dX, x.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_ON_ERR(aclrtMalloc(&dW, w.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_ON_ERR(aclrtMalloc(&dB, b.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_ON_ERR(aclrtMalloc(&dY, y.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_ON_ERR(aclrtMalloc(&dCfg, sizeof(cfg), ACL_MEM_MALLOC_HUGE_FIRST));
    RET_ON_ERR(aclrtMemcpy(dX, x.size() * 4, x.data(), x.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_ON_ERR(aclrtMemcpy(dW, w.size() * 4, w.data(), w.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_ON_ERR(aclrtMemcpy(dB, b.size() * 4, b.data(), b.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_ON_ERR(aclrtMemcpy(dCfg, sizeof(cfg), &cfg, sizeof(cfg), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(deconv2x_clip_gelu)(blockDim, stream, dX, dW, dB, dY, dCfg);
    RET_ON_ERR(aclrtSynchronizeStream(stream));
    RET_ON_ERR(aclrtMemcpy(y.data(), y.size() * 4, dY, y.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write((const char *)y.data(), y.size() * 4);

    aclrtFree(dX); aclrtFree(dW); aclrtFree(dB); aclrtFree(dY); aclrtFree(dCfg);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
