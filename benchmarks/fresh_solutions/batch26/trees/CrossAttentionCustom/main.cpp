// Host side: q/k/v projections -> per-head attention -> output projection, all on device.
#include <cstdint>
#include <cstdio>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_query_memory_attend.h"
#include "aclrtlaunch_query_memory_attend_linear.h"

struct QueryMemoryAttendTiling {
    uint32_t rows, inDim, outDim, rowBlock, batch, heads, headDim, lenQ, lenKV, model;
    float scale;
};

#define CHK(x) if ((x) != ACL_SUCCESS) { printf("failed: %s (line %d)\n", #x, __LINE__); return 1; }

static void *Upload(const std::string &file, size_t n)
{
    std::vector<float> h(n);
    std::ifstream(file, std::ios::binary).read(reinterpret_cast<char *>(h.data()), n * 4);
    void *d = nullptr;
    aclrtMalloc(&d, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(d, n * 4, h.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    return d;
}

static void *Scratch(size_t n)
{
    void *d = nullptr;
    aclrtMalloc(&d, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    return d;
}

static void *TilingDev(const QueryMemoryAttendTiling &t)
{
    void *d = nullptr;
    aclrtMalloc(&d, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(d, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE);
    return d;
}

int main()
{
    const uint32_t B = 16, LQ = 64, LKV = 128, D = 512, H = 8, HD = D / H;
    const uint32_t blockDim = 40;

    CHK(aclInit(nullptr));
    CHK(aclrtSetDevice(0));
    aclrtStream stream;
    CHK(aclrtCreateStream(&stream));

    void *q = Upload("input/q.bin", (size_t)B * LQ * D);
    void *kv = Upload("input/kv.bin", (size_t)B * LKV * D);
    // transposed weights [in, out] and biases, one set per projection
    void *wq = Upload("input/wq_t.bin", D * D), *bq = Upload("input/bq.bin", D);
    void *wk = Upload("input/wk_t.bin", D * D), *bk = Upload("input/bk.bin", D);
    void *wv = Upload("input/wv_t.bin", D * D), *bv = Upload("input/bv.bin", D);
    void *wo = Upload("input/wo_t.bin", D * D), *bo = Upload("input/bo.bin", D);

    void *qp = Scratch((size_t)B * LQ * D), *kp = Scratch((size_t)B * LKV * D);
    void *vp = Scratch((size_t)B * LKV * D), *ctx = Scratch((size_t)B * LQ * D);
    void *out = Scratch((size_t)B * LQ * D);

    QueryMemoryAttendTiling lq{B * LQ, D, D, 8, B, H, HD, LQ, LKV, D, 1.0f / std::sqrt((float)HD)};
    QueryMemoryAttendTiling lkv = lq;
    lkv.rows = B * LKV;
    void *tq = TilingDev(lq), *tkv = TilingDev(lkv);

    ACLRT_LAUNCH_KERNEL(query_memory_attend_linear)(blockDim, stream, q, wq, bq, qp, tq);
    ACLRT_LAUNCH_KERNEL(query_memory_attend_linear)(blockDim, stream, kv, wk, bk, kp, tkv);
    ACLRT_LAUNCH_KERNEL(query_memory_attend_linear)(blockDim, stream, kv, wv, bv, vp, tkv);
    ACLRT_LAUNCH_KERNEL(query_memory_attend)(blockDim, stream, qp, kp, vp, ctx, tq);
    ACLRT_LAUNCH_KERNEL(query_memory_attend_linear)(blockDim, stream, ctx, wo, bo, out, tq);
    CHK(aclrtSynchronizeStream(stream));

    size_t outN = (size_t)B * LQ * D;
    std::vector<float> host(outN);
    CHK(aclrtMemcpy(host.data(), outN * 4, out, outN * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(host.data()), outN * 4);

    for (void *p : {q, kv, wq, bq, wk, bk, wv, bv, wo, bo, qp, kp, vp, ctx, out, tq, tkv}) aclrtFree(p);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
