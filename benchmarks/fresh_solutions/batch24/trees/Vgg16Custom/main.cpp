// deep_stack_classifier host: 13 conv layers (im2col + GEMM + ReLU/pool) and a
// 3-layer MLP head, all as device kernels, activations in NHWC.
#include <cstdio>
#include <cstdint>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "tiling/tiling_api.h"
#include "tiling/platform/platform_ascendc.h"
#include "aclrtlaunch_hwc_unfold.h"
#include "aclrtlaunch_gemm_bias.h"
#include "aclrtlaunch_relu_maybe_pool.h"

#define CHK(x) do { if ((x) != ACL_SUCCESS) { fprintf(stderr, "fail: %s\n", #x); std::exit(1); } } while (0)

struct HwcUnfoldTiling { uint32_t H, W, C, rowsPerCore; };
struct ReluPoolTiling { uint32_t rows, W, C, pool, rowsPerCore; };

static const uint32_t BATCH = 10, IMG = 224, IN_C_PADDED = 8, CLASSES = 1000;
// output channels of the 13 convs, 0 marks a 2x2 max-pool after the previous conv
static const int PLAN[] = {64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0, 512, 512, 512, 0};

static platform_ascendc::PlatformAscendC *g_plat;
static aclrtStream g_stream;
static void *g_ws;
static std::vector<void *> g_allocs;

static float *DevAlloc(size_t elems)
{
    void *p;
    CHK(aclrtMalloc(&p, elems * sizeof(float) + 64, ACL_MEM_MALLOC_HUGE_FIRST));
    g_allocs.push_back(p);
    return (float *)p;
}

static void *Upload(const void *h, size_t bytes)
{
    void *d;
    CHK(aclrtMalloc(&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHK(aclrtMemcpy(d, bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    g_allocs.push_back(d);
    return d;
}

static uint32_t Split(uint32_t work, uint32_t cores) { return (work + cores - 1) / cores; }

// C[M, N] = A[M, K] * B[K, N] + bias[N]
static void GemmBias(const float *A, const float *B, const float *bias, float *C, int M, int N, int K)
{
    using namespace matmul_tiling;
    MultiCoreMatmulTiling tl(*g_plat);
    tl.SetDim(g_plat->GetCoreNumAic());
    tl.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    tl.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    tl.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    tl.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    tl.SetShape(M, N, K);
    tl.SetOrgShape(M, N, K);
    tl.SetBias(true);
    tl.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling cube;
    if (tl.GetTiling(cube) == -1) { fprintf(stderr, "no tiling for %dx%dx%d\n", M, N, K); std::exit(1); }
    std::vector<uint8_t> raw(cube.GetDataSize());
    cube.SaveToBuffer(raw.data(), raw.size());
    uint32_t dim = Split(M, cube.get_singleCoreM()) * Split(N, cube.get_singleCoreN());
    ACLRT_LAUNCH_KERNEL(gemm_bias)(dim, g_stream, (void *)A, (void *)B, (void *)bias, C, g_ws,
                                   Upload(raw.data(), raw.size()));
}

static void ReluPool(const float *x, float *y, uint32_t rows, uint32_t w, uint32_t c, bool pool)
{
    uint32_t cores = g_plat->GetCoreNumAiv();
    ReluPoolTiling t{rows, w, c, pool ? 1u : 0u, Split(pool ? rows / 2 : rows, cores)};
    ACLRT_LAUNCH_KERNEL(relu_maybe_pool)(cores, g_stream, (void *)x, y, Upload(&t, sizeof(t)));
}

int main()
{
    CHK(aclInit(nullptr));
    CHK(aclrtSetDevice(0));
    CHK(aclrtCreateStream(&g_stream));
    g_plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    CHK(aclrtMalloc(&g_ws, g_plat->GetLibApiWorkSpaceSize(), ACL_MEM_MALLOC_HUGE_FIRST));
    const uint32_t vecCores = g_plat->GetCoreNumAiv();

    // packed parameters: per conv Wt[9*Cin, Cout] + bias, then fc Wt[K, N] + bias
    std::ifstream pf("./input/params.bin", std::ios::binary | std::ios::ate);
    std::vector<float> hp((size_t)pf.tellg() / 4);
    pf.seekg(0);
    pf.read((char *)hp.data(), hp.size() * 4);
    const float *params = (const float *)Upload(hp.data(), hp.size() * 4);
    size_t cursor = 0;

    size_t inElems = (size_t)BATCH * IMG * IMG * IN_C_PADDED;
    std::vector<float> hx(inElems);
    std::ifstream("./input/x_nhwc.bin", std::ios::binary).read((char *)hx.data(), inElems * 4);

    const size_t maxAct = (size_t)BATCH * IMG * IMG * 64;
    float *actA = DevAlloc(maxAct), *actB = DevAlloc(maxAct);
    float *cols = DevAlloc((size_t)IMG * IMG * 9 * 64);     // biggest single-image im2col
    CHK(aclrtMemcpy(actA, inElems * 4, hx.data(), inElems * 4, ACL_MEMCPY_HOST_TO_DEVICE));

    uint32_t H = IMG, C = IN_C_PADDED;
    const int nPlan = sizeof(PLAN) / sizeof(PLAN[0]);
    for (int i = 0; i < nPlan; ++i) {
        if (PLAN[i] == 0) continue;
        uint32_t cout = PLAN[i];
        bool poolAfter = (i + 1 < nPlan && PLAN[i + 1] == 0);
        const float *wt = params + cursor; cursor += (size_t)9 * C * cout;
        const float *bias = params + cursor; cursor += cout;

        HwcUnfoldTiling ut{H, H, C, Split(H * 3, vecCores)};
        void *utDev = Upload(&ut, sizeof(ut));
        for (uint32_t n = 0; n < BATCH; ++n) {
            ACLRT_LAUNCH_KERNEL(hwc_unfold)(vecCores, g_stream, actA + (size_t)n * H * H * C, cols, utDev);
            GemmBias(cols, wt, bias, actB + (size_t)n * H * H * cout, H * H, cout, 9 * C);
        }
        ReluPool(actB, actA, BATCH * H, H, cout, poolAfter);
        C = cout;
        if (poolAfter) H /= 2;
    }

    // classifier: [BATCH, 7*7*512] (NHWC flatten; fc1 rows were permuted to match)
    const int fcIn[3] = {7 * 7 * 512, 4096, 4096};
    const int fcOut[3] = {4096, 4096, (int)CLASSES};
    for (int l = 0; l < 3; ++l) {
        const float *wt = params + cursor; cursor += (size_t)fcIn[l] * fcOut[l];
        const float *bias = params + cursor; cursor += fcOut[l];
        GemmBias(actA, wt, bias, actB, BATCH, fcOut[l], fcIn[l]);
        if (l < 2) {
            ReluPool(actB, actA, BATCH, 1, fcOut[l], false);
        } else {
            std::swap(actA, actB);
        }
    }
    CHK(aclrtSynchronizeStream(g_stream));

    std::vector<float> logits((size_t)BATCH * CLASSES);
    CHK(aclrtMemcpy(logits.data(), logits.size() * 4, actA, logits.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write((char *)logits.data(), logits.size() * 4);

    for (void *p : g_allocs) aclrtFree(p);
    aclrtFree(g_ws);
    aclrtDestroyStream(g_stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
