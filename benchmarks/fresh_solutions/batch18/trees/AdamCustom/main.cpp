#include <cmath>
#include <cstdio>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_moment_step_update.h"

struct MomentStepUpdateTiling {
    uint32_t totalLen;
    uint32_t perCore;
    uint32_t tileLen;
    float beta1;
    float beta2;
    float oneMinusBeta1;
    float oneMinusBeta2;
    float stepSize;
    float invC2;
    float eps;
};

#define ACL_OK(x)                                                 \
    if ((x) != ACL_SUCCESS) {                                     \
        printf("ACL call failed at %s:%d\n", __FILE__, __LINE__); \
        return -1;                                                \
    }

static std::vector<float> Load(const std::string &name, size_t n)
{
    std::vector<float> buf(n);
    std::ifstream in(name, std::ios::binary);
    in.read(reinterpret_cast<char *>(buf.data()), n * sizeof(float));
    return buf;
}

int main()
{
    constexpr uint32_t ROWS = 512, COLS = 2048;
    constexpr uint32_t N = ROWS * COLS;
    constexpr uint32_t CORES = 32;
    const float lr = 1e-3f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f;
    const int step = 1;

    MomentStepUpdateTiling tl{};
    tl.totalLen = N;
    tl.perCore = ((N + CORES - 1) / CORES + 7) / 8 * 8;  // keep 32-byte granularity
    tl.tileLen = 4096;
    tl.beta1 = beta1;
    tl.beta2 = beta2;
    tl.oneMinusBeta1 = 1.0f - beta1;
    tl.oneMinusBeta2 = 1.0f - beta2;
    double c1 = 1.0 - std::pow((double)beta1, step);
    double c2 = 1.0 - std::pow((double)beta2, step);
    tl.stepSize = static_cast<float>(lr / c1);
    tl.invC2 = static_cast<float>(1.0 / c2);
    tl.eps = eps;
    uint32_t blockDim = (N + tl.perCore - 1) / tl.perCore;

    ACL_OK(aclInit(nullptr));
    ACL_OK(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_OK(aclrtCreateStream(&stream));

    const char *names[4] = {"input/param.bin", "input/grad.bin", "input/exp_avg.bin", "input/exp_avg_sq.bin"};
    void *dev[4] = {nullptr, nullptr, nullptr, nullptr};
    size_t bytes = N * sizeof(float);
    for (int i = 0; i < 4; ++i) {
        std::vector<float> h = Load(names[i], N);
        ACL_OK(aclrtMalloc(&dev[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        ACL_OK(aclrtMemcpy(dev[i], bytes, h.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    void *dOut = nullptr, *dTiling = nullptr;
    ACL_OK(aclrtMalloc(&dOut, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&dTiling, sizeof(tl), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemcpy(dTiling, sizeof(tl), &tl, sizeof(tl), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(moment_step_update)(blockDim, stream, dev[0], dev[1], dev[2], dev[3], dOut, dTiling);
    ACL_OK(aclrtSynchronizeStream(stream));

    std::vector<float> result(N);
    ACL_OK(aclrtMemcpy(result.data(), bytes, dOut, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(result.data()), bytes);

    for (auto p : dev) aclrtFree(p);
    aclrtFree(dOut);
    aclrtFree(dTiling);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
