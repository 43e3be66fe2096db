/*
 * main.cpp - host driver for mlp_logit_pool.
 *   stage 1: hidden = sigmoid(x W1^T + b1)    (mlp_logit_pool_dense, sigmoid on)
 *   stage 2: logits = hidden W2^T + b2        (mlp_logit_pool_dense, sigmoid off)
 *   stage 3: out    = logsumexp(logits, 1)    (mlp_logit_pool)
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_mlp_logit_pool_dense.h"
#include "aclrtlaunch_mlp_logit_pool.h"

#define ACL_OK(x)                                                                  \
    do {                                                                           \
        aclError e_ = (x);                                                         \
        if (e_ != ACL_SUCCESS) {                                                   \
            std::fprintf(stderr, "%s failed (%d) at line %d\n", #x, e_, __LINE__); \
            std::exit(1);                                                          \
        }                                                                          \
    } while (0)

constexpr uint32_t BATCH = 256;
constexpr uint32_t IN_F = 1024;
constexpr uint32_t HID_F = 2048;
constexpr uint32_t OUT_F = 512;
constexpr uint32_t DENSE_HEADER = 4 * sizeof(uint32_t);

struct MlpLogitPoolTiling {
    uint32_t rows, cols, rowsPerCore, rowsPerStep;
};

// header (m, n, k, applySigmoid) followed by the serialized TCubeTiling
static std::vector<uint8_t> DenseTiling(uint32_t m, uint32_t n, uint32_t k, bool sigmoid, uint32_t cores)
{
    using namespace matmul_tiling;
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    MultiCoreMatmulTiling mt(*plat);
    mt.SetDim(cores);
    mt.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mt.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, true);
    mt.SetCType(TPosition::VECIN, CubeFormat::ND, DataType::DT_FLOAT);
    mt.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mt.SetShape(m, n, k);
    mt.SetOrgShape(m, n, k);
    mt.SetBias(true);
    mt.SetFixSplit(64, 128, -1);   // 64x128 fp32 tile = 32 KB of UB for the epilogue
    mt.SetBufferSpace(-1, -1, -1);

    optiling::TCubeTiling cube;
    if (mt.GetTiling(cube) == -1) {
        std::fprintf(stderr, "matmul tiling failed for %ux%ux%u\n", m, n, k);
        std::exit(1);
    }
    if (m % 64 != 0 || n % 128 != 0) {
        std::fprintf(stderr, "shape must be a multiple of the base tile\n");
        std::exit(1);
    }
    std::vector<uint8_t> buf(DENSE_HEADER + cube.GetDataSize(), 0);
    uint32_t head[4] = {m, n, k, sigmoid ? 1u : 0u};
    std::memcpy(buf.data(), head, DENSE_HEADER);
    cube.SaveToBuffer(buf.data() + DENSE_HEADER, cube.GetDataSize());
    return buf;
}

static void *ToDevice(const void *src, size_t bytes)
{
    void *d = nullptr;
    ACL_OK(aclrtMalloc(&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    if (src != nullptr) {
        ACL_OK(aclrtMemcpy(d, bytes, src, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    return d;
}

static std::vector<float> LoadFloats(const std::string &path, size_t count)
{
    std::vector<float> v(count);
    std::ifstream f(path, std::ios::binary);
    f.read(reinterpret_cast<char *>(v.data()), count * sizeof(float));
    if (!f) {
        std::fprintf(stderr, "short read on %s\n", path.c_str());
        std::exit(1);
    }
    return v;
}

int main()
{
    ACL_OK(aclInit(nullptr));
    ACL_OK(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_OK(aclrtCreateStream(&stream));

    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    uint32_t aicNum = plat->GetCoreNumAic();
    uint32_t aivNum = plat->GetCoreNumAiv();

    auto x = LoadFloats("./input/x.bin", BATCH * IN_F);
    auto w1 = LoadFloats("./input/w1.bin", HID_F * IN_F);
    auto b1 = LoadFloats("./input/b1.bin", HID_F);
    auto w2 = LoadFloats("./input/w2.bin", OUT_F * HID_F);
    auto b2 = LoadFloats("./input/b2.bin", OUT_F);

    void *dX = ToDevice(x.data(), x.size() * 4);
    void *dW1 = ToDevice(w1.data(), w1.size() * 4);
    void *dB1 = ToDevice(b1.data(), b1.size() * 4);
    void *dW2 = ToDevice(w2.data(), w2.size() * 4);
    void *dB2 = ToDevice(b2.data(), b2.size() * 4);
    void *dHidden = ToDevice(nullptr, sizeof(float) * BATCH * HID_F);
    void *dLogits = ToDevice(nullptr, sizeof(float) * BATCH * OUT_F);
    void *dOut = ToDevice(nullptr, sizeof(float) * BATCH);
    void *dWs = ToDevice(nullptr, plat->GetLibApiWorkSpaceSize());

    auto t1 = DenseTiling(BATCH, HID_F, IN_F, true, aicNum);
    auto t2 = DenseTiling(BATCH, OUT_F, HID_F, false, aicNum);
    void *dT1 = ToDevice(t1.data(), t1.size());
    void *dT2 = ToDevice(t2.data(), t2.size());

    MlpLogitPoolTiling tp{};
    tp.rows = BATCH;
    tp.cols = OUT_F;
    tp.rowsPerCore = (BATCH + aivNum - 1) / aivNum;
    tp.rowsPerStep = 8;
    uint32_t poolCores = (BATCH + tp.rowsPerCore - 1) / tp.rowsPerCore;
    void *dTp = ToDevice(&tp, sizeof(tp));

    ACLRT_LAUNCH_KERNEL(mlp_logit_pool_dense)(aicNum, stream, dX, dW1, dB1, dHidden, dWs, dT1);
    ACLRT_LAUNCH_KERNEL(mlp_logit_pool_dense)(aicNum, stream, dHidden, dW2, dB2, dLogits, dWs, dT2);
    ACLRT_LAUNCH_KERNEL(mlp_logit_pool)(poolCores, stream, dLogits, dOut, dTp);
    ACL_OK(aclrtSynchronizeStream(stream));

    std::vector<float> out(BATCH);
    ACL_OK(aclrtMemcpy(out.data(), out.size() * 4, dOut, out.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(out.data()), out.size() * 4);
    std::printf("out[0..3] = %f %f %f %f\n", out[0], out[1], out[2], out[3]);

    for (void *p : {dX, dW1, dB1, dW2, dB2, dHidden, dLogits, dOut, dWs, dT1, dT2, dTp}) {
        aclrtFree(p);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
