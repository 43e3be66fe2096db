// Runs the inverted-bottleneck classifier layer by layer with inverted_bottleneck_net.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include <utility>
#include "acl/acl.h"
#include "aclrtlaunch_inverted_bottleneck_net.h"

struct InvertedBottleneckNetTiling {
    uint32_t mode, batch, inC, inH, inW, outC, outH, outW, stride, clamp6, residual, coTile, pixTile, numClasses;
};

#define ACL_CALL(e)                                                     \
    do {                                                                \
        int _r = (e);                                                   \
        if (_r != 0) {                                                  \
            fprintf(stderr, "%s failed (%d) at line %d\n", #e, _r, __LINE__); \
            return 1;                                                   \
        }                                                               \
    } while (0)

namespace {
constexpr uint32_t N = 10, IMG = 224, CLASSES = 1000, LAST = 1280;
constexpr uint32_t MAX_CORES = 40;
// expansion t, output channels c, repeats r, first stride s
constexpr uint32_t STAGES[7][4] = {{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2},
                                   {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};

aclrtStream g_stream;
void *g_tiling;
float *g_params;
size_t g_used = 0;

float *Next(size_t n)
{
    float *p = g_params + g_used;
    g_used += n;
    return p;
}

int Run(InvertedBottleneckNetTiling t, void *x, void *w, void *sc, void *sh, void *res, void *y, uint32_t jobs)
{
    t.batch = N;
    t.coTile = 16;
    t.pixTile = 1024;
    if (aclrtMemcpy(g_tiling, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) return 1;
    uint32_t blocks = jobs < MAX_CORES ? jobs : MAX_CORES;
    ACLRT_LAUNCH_KERNEL(inverted_bottleneck_net)(blocks, g_stream, x, w, sc, sh, res, y, g_tiling);
    return aclrtSynchronizeStream(g_stream);
}

int Pointwise(void *x, void *y, void *res, uint32_t cin, uint32_t cout, uint32_t hw, bool clamp)
{
    float *w = Next((size_t)cout * cin);
    float *sc = Next(cout);
    float *sh = Next(cout);
    InvertedBottleneckNetTiling t{};
    t.mode = 2; t.inC = cin; t.outC = cout; t.inH = t.outH = hw; t.inW = t.outW = hw; t.stride = 1;
    t.clamp6 = clamp ? 1 : 0; t.residual = res ? 1 : 0;
    uint32_t jobs = N * ((cout + 15) / 16) * ((hw * hw + 1023) / 1024);
    return Run(t, x, w, sc, sh, res ? res : x, y, jobs);
}

int Depthwise(void *x, void *y, uint32_t c, uint32_t hw, uint32_t stride)
{
    float *w = Next((size_t)c * 9);
    float *sc = Next(c);
    float *sh = Next(c);
    InvertedBottleneckNetTiling t{};
    t.mode = 1; t.inC = t.outC = c; t.inH = t.inW = hw; t.stride = stride;
    t.outH = t.outW = (hw - 1) / stride + 1;
    t.clamp6 = 1;
    return Run(t, x, w, sc, sh, x, y, N * c * t.outH);
}
}  // namespace

int main()
{
    std::ifstream pf("input/params.bin", std::ios::binary | std::ios::ate);
    std::ifstream xf("input/image.bin", std::ios::binary);
    if (!pf || !xf) {
        fprintf(stderr, "inputs missing, run scripts/gen_data.py\n");
        return 1;
    }
    size_t pBytes = pf.tellg();
    pf.seekg(0);
    std::vector<char> hp(pBytes);
    pf.read(hp.data(), pBytes);
    std::vector<float> hx((size_t)N * 3 * IMG * IMG);
    xf.read(reinterpret_cast<char *>(hx.data()), hx.size() * sizeof(float));

    ACL_CALL(aclInit(nullptr));
    ACL_CALL(aclrtSetDevice(0));
    ACL_CALL(aclrtCreateStream(&g_stream));
    ACL_CALL(aclrtMalloc((void **)&g_params, pBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMemcpy(g_params, pBytes, hp.data(), pBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CALL(aclrtMalloc(&g_tiling, sizeof(InvertedBottleneckNetTiling), ACL_MEM_MALLOC_HUGE_FIRST));

    // largest activation: 96 expanded channels at 112x112
    size_t actBytes = (size_t)N * 96 * 112 * 112 * sizeof(float);
    void *img, *cur, *nxt, *expd, *dw, *logits;
    ACL_CALL(aclrtMalloc(&img, hx.size() * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMemcpy(img, hx.size() * sizeof(float), hx.data(), hx.size() * sizeof(float),
                         ACL_MEMCPY_HOST_TO_DEVICE));
    for (void **p : {&cur, &nxt, &expd, &dw}) {
        ACL_CALL(aclrtMalloc(p, actBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    }
    ACL_CALL(aclrtMalloc(&logits, N * CLASSES * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));

    // stem: 3x3 stride-2 conv, 3 -> 32, BN, clamp
    {
        float *w = Next(3 * 9 * 32);
        float *sc = Next(32);
        float *sh = Next(32);
        InvertedBottleneckNetTiling t{};
        t.mode = 0; t.inC = 3; t.inH = t.inW = IMG; t.outC = 32; t.outH = t.outW = 112; t.stride = 2; t.clamp6 = 1;
        ACL_CALL(Run(t, img, w, sc, sh, img, cur, N * 112));
    }

    uint32_t c = 32, hw = 112;
    for (auto &st : STAGES) {
        for (uint32_t r = 0; r < st[2]; ++r) {
            uint32_t stride = (r == 0) ? st[3] : 1;
            uint32_t hidden = c * st[0];
            uint32_t oc = st[1];
            bool shortcut = (stride == 1 && c == oc);
            void *src = cur;
            if (st[0] != 1) {
                ACL_CALL(Pointwise(cur, expd, nullptr, c, hidden, hw, true));
                src = expd;
            }
            ACL_CALL(Depthwise(src, dw, hidden, hw, stride));
            hw = (hw - 1) / stride + 1;
            ACL_CALL(Pointwise(dw, nxt, shortcut ? cur : nullptr, hidden, oc, hw, false));
            std::swap(cur, nxt);
            c = oc;
        }
    }

    // 1x1 to 1280 channels, then pool + classifier
    ACL_CALL(Pointwise(cur, nxt, nullptr, c, LAST, hw, true));
    {
        float *w = Next((size_t)CLASSES * LAST);
        float *b = Next(CLASSES);
        InvertedBottleneckNetTiling t{};
        t.mode = 3; t.inC = LAST; t.inH = t.inW = hw; t.numClasses = CLASSES;
        ACL_CALL(Run(t, nxt, w, b, b, nxt, logits, CLASSES));
    }
    if (g_used * sizeof(float) != pBytes) {
        fprintf(stderr, "warning: consumed %zu of %zu parameter bytes\n", g_used * sizeof(float), pBytes);
    }

    std::vector<float> out(N * CLASSES);
    ACL_CALL(aclrtMemcpy(out.data(), out.size() * 4, logits, out.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("output/output.bin", std::ios::binary).write((const char *)out.data(), out.size() * 4);

    for (void *p : {img, cur, nxt, expd, dw, logits, g_tiling, (void *)g_params}) aclrtFree(p);
    aclrtDestroyStream(g_stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
