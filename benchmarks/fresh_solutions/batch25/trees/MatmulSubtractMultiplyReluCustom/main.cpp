// Host program for linear_shift_gain_rect: builds the cube tiling, launches
// the fused kernel once and dumps the result.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>
#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_linear_shift_gain_rect.h"

#define ACL_OK(expr)                                                                   \
    do {                                                                               \
        auto rc_ = (expr);                                                             \
        if (rc_ != ACL_SUCCESS) {                                                      \
            std::fprintf(stderr, "line %d: %s -> %d\n", __LINE__, #expr, (int)rc_);    \
            return 1;                                                                  \
        }                                                                              \
    } while (0)

namespace {
constexpr uint32_t kM = 1024;
constexpr uint32_t kK = 8192;
constexpr uint32_t kN = 8192;
constexpr float kShift = 2.0f;
constexpr float kGain = 1.5f;
constexpr uint32_t kCores = 24;

struct EpilogueParams {   // leading part of LinearShiftGainRectTiling
    float shift;
    float gain;
    uint32_t pad0;
    uint32_t pad1;
};

bool FillTiling(std::vector<uint8_t> &blob)
{
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    matmul_tiling::MultiCoreMatmulTiling mt(*plat);
    using namespace matmul_tiling;
    mt.SetDim(kCores);
    mt.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
    mt.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, true);
    mt.SetCType(TPosition::VECIN, CubeFormat::ND, DataType::DT_FLOAT);
    mt.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mt.SetShape(kM, kN, kK);
    mt.SetOrgShape(kM, kN, kK);
    mt.SetBias(true);
    // 64 x 128 fp32 tiles: two in-flight accumulator tiles plus two result
    // tiles stay well inside UB
    mt.SetFixSplit(64, 128, -1);
    mt.SetBufferSpace(-1, -1, -1);

    optiling::TCubeTiling cube;
    if (mt.GetTiling(cube) == -1) {
        std::fprintf(stderr, "GetTiling failed\n");
        return false;
    }
    EpilogueParams ep{kShift, kGain, 0, 0};
    blob.resize(sizeof(ep) + cube.GetDataSize());
    std::memcpy(blob.data(), &ep, sizeof(ep));
    cube.SaveToBuffer(blob.data() + sizeof(ep), cube.GetDataSize());
    return true;
}

bool Load(const char *path, std::vector<float> &v)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", path);
        return false;
    }
    in.read(reinterpret_cast<char *>(v.data()), v.size() * sizeof(float));
    return true;
}
}  // namespace

int main()
{
    std::vector<float> x((size_t)kM * kK), w((size_t)kN * kK), b(kN), y((size_t)kM * kN);
    if (!Load("./input/x.bin", x) || !Load("./input/w.bin", w) || !Load("./input/b.bin", b)) {
        return 1;
    }
    std::vector<uint8_t> tiling;
    if (!FillTiling(tiling)) {
        return 1;
    }
    size_t wsSize = platform_ascendc::PlatformAscendCManager::GetInstance()->GetLibApiWorkSpaceSize();

    ACL_OK(aclInit(nullptr));
    ACL_OK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    ACL_OK(aclrtCreateStream(&stream));

    void *dX, *dW, *dB, *dY, *dWs, *dT;
    ACL_OK(aclrtMalloc(&dX, x.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&dW, w.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&dB, b.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&dY, y.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&dWs, wsSize, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&dT, tiling.size(), ACL_MEM_MALLOC_HUGE_FIRST));

    ACL_OK(aclrtMemcpy(dX, x.size() * 4, x.data(), x.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(dW, w.size() * 4, w.data(), w.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(dB, b.size() * 4, b.data(), b.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(dT, tiling.size(), tiling.data(), tiling.size(), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(linear_shift_gain_rect)(kCores, stream, dX, dW, dB, dY, dWs, dT);
    ACL_OK(aclrtSynchronizeStream(stream));

    ACL_OK(aclrtMemcpy(y.data(), y.size() * 4, dY, y.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(y.data()), y.size() * 4);

    aclrtFree(dX);
    aclrtFree(dW);
    aclrtFree(dB);
    aclrtFree(dY);
    aclrtFree(dWs);
    aclrtFree(dT);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
