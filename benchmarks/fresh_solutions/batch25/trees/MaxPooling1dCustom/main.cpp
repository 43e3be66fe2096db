// Host program for sliding_max_1d.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_sliding_max_1d.h"

#define CHECK_ACL(x)                                                                \
    do {                                                                            \
        aclError __ret = (x);                                                       \
        if (__ret != ACL_ERROR_NONE) {                                              \
            std::fprintf(stderr, "%s:%d aclError:%d\n", __FILE__, __LINE__, __ret);   \
        }                                                                           \
    } while (0)

struct SlidingMax1dTiling {
    uint32_t rows, len, win, pad, outLen, inner, innerAlign, rowsPerCore;
};

int32_t main()
{
    const uint32_t batch = 64, channels = 192, L = 2048;
    const uint32_t K = 8, P = 4;       // stride 1
    const uint32_t blockDim = 48;

    SlidingMax1dTiling t{};
    t.rows = batch * channels;
    t.len = L;
    t.win = K;
    t.pad = P;
    t.outLen = L + 2 * P - K + 1;      // 2049
    t.inner = L - K + 1;               // 2041
    t.innerAlign = (t.inner + 7) / 8 * 8;
    t.rowsPerCore = (t.rows + blockDim - 1) / blockDim;

    size_t inBytes = (size_t)t.rows * L * sizeof(float);
    size_t outBytes = (size_t)t.rows * t.outLen * sizeof(float);
    std::vector<float> hin(inBytes / sizeof(float)), hout(outBytes / sizeof(float));
    std::ifstream("./input/input_x.bin", std::ios::binary).read(reinterpret_cast<char *>(hin.data()), inBytes);

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    uint8_t *din = nullptr, *dout = nullptr, *dtiling = nullptr;
    CHECK_ACL(aclrtMalloc((void **)&din, inBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&dout, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&dtiling, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(din, inBytes, hin.data(), inBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dtiling, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    sliding_max_1d<<<blockDim, nullptr, stream>>>(din, dout, dtiling);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(hout.data(), outBytes, dout, outBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(hout.data()), outBytes);

    CHECK_ACL(aclrtFree(din));
    CHECK_ACL(aclrtFree(dout));
    CHECK_ACL(aclrtFree(dtiling));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return 0;
}
