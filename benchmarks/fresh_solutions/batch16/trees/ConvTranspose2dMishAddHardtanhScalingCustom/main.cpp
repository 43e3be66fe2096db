// Host side of upconv_mish_clip_gain: load inputs, fill tiling, launch, dump result.
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <vector>

#include "acl/acl.h"

struct UpconvMishClipGainTiling {
    uint32_t batch, inC, outC, inH, inW, outH, outW, outWAlign, inWAlign;
    uint32_t kSize, stride, pad, rowsPerCore, totalRows;
    float addVal, gain;
};

#include "aclrtlaunch_upconv_mish_clip_gain.h"

static void Check(aclError e, const char *what)
{
    if (e != ACL_SUCCESS) {
        std::cerr << what << " failed: " << e << std::endl;
        std::exit(1);
    }
}

template <typename T>
static std::vector<T> Load(const char *path, size_t count)
{
    std::vector<T> v(count);
    std::ifstream f(path, std::ios::binary);
    if (!f.read(reinterpret_cast<char *>(v.data()), count * sizeof(T))) {
        std::cerr << "short read: " << path << std::endl;
        std::exit(1);
    }
    return v;
}

int main()
{
    // sample problem
    const uint32_t N = 8, CI = 64, CO = 64, H = 64, W = 64;
    const uint32_t K = 3, S = 2, P = 1, OP = 1;
    const float ADD = 0.5f, GAIN = 2.0f;
    const uint32_t OH = (H - 1) * S - 2 * P + K + OP;
    const uint32_t OW = (W - 1) * S - 2 * P + K + OP;
    const uint32_t CORES = 40;

    UpconvMishClipGainTiling tl{};
    tl.batch = N; tl.inC = CI; tl.outC = CO; tl.inH = H; tl.inW = W;
    tl.outH = OH; tl.outW = OW;
    tl.outWAlign = (OW + 7) / 8 * 8;
    tl.inWAlign = (W + 7) / 8 * 8;
    tl.kSize = K; tl.stride = S; tl.pad = P;
    tl.totalRows = N * OH;
    tl.rowsPerCore = (tl.totalRows + CORES - 1) / CORES;
    tl.addVal = ADD; tl.gain = GAIN;
    uint32_t blockDim = (tl.totalRows + tl.rowsPerCore - 1) / tl.rowsPerCore;

    size_t xCnt = size_t(N) * CI * H * W;
    size_t wCnt = size_t(CI) * CO * K * K;
    size_t yCnt = size_t(N) * CO * OH * OW;
    auto hx = Load<float>("./input/x.bin", xCnt);
    auto hw = Load<float>("./input/weight.bin", wCnt);
    auto hb = Load<float>("./input/bias.bin", CO);

    Check(aclInit(nullptr), "aclInit");
    Check(aclrtSetDevice(0), "aclrtSetDevice");
    aclrtStream stream;
    Check(aclrtCreateStream(&stream), "aclrtCreateStream");

    // pad weight/bias allocations a little: the kernel copies in 32B granules
    void *dx, *dw, *db, *dy, *dt;
    Check(aclrtMalloc(&dx, xCnt * 4, ACL_MEM_MALLOC_HUGE_FIRST), "malloc x");
    Check(aclrtMalloc(&dw, wCnt * 4 + 32, ACL_MEM_MALLOC_HUGE_FIRST), "malloc w");
    Check(aclrtMalloc(&db, CO * 4 + 32, ACL_MEM_MALLOC_HUGE_FIRST), "malloc b");
    Check(aclrtMalloc(&dy, yCnt * 4, ACL_MEM_MALLOC_HUGE_FIRST), "malloc y");
    Check(aclrtMalloc(&dt, sizeof(tl), ACL_MEM_MALLOC_HUGE_FIRST), "malloc tiling");
    Check(aclrtMemcpy(dx, xCnt * 4, hx.data(), xCnt * 4, ACL_MEMCPY_HOST_TO_DEVICE), "copy x");
    Check(aclrtMemcpy(dw, wCnt * 4, hw.data(), wCnt * 4, ACL_MEMCPY_HOST_TO_DEVICE), "copy w");
    Check(aclrtMemcpy(db, CO * 4, hb.data(), CO * 4, ACL_MEMCPY_HOST_TO_DEVICE), "copy b");
    Check(aclrtMemcpy(dt, sizeof(tl), &tl, sizeof(tl), ACL_MEMCPY_HOST_TO_DEVICE), "copy tiling");

    ACLRT_LAUNCH_KERNEL(upconv_mish_clip_gain)(blockDim, stream, dx, dw, db, dy, dt);
    Check(aclrtSynchronizeStream(stream), "sync");

    std::vector<float> hy(yCnt);
    Check(aclrtMemcpy(hy.data(), yCnt * 4, dy, yCnt * 4, ACL_MEMCPY_DEVICE_TO_HOST), "copy y");
    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(hy.data()), yCnt * 4);

    aclrtFree(dx); aclrtFree(dw); aclrtFree(db); aclrtFree(dy); aclrtFree(dt);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::cout << "output " << N << "x" << CO << "x" << OH << "x" << OW << " written" << std::endl;
    return 0;
}
