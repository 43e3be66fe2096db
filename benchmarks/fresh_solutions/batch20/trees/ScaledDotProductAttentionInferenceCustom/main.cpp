/*
 * Host driver for dense_softmax_attend: three launches on one stream.
 *   qk_logits -> logits_row_softmax -> dense_softmax_attend
 */
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_qk_logits.h"
#include "aclrtlaunch_logits_row_softmax.h"
#include "aclrtlaunch_dense_softmax_attend.h"

// leading scalar part of DenseSoftmaxAttendTiling; two TCubeTiling blobs follow
struct HeadFields {
    uint32_t batch, seq, dim, rowsPerCore, rowsTail, qkCores, pvCores;
    float scale;
};

#define RET_IF(cond, msg)              \
    if (cond) {                        \
        fprintf(stderr, "%s\n", msg);  \
        return 1;                      \
    }

static int MakeCube(platform_ascendc::PlatformAscendC *plat, uint32_t dimNum, int m, int n, int k, bool transB,
                    optiling::TCubeTiling &out, uint32_t &used)
{
    using namespace matmul_tiling;
    MultiCoreMatmulTiling t(*plat);
    t.SetDim(dimNum);
    t.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
    t.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, transB);
    t.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    t.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    t.SetShape(m, n, k);
    t.SetOrgShape(m, n, k);
    t.SetBias(false);
    t.SetBufferSpace(-1, -1, -1);
    if (t.GetTiling(out) == -1) {
        return -1;
    }
    uint32_t mb = (m + out.get_singleCoreM() - 1) / out.get_singleCoreM();
    uint32_t nb = (n + out.get_singleCoreN() - 1) / out.get_singleCoreN();
    used = mb * nb;
    return 0;
}

static bool ReadBin(const char *p, void *dst, size_t n)
{
    std::ifstream f(p, std::ios::binary);
    return f.read(static_cast<char *>(dst), n).gcount() == static_cast<std::streamsize>(n);
}

int main()
{
    const uint32_t B = 1, S = 2048, D = 4096;
    const uint32_t cubeCores = 24, vecCores = 48;

    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    optiling::TCubeTiling qk, pv;
    HeadFields head{};
    RET_IF(MakeCube(plat, cubeCores, S, S, D, true, qk, head.qkCores) != 0, "qk tiling failed");
    RET_IF(MakeCube(plat, cubeCores, S, D, S, false, pv, head.pvCores) != 0, "pv tiling failed");
    head.batch = B;
    head.seq = S;
    head.dim = D;
    head.rowsPerCore = (B * S) / vecCores;
    head.rowsTail = (B * S) % vecCores;
    head.scale = 1.0f / std::sqrt(static_cast<float>(D));

    std::vector<uint8_t> tilingHost(sizeof(head) + qk.GetDataSize() + pv.GetDataSize());
    memcpy(tilingHost.data(), &head, sizeof(head));
    qk.SaveToBuffer(tilingHost.data() + sizeof(head), qk.GetDataSize());
    pv.SaveToBuffer(tilingHost.data() + sizeof(head) + qk.GetDataSize(), pv.GetDataSize());

    size_t qkvBytes = (size_t)B * S * D * sizeof(float);
    size_t logitBytes = (size_t)B * S * S * sizeof(float);
    std::vector<float> hq(qkvBytes / 4), hk(qkvBytes / 4), hv(qkvBytes / 4), ho(qkvBytes / 4);
    RET_IF(!ReadBin("input/q.bin", hq.data(), qkvBytes), "missing input/q.bin");
    RET_IF(!ReadBin("input/k.bin", hk.data(), qkvBytes), "missing input/k.bin");
    RET_IF(!ReadBin("input/v.bin", hv.data(), qkvBytes), "missing input/v.bin");

    RET_IF(aclInit(nullptr) != ACL_SUCCESS, "aclInit");
    RET_IF(aclrtSetDevice(0) != ACL_SUCCESS, "set device");
    aclrtStream stream;
    aclrtCreateStream(&stream);

    size_t sysWs = plat->GetLibApiWorkSpaceSize();
    void *dq, *dk, *dv, *dlog, *dout, *dws, *dtl;
    aclrtMalloc(&dq, qkvBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dk, qkvBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dv, qkvBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dout, qkvBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dlog, logitBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dws, sysWs, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dtl, tilingHost.size(), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dq, qkvBytes, hq.data(), qkvBytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dk, qkvBytes, hk.data(), qkvBytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dv, qkvBytes, hv.data(), qkvBytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dtl, tilingHost.size(), tilingHost.data(), tilingHost.size(), ACL_MEMCPY_HOST_TO_DEVICE);

    uint32_t qkBlocks = head.qkCores < cubeCores ? head.qkCores : cubeCores;
    uint32_t pvBlocks = head.pvCores < cubeCores ? head.pvCores : cubeCores;
    ACLRT_LAUNCH_KERNEL(qk_logits)(qkBlocks, stream, dq, dk, dlog, dws, dtl);
    ACLRT_LAUNCH_KERNEL(logits_row_softmax)(vecCores, stream, dlog, dtl);
    ACLRT_LAUNCH_KERNEL(dense_softmax_attend)(pvBlocks, stream, dlog, dv, dout, dws, dtl);
    RET_IF(aclrtSynchronizeStream(stream) != ACL_SUCCESS, "kernel execution failed");

    aclrtMemcpy(ho.data(), qkvBytes, dout, qkvBytes, ACL_MEMCPY_DEVICE_TO_HOST);
    std::ofstream("output/out.bin", std::ios::binary).write(reinterpret_cast<char *>(ho.data()), qkvBytes);

    aclrtFree(dq);
    aclrtFree(dk);
    aclrtFree(dv);
    aclrtFree(dout);
    aclrtFree(dlog);
    aclrtFree(dws);
    aclrtFree(dtl);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    printf("done\n");
    return 0;
}
