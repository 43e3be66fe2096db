// Host side: loads Q/K/V, launches streaming_softmax_mix, saves the result.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_streaming_softmax_mix.h"

struct StreamingSoftmaxMixTiling {
    uint32_t batch;
    uint32_t seqQ;
    uint32_t seqK;
    uint32_t dim;
    float scale;
    uint32_t workElems;
};

#define RET_IF(cond, msg)                 \
    if (cond) {                           \
        fprintf(stderr, "%s\n", msg);     \
        return 1;                         \
    }

int main()
{
    const uint32_t B = 1, S = 16384, D = 12288;
    const uint32_t coreCount = 40;
    const size_t elems = (size_t)B * S * D;
    const size_t bytes = elems * sizeof(float);

    StreamingSoftmaxMixTiling tiling{B, S, S, D, 1.0f / std::sqrt((float)D), 0};
    // ReduceSum scratch: one float per 64-element repeat, rounded to a 32-byte block
    tiling.workElems = ((D + 63) / 64 + 7) / 8 * 8;

    RET_IF(aclInit(nullptr) != ACL_SUCCESS, "aclInit failed");
    RET_IF(aclrtSetDevice(0) != ACL_SUCCESS, "set device failed");
    aclrtStream stream;
    RET_IF(aclrtCreateStream(&stream) != ACL_SUCCESS, "create stream failed");

    const char *files[3] = {"input/q.bin", "input/k.bin", "input/v.bin"};
    void *devIn[3];
    std::vector<float> host(elems);
    for (int i = 0; i < 3; ++i) {
        std::ifstream f(files[i], std::ios::binary);
        RET_IF(!f, "input file missing, run scripts/gen_data.py");
        f.read(reinterpret_cast<char *>(host.data()), bytes);
        RET_IF(aclrtMalloc(&devIn[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS, "malloc failed");
        aclrtMemcpy(devIn[i], bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    }
    void *devOut, *devTiling;
    RET_IF(aclrtMalloc(&devOut, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS, "malloc failed");
    RET_IF(aclrtMalloc(&devTiling, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS, "malloc failed");
    aclrtMemcpy(devTiling, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE);

    uint32_t blockDim = (B * S < coreCount) ? B * S : coreCount;
    ACLRT_LAUNCH_KERNEL(streaming_softmax_mix)(blockDim, stream, devIn[0], devIn[1], devIn[2], devOut, devTiling);
    RET_IF(aclrtSynchronizeStream(stream) != ACL_SUCCESS, "kernel failed");

    aclrtMemcpy(host.data(), bytes, devOut, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    std::ofstream("output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(host.data()), bytes);

    for (void *p : devIn) aclrtFree(p);
    aclrtFree(devOut);
    aclrtFree(devTiling);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
