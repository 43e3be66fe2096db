// Host program for softmax_qk_mix, Q/K/V/O: [2, 4, 512, 1024] float32.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_softmax_qk_mix.h"

struct SoftmaxQkMixTiling {
    uint32_t heads;
    uint32_t seqLen;
    uint32_t headDim;
    uint32_t qRows;
    uint32_t kvRows;
    float scale;
};

#define RET_IF_FAIL(c)                                         \
    if ((c) != ACL_SUCCESS) {                                  \
        fprintf(stderr, "line %d: %s failed\n", __LINE__, #c); \
        return 1;                                              \
    }

int main()
{
    const uint32_t B = 2, H = 4, S = 512, D = 1024;
    SoftmaxQkMixTiling tl;
    tl.heads = B * H;
    tl.seqLen = S;
    tl.headDim = D;
    tl.qRows = 8;    // 8 query rows x 1024 = 32KB, same for the output block
    tl.kvRows = 8;   // 2 x 32KB streamed K/V buffers
    tl.scale = 1.0f / std::sqrt(static_cast<float>(D));
    const uint32_t blockDim = 40;

    const size_t elems = (size_t)B * H * S * D;
    const size_t bytes = elems * sizeof(float);
    std::vector<float> hq(elems), hk(elems), hv(elems), ho(elems);
    const char *names[3] = {"./input/q.bin", "./input/k.bin", "./input/v.bin"};
    std::vector<float> *bufs[3] = {&hq, &hk, &hv};
    for (int i = 0; i < 3; ++i) {
        std::ifstream f(names[i], std::ios::binary);
        if (!f.read(reinterpret_cast<char *>(bufs[i]->data()), bytes)) {
            fprintf(stderr, "bad input %s\n", names[i]);
            return 1;
        }
    }

    RET_IF_FAIL(aclInit(nullptr));
    RET_IF_FAIL(aclrtSetDevice(0));
    aclrtStream stream;
    RET_IF_FAIL(aclrtCreateStream(&stream));

    void *dq, *dk, *dv, *dout, *dtl;
    RET_IF_FAIL(aclrtMalloc(&dq, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMalloc(&dk, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMalloc(&dv, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMalloc(&dout, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMalloc(&dtl, sizeof(tl), ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMemcpy(dq, bytes, hq.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_FAIL(aclrtMemcpy(dk, bytes, hk.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_FAIL(aclrtMemcpy(dv, bytes, hv.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_FAIL(aclrtMemcpy(dtl, sizeof(tl), &tl, sizeof(tl), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(softmax_qk_mix)(blockDim, stream, dq, dk, dv, dout, dtl);
    RET_IF_FAIL(aclrtSynchronizeStream(stream));
    RET_IF_FAIL(aclrtMemcpy(ho.data(), bytes, dout, bytes, ACL_MEMCPY_DEVICE_TO_HOST));

    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(ho.data()), bytes);

    aclrtFree(dq); aclrtFree(dk); aclrtFree(dv); aclrtFree(dout); aclrtFree(dtl);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
