// Host driver for dw_then_pw_conv: spatial (vector) kernel into a GM scratch,
// then the 1x1 channel mixing on the cube unit.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_dw_then_pw_conv_spatial.h"
#include "aclrtlaunch_dw_then_pw_conv.h"

struct DwThenPwConvHead {   // same order as the kernel struct, TCubeTiling appended
    uint32_t batch, inCh, outCh, height, width, ksize, pad, outH, outW;
    uint32_t rowAlign, bandRows, planesPerCore, planeTail, pwCores;
};

#define CHK(x)                                                     \
    do {                                                           \
        auto _e = (x);                                             \
        if (_e != ACL_SUCCESS) {                                   \
            printf("ACL call failed (%d): %s\n", (int)_e, #x);     \
            return 1;                                              \
        }                                                          \
    } while (0)

static std::vector<float> ReadF32(const char *path, size_t n)
{
    std::vector<float> v(n);
    std::ifstream f(path, std::ios::binary);
    if (!f || !f.read(reinterpret_cast<char *>(v.data()), n * sizeof(float))) {
        v.clear();
    }
    return v;
}

int main()
{
    const uint32_t N = 2, CIN = 64, COUT = 128, H = 512, W = 512, K = 3, PAD = 1;
    const uint32_t OH = H + 2 * PAD - K + 1, OW = W + 2 * PAD - K + 1;   // stride 1, dilation 1
    const uint32_t vecCores = 48, cubeCores = 24;

    DwThenPwConvHead head{};
    head.batch = N; head.inCh = CIN; head.outCh = COUT;
    head.height = H; head.width = W; head.ksize = K; head.pad = PAD;
    head.outH = OH; head.outW = OW;
    head.rowAlign = (W + 7) / 8 * 8;
    head.bandRows = 8;
    head.planesPerCore = (N * CIN) / vecCores;
    head.planeTail = (N * CIN) % vecCores;

    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    matmul_tiling::MultiCoreMatmulTiling mt(*plat);
    mt.SetDim(cubeCores);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(COUT, OH * OW, CIN);
    mt.SetOrgShape(COUT, OH * OW, CIN);
    mt.SetBias(false);
    mt.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling cube;
    if (mt.GetTiling(cube) == -1) {
        printf("cube tiling failed\n");
        return 1;
    }
    uint32_t mT = (COUT + cube.get_singleCoreM() - 1) / cube.get_singleCoreM();
    uint32_t nT = (OH * OW + cube.get_singleCoreN() - 1) / cube.get_singleCoreN();
    head.pwCores = mT * nT;

    std::vector<uint8_t> tilingBlob(sizeof(head) + cube.GetDataSize());
    memcpy(tilingBlob.data(), &head, sizeof(head));
    cube.SaveToBuffer(tilingBlob.data() + sizeof(head), cube.GetDataSize());

    size_t xN = (size_t)N * CIN * H * W, midN = (size_t)N * CIN * OH * OW, outN = (size_t)N * COUT * OH * OW;
    auto hx = ReadF32("input/x.bin", xN);
    auto hdw = ReadF32("input/dw_weight.bin", (size_t)CIN * K * K);
    auto hpw = ReadF32("input/pw_weight.bin", (size_t)COUT * CIN);
    if (hx.empty() || hdw.empty() || hpw.empty()) {
        printf("run scripts/gen_data.py first\n");
        return 1;
    }

    CHK(aclInit(nullptr));
    CHK(aclrtSetDevice(0));
    aclrtStream st;
    CHK(aclrtCreateStream(&st));

    void *dx, *ddw, *dpw, *dmid, *dout, *dws, *dtl;
    size_t wsSize = plat->GetLibApiWorkSpaceSize();
    CHK(aclrtMalloc(&dx, xN * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc(&ddw, hdw.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc(&dpw, hpw.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc(&dmid, midN * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc(&dout, outN * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc(&dws, wsSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMalloc(&dtl, tilingBlob.size(), ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMemcpy(dx, xN * 4, hx.data(), xN * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHK(aclrtMemcpy(ddw, hdw.size() * 4, hdw.data(), hdw.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHK(aclrtMemcpy(dpw, hpw.size() * 4, hpw.data(), hpw.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHK(aclrtMemcpy(dtl, tilingBlob.size(), tilingBlob.data(), tilingBlob.size(), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(dw_then_pw_conv_spatial)(vecCores, st, dx, ddw, dmid, dtl);
    uint32_t cubeBlocks = head.pwCores < cubeCores ? head.pwCores : cubeCores;
    ACLRT_LAUNCH_KERNEL(dw_then_pw_conv)(cubeBlocks, st, dmid, dpw, dout, dws, dtl);
    CHK(aclrtSynchronizeStream(st));

    std::vector<float> hout(outN);
    CHK(aclrtMemcpy(hout.data(), outN * 4, dout, outN * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("output/out.bin", std::ios::binary).write(reinterpret_cast<char *>(hout.data()), outN * 4);

    for (void *p : {dx, ddw, dpw, dmid, dout, dws, dtl}) {
        aclrtFree(p);
    }
    aclrtDestroyStream(st);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
