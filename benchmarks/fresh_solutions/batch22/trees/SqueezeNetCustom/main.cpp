// Host program for fire_stack_forward.
// Runs the whole network stage by stage: every conv / pool / average is one
// launch of the same kernel with a different tiling block.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_fire_stack_forward.h"

struct FireStackForwardTiling {
    uint32_t mode;
    uint32_t n, ci, h, w;
    uint32_t co, ho, wo;
    uint32_t woPad, wPad;
    uint32_t k, stride, pad;
    uint32_t coOff, coTotal, coPerGroup;
};

enum { MODE_CONV = 0, MODE_MAXPOOL = 1, MODE_AVG = 2 };

#define ACL_CALL(x)                                                     \
    do {                                                                \
        aclError e_ = (x);                                              \
        if (e_ != ACL_SUCCESS) {                                        \
            fprintf(stderr, "%s failed (%d) at line %d\n", #x, e_, __LINE__); \
            return 1;                                                   \
        }                                                               \
    } while (0)

static constexpr uint32_t kBatch = 2;
static constexpr uint32_t kInC = 3, kInH = 224, kInW = 224;
static constexpr uint32_t kClasses = 1000;
static constexpr uint32_t kCores = 40;

static uint32_t Up8(uint32_t v) { return (v + 7) / 8 * 8; }

// one launch = tiling + which buffers
struct Stage {
    FireStackForwardTiling t;
    float *x, *w, *b, *y;
    uint32_t blocks;
};

struct Net {
    std::vector<Stage> stages;
    float *params = nullptr;   // device, all weights/biases back to back
    size_t paramOff = 0;       // floats consumed so far
    size_t paramTotal = 0;

    // conv+bias+relu from x[ci,h,w] into y channels [coOff, coOff+co) of coTotal
    void Conv(float *x, uint32_t ci, uint32_t h, uint32_t w, uint32_t co, uint32_t k, uint32_t s, uint32_t p,
              float *y, uint32_t coOff, uint32_t coTotal, uint32_t &ho, uint32_t &wo)
    {
        FireStackForwardTiling t{};
        t.mode = MODE_CONV;
        t.n = kBatch; t.ci = ci; t.h = h; t.w = w; t.co = co;
        t.k = k; t.stride = s; t.pad = p;
        t.ho = (h + 2 * p - k) / s + 1;
        t.wo = (w + 2 * p - k) / s + 1;
        t.woPad = Up8(t.wo);
        t.wPad = Up8(w);
        t.coOff = coOff; t.coTotal = coTotal;
        // accumulator budget 64KB
        t.coPerGroup = std::min<uint32_t>(co, (64 * 1024 / sizeof(float)) / t.woPad);
        Stage st{t, x, params + paramOff, params + paramOff + (size_t)co * ci * k * k, y, kCores};
        paramOff += (size_t)co * ci * k * k + co;
        stages.push_back(st);
        ho = t.ho;
        wo = t.wo;
    }

    void MaxPool(float *x, uint32_t c, uint32_t h, uint32_t w, float *y, uint32_t &ho, uint32_t &wo)
    {
        FireStackForwardTiling t{};
        t.mode = MODE_MAXPOOL;
        t.n = kBatch; t.ci = c; t.co = c; t.h = h; t.w = w;
        auto outLen = [](uint32_t len) {
            uint32_t o = (len - 3 + 1) / 2 + 1;        // ceil((len-3)/2)+1
            if ((o - 1) * 2 >= len) {
                --o;                                   // last window must start inside
            }
            return o;
        };
        t.ho = outLen(h);
        t.wo = outLen(w);
        t.woPad = Up8(t.wo);
        t.wPad = Up8(w);
        t.k = 3; t.stride = 2;
        stages.push_back(Stage{t, x, nullptr, nullptr, y, kCores});
        ho = t.ho;
        wo = t.wo;
    }

    void Fire(float *x, uint32_t ci, uint32_t h, uint32_t w, uint32_t sq, uint32_t e1, uint32_t e3,
              float *squeezeBuf, float *y)
    {
        uint32_t ho, wo;
        Conv(x, ci, h, w, sq, 1, 1, 0, squeezeBuf, 0, sq, ho, wo);
        Conv(squeezeBuf, sq, h, w, e1, 1, 1, 0, y, 0, e1 + e3, ho, wo);
        Conv(squeezeBuf, sq, h, w, e3, 3, 1, 1, y, e1, e1 + e3, ho, wo);
    }
};

int main()
{
    // ---------------- parameter count (must match gen_data.py order)
    struct FireCfg { uint32_t ci, sq, e1, e3; };
    const FireCfg fires[8] = {{96, 16, 64, 64},    {128, 16, 64, 64},   {128, 32, 128, 128},
                              {256, 32, 128, 128}, {256, 48, 192, 192}, {384, 48, 192, 192},
                              {384, 64, 256, 256}, {512, 64, 256, 256}};
    size_t nParams = 96 * 3 * 49 + 96;
    for (const auto &f : fires) {
        nParams += (size_t)f.sq * f.ci + f.sq + (size_t)f.e1 * f.sq + f.e1 + (size_t)f.e3 * f.sq * 9 + f.e3;
    }
    nParams += (size_t)kClasses * 512 + kClasses;

    const size_t inElems = (size_t)kBatch * kInC * kInH * kInW;
    const size_t actElems = (size_t)kBatch * 96 * 109 * 109;   // largest activation (after conv1)
    const size_t outElems = (size_t)kBatch * kClasses;

    ACL_CALL(aclInit(nullptr));
    ACL_CALL(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_CALL(aclrtCreateStream(&stream));

    std::vector<float> hIn(inElems), hParams(nParams), hOut(outElems);
    {
        std::ifstream fi("./input/x.bin", std::ios::binary);
        std::ifstream fp("./input/params.bin", std::ios::binary);
        if (!fi || !fp) {
            fprintf(stderr, "missing input files\n");
            return 1;
        }
        fi.read(reinterpret_cast<char *>(hIn.data()), inElems * sizeof(float));
        fp.read(reinterpret_cast<char *>(hParams.data()), nParams * sizeof(float));
    }

    float *dIn, *dParams, *dA, *dB, *dSq, *dOut;
    ACL_CALL(aclrtMalloc((void **)&dIn, inElems * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc((void **)&dParams, nParams * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc((void **)&dA, actElems * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc((void **)&dB, actElems * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc((void **)&dSq, actElems * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc((void **)&dOut, outElems * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMemcpy(dIn, inElems * 4, hIn.data(), inElems * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CALL(aclrtMemcpy(dParams, nParams * 4, hParams.data(), nParams * 4, ACL_MEMCPY_HOST_TO_DEVICE));

    // ---------------- build the stage list
    Net net;
    net.params = dParams;
    net.paramTotal = nParams;
    uint32_t h, w, c;
    net.Conv(dIn, kInC, kInH, kInW, 96, 7, 2, 0, dA, 0, 96, h, w);   // -> A
    c = 96;
    net.MaxPool(dA, c, h, w, dB, h, w);                               // -> B
    float *cur = dB, *nxt = dA;
    for (int i = 0; i < 8; ++i) {
        net.Fire(cur, fires[i].ci, h, w, fires[i].sq, fires[i].e1, fires[i].e3, dSq, nxt);
        std::swap(cur, nxt);
        c = fires[i].e1 + fires[i].e3;
        if (i == 2 || i == 6) {
            net.MaxPool(cur, c, h, w, nxt, h, w);
            std::swap(cur, nxt);
        }
    }
    uint32_t ho, wo;
    net.Conv(cur, c, h, w, kClasses, 1, 1, 0, nxt, 0, kClasses, ho, wo);  // classifier conv + relu
    {
        FireStackForwardTiling t{};
        t.mode = MODE_AVG;
        t.n = kBatch; t.co = kClasses; t.h = ho; t.w = wo;
        net.stages.push_back(Stage{t, nxt, nullptr, nullptr, dOut, std::min<uint32_t>(kBatch, kCores)});
    }
    if (net.paramOff != nParams) {
        fprintf(stderr, "parameter layout mismatch: %zu vs %zu\n", net.paramOff, nParams);
        return 1;
    }

    // all tiling blocks in one device array
    const size_t nStages = net.stages.size();
    std::vector<FireStackForwardTiling> hTil(nStages);
    for (size_t i = 0; i < nStages; ++i) {
        hTil[i] = net.stages[i].t;
    }
    FireStackForwardTiling *dTil;
    const size_t tilBytes = nStages * sizeof(FireStackForwardTiling);
    ACL_CALL(aclrtMalloc((void **)&dTil, tilBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMemcpy(dTil, tilBytes, hTil.data(), tilBytes, ACL_MEMCPY_HOST_TO_DEVICE));

    // ---------------- run; stages are ordered on the single stream
    for (size_t i = 0; i < nStages; ++i) {
        const Stage &s = net.stages[i];
        float *wPtr = s.w ? s.w : dParams;   // pools ignore weight/bias
        float *bPtr = s.b ? s.b : dParams;
        ACLRT_LAUNCH_KERNEL(fire_stack_forward)(s.blocks, stream, s.x, wPtr, bPtr, s.y, dTil + i);
    }
    ACL_CALL(aclrtSynchronizeStream(stream));

    ACL_CALL(aclrtMemcpy(hOut.data(), outElems * 4, dOut, outElems * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(hOut.data()), outElems * sizeof(float));
    printf("ran %zu stages, output [%u, %u]\n", nStages, kBatch, kClasses);

    aclrtFree(dIn); aclrtFree(dParams); aclrtFree(dA); aclrtFree(dB);
    aclrtFree(dSq); aclrtFree(dOut); aclrtFree(dTil);
    ACL_CALL(aclrtDestroyStream(stream));
    ACL_CALL(aclrtResetDevice(0));
    ACL_CALL(aclFinalize());
    return 0;
}
