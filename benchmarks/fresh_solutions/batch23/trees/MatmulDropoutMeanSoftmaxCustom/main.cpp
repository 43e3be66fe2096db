// Host driver for dense_row_softmax: builds the Matmul tiling, launches the
// kernel once and dumps the result to ./output/output_y.bin.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_dense_row_softmax.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

#define ACL_OK(expr)                                                                     \
    do {                                                                                 \
        aclError _e = (expr);                                                            \
        if (_e != ACL_SUCCESS) {                                                         \
            std::fprintf(stderr, "[%s:%d] %s failed, err=%d\n", __FILE__, __LINE__, #expr, _e); \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

namespace {
constexpr uint32_t M = 128;
constexpr uint32_t K = 2048;
constexpr uint32_t N = 2048;
constexpr uint32_t CORES = 8;

// host mirror of the device struct; the cube tiling is serialised behind it
struct HeadFields {
    uint32_t m, n, k, rowsPerCore, alignedN, reserved;
};

bool LoadBin(const std::string &path, void *dst, size_t bytes)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        std::fprintf(stderr, "cannot open %s\n", path.c_str());
        return false;
    }
    f.read(static_cast<char *>(dst), bytes);
    return static_cast<size_t>(f.gcount()) == bytes;
}

bool StoreBin(const std::string &path, const void *src, size_t bytes)
{
    std::ofstream f(path, std::ios::binary);
    f.write(static_cast<const char *>(src), bytes);
    return f.good();
}
}  // namespace

int main()
{
    const size_t xBytes = size_t(M) * K * sizeof(float);
    const size_t wBytes = size_t(N) * K * sizeof(float);
    const size_t bBytes = size_t(N) * sizeof(float);
    const size_t yBytes = size_t(M) * N * sizeof(float);

    // ---------------- tiling ----------------
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    matmul_tiling::MultiCoreMatmulTiling mmTiling(*plat);
    const uint32_t rowsPerCore = (M + CORES - 1) / CORES;
    mmTiling.SetDim(CORES);
    mmTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mmTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(M, N, K);
    mmTiling.SetOrgShape(M, N, K);
    mmTiling.SetSingleShape(rowsPerCore, N, K);
    mmTiling.EnableBias(true);
    mmTiling.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling cube;
    if (mmTiling.GetTiling(cube) == -1) {
        std::fprintf(stderr, "matmul tiling failed\n");
        return 1;
    }

    HeadFields head{M, N, K, rowsPerCore, (N + 7) / 8 * 8, 0};
    const size_t tilingBytes = sizeof(HeadFields) + cube.GetDataSize();
    std::vector<uint8_t> tilingHost(tilingBytes, 0);
    std::memcpy(tilingHost.data(), &head, sizeof(head));
    cube.SaveToBuffer(tilingHost.data() + sizeof(head), cube.GetDataSize());

    const size_t workspaceBytes = plat->GetLibApiWorkSpaceSize();

    // ---------------- runtime ----------------
    ACL_OK(aclInit(nullptr));
    ACL_OK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    ACL_OK(aclrtCreateStream(&stream));

    void *xH, *wH, *bH, *yH;
    ACL_OK(aclrtMallocHost(&xH, xBytes));
    ACL_OK(aclrtMallocHost(&wH, wBytes));
    ACL_OK(aclrtMallocHost(&bH, bBytes));
    ACL_OK(aclrtMallocHost(&yH, yBytes));
    if (!LoadBin("./input/input_x.bin", xH, xBytes) || !LoadBin("./input/input_w.bin", wH, wBytes) ||
        !LoadBin("./input/input_b.bin", bH, bBytes)) {
        return 1;
    }

    void *xD, *wD, *bD, *yD, *wsD, *tD;
    ACL_OK(aclrtMalloc(&xD, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&wD, wBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&bD, bBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&yD, yBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&wsD, workspaceBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&tD, tilingBytes, ACL_MEM_MALLOC_HUGE_FIRST));

    ACL_OK(aclrtMemcpy(xD, xBytes, xH, xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(wD, wBytes, wH, wBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(bD, bBytes, bH, bBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(tD, tilingBytes, tilingHost.data(), tilingBytes, ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(dense_row_softmax)(CORES, stream, xD, wD, bD, yD, wsD, tD);
    ACL_OK(aclrtSynchronizeStream(stream));

    ACL_OK(aclrtMemcpy(yH, yBytes, yD, yBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    StoreBin("./output/output_y.bin", yH, yBytes);

    aclrtFree(xD); aclrtFree(wD); aclrtFree(bD); aclrtFree(yD); aclrtFree(wsD); aclrtFree(tD);
    aclrtFreeHost(xH); aclrtFreeHost(wH); aclrtFreeHost(bH); aclrtFreeHost(yH);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
