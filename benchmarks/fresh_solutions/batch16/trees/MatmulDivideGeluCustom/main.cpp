/**
 * Host driver for dense_scaled_gelu.
 * Reads input/x.bin, input/w.bin, input/b.bin, runs the kernel and writes output/output.bin.
 */
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iostream>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_dense_scaled_gelu.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

#define CHECK_ACL(expr)                                                                   \
    do {                                                                                  \
        auto _ret = (expr);                                                               \
        if (_ret != ACL_SUCCESS) {                                                        \
            std::cerr << "ACL error " << _ret << " at " << __FILE__ << ":" << __LINE__    \
                      << std::endl;                                                       \
            return 1;                                                                     \
        }                                                                                 \
    } while (0)

namespace {
constexpr uint32_t ROWS = 1024;     // batch
constexpr uint32_t IN_F = 8192;     // K
constexpr uint32_t OUT_F = 8192;    // N
constexpr float DIVISOR = 10.0f;

// must match the device side layout
struct DenseScaledGeluTilingHost {
    float invDiv;
    uint32_t reserved;
    TCubeTiling cube;
};

bool ReadFile(const std::string &path, void *buf, size_t size)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        std::cerr << "cannot open " << path << std::endl;
        return false;
    }
    f.read(static_cast<char *>(buf), size);
    return static_cast<size_t>(f.gcount()) == size;
}

bool WriteFile(const std::string &path, const void *buf, size_t size)
{
    std::ofstream f(path, std::ios::binary);
    f.write(static_cast<const char *>(buf), size);
    return f.good();
}

bool BuildTiling(DenseScaledGeluTilingHost &t, uint32_t &blockDim)
{
    auto plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    matmul_tiling::MultiCoreMatmulTiling mmTiling(*plat);
    uint32_t aicNum = plat->GetCoreNumAic();

    mmTiling.SetDim(aicNum);
    mmTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                      matmul_tiling::DataType::DT_FLOAT, false);
    mmTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                      matmul_tiling::DataType::DT_FLOAT, true);
    mmTiling.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND,
                      matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                         matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(ROWS, OUT_F, IN_F);
    mmTiling.SetOrgShape(ROWS, OUT_F, IN_F);
    mmTiling.SetBias(true);
    // keep one base block small enough that 3 copies of it fit in UB
    mmTiling.SetFixSplit(128, 128, -1);
    mmTiling.SetBufferSpace(-1, -1, -1);

    optiling::TCubeTiling cube;
    if (mmTiling.GetTiling(cube) == -1) {
        std::cerr << "matmul tiling failed" << std::endl;
        return false;
    }
    cube.SaveToBuffer(&t.cube, sizeof(TCubeTiling));
    t.invDiv = 1.0f / DIVISOR;
    t.reserved = 0;

    uint32_t mBlocks = (ROWS + cube.get_singleCoreM() - 1) / cube.get_singleCoreM();
    uint32_t nBlocks = (OUT_F + cube.get_singleCoreN() - 1) / cube.get_singleCoreN();
    blockDim = mBlocks * nBlocks;   // number of AIC cores used (MIX 1:2)
    return true;
}
}  // namespace

int main()
{
    const size_t xBytes = size_t(ROWS) * IN_F * sizeof(float);
    const size_t wBytes = size_t(OUT_F) * IN_F * sizeof(float);
    const size_t bBytes = size_t(OUT_F) * sizeof(float);
    const size_t yBytes = size_t(ROWS) * OUT_F * sizeof(float);

    DenseScaledGeluTilingHost tiling{};
    uint32_t blockDim = 0;
    if (!BuildTiling(tiling, blockDim)) {
        return 1;
    }

    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    std::vector<float> hostX(size_t(ROWS) * IN_F), hostW(size_t(OUT_F) * IN_F), hostB(OUT_F);
    std::vector<float> hostY(size_t(ROWS) * OUT_F);
    if (!ReadFile("./input/x.bin", hostX.data(), xBytes) || !ReadFile("./input/w.bin", hostW.data(), wBytes) ||
        !ReadFile("./input/b.bin", hostB.data(), bBytes)) {
        return 1;
    }

    auto plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    size_t wsBytes = plat->GetLibApiWorkSpaceSize();

    uint8_t *dX, *dW, *dB, *dY, *dWs, *dTiling;
    CHECK_ACL(aclrtMalloc((void **)&dX, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&dW, wBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&dB, bBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&dY, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&dWs, wsBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&dTiling, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));

    CHECK_ACL(aclrtMemcpy(dX, xBytes, hostX.data(), xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dW, wBytes, hostW.data(), wBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dB, bBytes, hostB.data(), bBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dTiling, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(dense_scaled_gelu)(blockDim, stream, dX, dW, dB, dY, dWs, dTiling);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(hostY.data(), yBytes, dY, yBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output.bin", hostY.data(), yBytes);

    aclrtFree(dX);
    aclrtFree(dW);
    aclrtFree(dB);
    aclrtFree(dY);
    aclrtFree(dWs);
    aclrtFree(dTiling);
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
    std::cout << "dense_scaled_gelu done, blockDim=" << blockDim << std::endl;
    return 0;
}
