// Host program: runs the whole densely connected classifier as a sequence of
// concat_growth_net launches. Parameters come from one flat file written by
// scripts/gen_data.py in exactly the order the schedule below consumes them.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_concat_growth_net.h"

struct ConcatGrowthNetTiling {
    uint32_t mode, batch, inC, inCTotal, inH, inW, outC, outCTotal, outCOff, outH, outW;
    uint32_t kSize, stride, pad, hasPre, hasPost, poolBefore, numClasses;
};

#define CHECK(call)                                                        \
    do {                                                                   \
        if ((call) != ACL_SUCCESS) {                                       \
            fprintf(stderr, "failed: %s (line %d)\n", #call, __LINE__);    \
            return 1;                                                      \
        }                                                                  \
    } while (0)

static constexpr uint32_t BATCH = 10;
static constexpr uint32_t IMG = 224;
static constexpr uint32_t CLASSES = 10;
static constexpr uint32_t GROWTH = 32;
static constexpr uint32_t CORES = 40;
static const uint32_t STAGE_LAYERS[4] = {6, 12, 24, 16};

struct Net {
    aclrtStream stream;
    float *params;      // device base of all weights
    size_t cursor = 0;  // float offset of the next unread parameter
    void *tilingDev;

    float *Take(size_t count)
    {
        float *p = params + cursor;
        cursor += count;
        return p;
    }

    int Launch(const ConcatGrowthNetTiling &t, void *x, void *w, void *s0, void *b0, void *s1, void *b1, void *y,
               uint32_t units)
    {
        if (aclrtMemcpyAsync(tilingDev, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE, stream) != ACL_SUCCESS) {
            return 1;
        }
        uint32_t blockDim = units < CORES ? units : CORES;
        ACLRT_LAUNCH_KERNEL(concat_growth_net)(blockDim, stream, x, w, s0, b0, s1, b1, y, tilingDev);
        // the tiling buffer is reused by the next launch
        return aclrtSynchronizeStream(stream) == ACL_SUCCESS ? 0 : 1;
    }
};

static size_t Bytes(uint32_t n, uint32_t c, uint32_t h, uint32_t w)
{
    return static_cast<size_t>(n) * c * h * w * sizeof(float);
}

int main()
{
    // -------- read host data
    std::ifstream fp("input/params.bin", std::ios::binary | std::ios::ate);
    std::ifstream fx("input/image.bin", std::ios::binary);
    if (!fp || !fx) {
        fprintf(stderr, "run scripts/gen_data.py first\n");
        return 1;
    }
    size_t paramBytes = fp.tellg();
    fp.seekg(0);
    std::vector<char> hostParams(paramBytes);
    fp.read(hostParams.data(), paramBytes);
    std::vector<char> hostImg(Bytes(BATCH, 3, IMG, IMG));
    fx.read(hostImg.data(), hostImg.size());

    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    Net net;
    CHECK(aclrtCreateStream(&net.stream));
    CHECK(aclrtMalloc((void **)&net.params, paramBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(net.params, paramBytes, hostParams.data(), paramBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMalloc(&net.tilingDev, sizeof(ConcatGrowthNetTiling), ACL_MEM_MALLOC_HUGE_FIRST));

    void *img = nullptr, *stem = nullptr, *logits = nullptr;
    CHECK(aclrtMalloc(&img, hostImg.size(), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(img, hostImg.size(), hostImg.data(), hostImg.size(), ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMalloc(&stem, Bytes(BATCH, 64, 112, 112), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&logits, BATCH * CLASSES * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));

    // one buffer per stage, wide enough for every channel the stage will hold
    uint32_t stageIn[4], stageTotal[4], stageHW[4];
    uint32_t c = 64, hw = 56;
    void *stageBuf[4];
    for (int s = 0; s < 4; ++s) {
        stageIn[s] = c;
        stageTotal[s] = c + STAGE_LAYERS[s] * GROWTH;
        stageHW[s] = hw;
        CHECK(aclrtMalloc(&stageBuf[s], Bytes(BATCH, stageTotal[s], hw, hw), ACL_MEM_MALLOC_HUGE_FIRST));
        c = stageTotal[s] / 2;
        hw /= 2;
    }

    // -------- stem: 7x7/2 conv + BN + ReLU
    ConcatGrowthNetTiling t{};
    t.mode = 0; t.batch = BATCH;
    t.inC = 3; t.inCTotal = 3; t.inH = IMG; t.inW = IMG;
    t.outC = 64; t.outCTotal = 64; t.outCOff = 0; t.outH = 112; t.outW = 112;
    t.kSize = 7; t.stride = 2; t.pad = 3; t.hasPre = 0; t.hasPost = 1; t.poolBefore = 0;
    float *w = net.Take(3 * 49 * 64);
    float *ps = net.Take(64);
    float *pb = net.Take(64);
    if (net.Launch(t, img, w, w, w, ps, pb, stem, BATCH * 112)) return 1;

    // -------- 3x3/2 max pool straight into the first stage buffer
    t = ConcatGrowthNetTiling{};
    t.mode = 1; t.batch = BATCH;
    t.inC = 64; t.inCTotal = 64; t.inH = 112; t.inW = 112;
    t.outC = 64; t.outCTotal = stageTotal[0]; t.outCOff = 0; t.outH = 56; t.outW = 56;
    t.kSize = 3; t.stride = 2; t.pad = 1;
    if (net.Launch(t, stem, net.params, net.params, net.params, net.params, net.params, stageBuf[0],
                   BATCH * 64 * 56)) return 1;

    // -------- stages
    for (int s = 0; s < 4; ++s) {
        uint32_t hw = stageHW[s];
        for (uint32_t l = 0; l < STAGE_LAYERS[s]; ++l) {
            uint32_t cin = stageIn[s] + l * GROWTH;
            float *sc = net.Take(cin);
            float *sh = net.Take(cin);
            float *wl = net.Take(static_cast<size_t>(cin) * 9 * GROWTH);
            t = ConcatGrowthNetTiling{};
            t.mode = 0; t.batch = BATCH;
            t.inC = cin; t.inCTotal = stageTotal[s]; t.inH = hw; t.inW = hw;
            t.outC = GROWTH; t.outCTotal = stageTotal[s]; t.outCOff = cin; t.outH = hw; t.outW = hw;
            t.kSize = 3; t.stride = 1; t.pad = 1; t.hasPre = 1;
            if (net.Launch(t, stageBuf[s], wl, sc, sh, wl, wl, stageBuf[s], BATCH * hw)) return 1;
        }
        if (s == 3) break;
        // transition: BN + ReLU -> 2x2 avg -> 1x1 conv halving the channels
        uint32_t cin = stageTotal[s];
        float *sc = net.Take(cin);
        float *sh = net.Take(cin);
        float *wl = net.Take(static_cast<size_t>(cin) * (cin / 2));
        t = ConcatGrowthNetTiling{};
        t.mode = 0; t.batch = BATCH;
        t.inC = cin; t.inCTotal = cin; t.inH = hw; t.inW = hw;
        t.outC = cin / 2; t.outCTotal = stageTotal[s + 1]; t.outCOff = 0; t.outH = hw / 2; t.outW = hw / 2;
        t.kSize = 1; t.stride = 1; t.pad = 0; t.hasPre = 1; t.poolBefore = 1;
        if (net.Launch(t, stageBuf[s], wl, sc, sh, wl, wl, stageBuf[s + 1], BATCH * (hw / 2))) return 1;
    }

    // -------- head: BN + ReLU + global average + linear
    uint32_t cf = stageTotal[3];
    float *sc = net.Take(cf);
    float *sh = net.Take(cf);
    float *fw = net.Take(static_cast<size_t>(CLASSES) * cf);
    float *fb = net.Take(CLASSES);
    t = ConcatGrowthNetTiling{};
    t.mode = 2; t.batch = BATCH;
    t.inC = cf; t.inCTotal = cf; t.inH = 7; t.inW = 7;
    t.numClasses = CLASSES;
    if (net.Launch(t, stageBuf[3], fw, sc, sh, fw, fb, logits, BATCH)) return 1;

    if (net.cursor * sizeof(float) != paramBytes) {
        fprintf(stderr, "parameter file size mismatch: used %zu floats\n", net.cursor);
    }

    std::vector<float> out(BATCH * CLASSES);
    CHECK(aclrtMemcpy(out.data(), out.size() * sizeof(float), logits, out.size() * sizeof(float),
                      ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("output/output.bin", std::ios::binary)
        .write(reinterpret_cast<char *>(out.data()), out.size() * sizeof(float));

    for (auto b : stageBuf) aclrtFree(b);
    aclrtFree(img);
    aclrtFree(stem);
    aclrtFree(logits);
    aclrtFree(net.params);
    aclrtFree(net.tilingDev);
    aclrtDestroyStream(net.stream);
    aclrtResetDevice(0);
    aclFinalize();
    printf("logits written for %u images\n", BATCH);
    return 0;
}
