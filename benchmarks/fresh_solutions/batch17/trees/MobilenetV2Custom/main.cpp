/*
 * Host program: runs the whole inverted-residual classifier by launching the three
 * kernels of invres_net.cpp layer after layer on one stream.
 *
 * params.bin (written by scripts/gen_data.py) holds, in network order, for every conv:
 *   weight (cout x cin/groups x k x k), folded BN scale (cout), folded BN shift (cout)
 * followed by the classifier weight (classes x 1280) and bias (classes).
 */
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_invres_net.h"
#include "aclrtlaunch_invres_net_head.h"
#include "aclrtlaunch_invres_net_spatial.h"

struct InvresNetTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t inH;
    uint32_t inW;
    uint32_t outH;
    uint32_t outW;
    uint32_t stride;
    uint32_t depthwise;
    uint32_t relu6;
    uint32_t residual;
    uint32_t tileHw;
    uint32_t classes;
    uint32_t chanChunk;
};

enum class Op { Spatial, Pointwise };

struct Layer {
    Op op;
    InvresNetTiling t;
    int src, dst, res;  // activation buffer slots, res = -1 when there is no skip
    size_t wOff, bnOff; // float offsets into params
};

#define ACL_TRY(x)                                                         \
    do {                                                                   \
        aclError err_ = (x);                                               \
        if (err_ != ACL_SUCCESS) {                                         \
            printf("%s:%d: %s -> %d\n", __FILE__, __LINE__, #x, (int)err_); \
            return 1;                                                      \
        }                                                                  \
    } while (0)

static constexpr uint32_t BATCH = 2;
static constexpr uint32_t CLASSES = 1000;
static constexpr uint32_t LAST_CH = 1280;
static constexpr uint32_t PW_UB_FLOATS = 24576;  // budget for one pointwise input tile

static InvresNetTiling BaseTiling(uint32_t cin, uint32_t cout, uint32_t h, uint32_t w, uint32_t stride)
{
    InvresNetTiling t{};
    t.batch = BATCH;
    t.cin = cin;
    t.cout = cout;
    t.inH = h;
    t.inW = w;
    t.stride = stride;
    t.outH = (h + 2 - 3) / stride + 1;
    t.outW = (w + 2 - 3) / stride + 1;
    return t;
}

// Builds the layer list in the same order gen_data.py stores parameters.
static std::vector<Layer> BuildNetwork(size_t &paramFloats, uint32_t &featH)
{
    std::vector<Layer> net;
    size_t off = 0;
    auto addParams = [&off](Layer &l, size_t wCount) {
        l.wOff = off;
        off += wCount;
        l.bnOff = off;
        off += 2 * l.t.cout;
    };
    auto pointwise = [&](uint32_t cin, uint32_t cout, uint32_t h, uint32_t w, bool relu, int src, int dst, int res) {
        Layer l{};
        l.op = Op::Pointwise;
        l.t = BaseTiling(cin, cout, h, w, 1);
        l.t.outH = h;
        l.t.outW = w;
        l.t.relu6 = relu ? 1 : 0;
        l.t.residual = res >= 0 ? 1 : 0;
        uint32_t tile = std::max<uint32_t>(8, (PW_UB_FLOATS / cin) / 8 * 8);
        l.t.tileHw = std::min(tile, h * w);
        l.src = src;
        l.dst = dst;
        l.res = res;
        addParams(l, (size_t)cin * cout);
        net.push_back(l);
    };
    auto spatial = [&](uint32_t cin, uint32_t cout, uint32_t h, uint32_t w, uint32_t s, bool dw, int src, int dst) {
        Layer l{};
        l.op = Op::Spatial;
        l.t = BaseTiling(cin, cout, h, w, s);
        l.t.depthwise = dw ? 1 : 0;
        l.t.relu6 = 1;
        l.src = src;
        l.dst = dst;
        l.res = -1;
        addParams(l, (size_t)cout * (dw ? 1 : cin) * 9);
        net.push_back(l);
        return l.t.outH;
    };

    // slot 0 holds the image; the stem writes slot 1
    uint32_t h = 224;
    h = spatial(3, 32, h, h, 2, false, 0, 1);
    int cur = 1;
    uint32_t ch = 32;
    const uint32_t cfg[7][4] = {{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2},
                                {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
    for (auto &c : cfg) {
        for (uint32_t i = 0; i < c[2]; ++i) {
            uint32_t s = (i == 0) ? c[3] : 1;
            uint32_t hidden = ch * c[0];
            int f1 = (cur + 1) % 3, f2 = (cur + 2) % 3;
            bool skip = (s == 1 && ch == c[1]);
            uint32_t outH;
            int outSlot;
            if (c[0] != 1) {
                pointwise(ch, hidden, h, h, true, cur, f1, -1);
                outH = spatial(hidden, hidden, h, h, s, true, f1, f2);
                pointwise(hidden, c[1], outH, outH, false, f2, f1, skip ? cur : -1);
                outSlot = f1;
            } else {
                outH = spatial(hidden, hidden, h, h, s, true, cur, f1);
                pointwise(hidden, c[1], outH, outH, false, f1, f2, skip ? cur : -1);
                outSlot = f2;
            }
            cur = outSlot;
            ch = c[1];
            h = outH;
        }
    }
    pointwise(ch, LAST_CH, h, h, true, cur, (cur + 1) % 3, -1);
    featH = h;
    paramFloats = off;
    return net;
}

int main()
{
    size_t convParams = 0;
    uint32_t featH = 0;
    std::vector<Layer> net = BuildNetwork(convParams, featH);
    size_t totalParams = convParams + (size_t)CLASSES * LAST_CH + CLASSES;

    std::vector<float> image((size_t)BATCH * 3 * 224 * 224), params(totalParams);
    {
        std::ifstream fi("./input/x.bin", std::ios::binary), fp("./input/params.bin", std::ios::binary);
        if (!fi.read(reinterpret_cast<char *>(image.data()), image.size() * 4) ||
            !fp.read(reinterpret_cast<char *>(params.data()), params.size() * 4)) {
            printf("inputs missing or wrong size (expect %zu params)\n", totalParams);
            return 1;
        }
    }

    // largest activation: 96 channels at 112x112 (first expansion)
    size_t actFloats = (size_t)BATCH * 96 * 112 * 112;

    ACL_TRY(aclInit(nullptr));
    ACL_TRY(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_TRY(aclrtCreateStream(&stream));

    void *act[3], *dParams, *dOut, *dTilings;
    for (auto &a : act) {
        ACL_TRY(aclrtMalloc(&a, actFloats * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    }
    ACL_TRY(aclrtMalloc(&dParams, totalParams * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_TRY(aclrtMalloc(&dOut, (size_t)BATCH * CLASSES * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_TRY(aclrtMemcpy(act[0], image.size() * 4, image.data(), image.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_TRY(aclrtMemcpy(dParams, totalParams * 4, params.data(), totalParams * 4, ACL_MEMCPY_HOST_TO_DEVICE));

    // all tilings (layers + head) in one device array
    InvresNetTiling head{};
    head.batch = BATCH;
    head.cin = LAST_CH;
    head.inH = featH;
    head.inW = featH;
    head.classes = CLASSES;
    head.chanChunk = 64;
    std::vector<InvresNetTiling> tilings;
    for (auto &l : net) {
        tilings.push_back(l.t);
    }
    tilings.push_back(head);
    size_t tBytes = tilings.size() * sizeof(InvresNetTiling);
    ACL_TRY(aclrtMalloc(&dTilings, tBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_TRY(aclrtMemcpy(dTilings, tBytes, tilings.data(), tBytes, ACL_MEMCPY_HOST_TO_DEVICE));

    const uint32_t blockDim = 48;
    auto *pBase = static_cast<uint8_t *>(dParams);
    auto *tBase = static_cast<uint8_t *>(dTilings);
    int lastSlot = 0;
    for (size_t i = 0; i < net.size(); ++i) {
        const Layer &l = net[i];
        uint8_t *w = pBase + l.wOff * 4;
        uint8_t *bn = pBase + l.bnOff * 4;
        uint8_t *t = tBase + i * sizeof(InvresNetTiling);
        if (l.op == Op::Spatial) {
            ACLRT_LAUNCH_KERNEL(invres_net_spatial)(blockDim, stream, act[l.src], w, bn, act[l.dst], t);
        } else {
            void *res = l.res >= 0 ? act[l.res] : act[l.src];  // unused when residual == 0
            ACLRT_LAUNCH_KERNEL(invres_net)(blockDim, stream, act[l.src], w, bn, res, act[l.dst], t);
        }
        lastSlot = l.dst;
    }
    uint8_t *fcW = pBase + convParams * 4;
    uint8_t *fcB = fcW + (size_t)CLASSES * LAST_CH * 4;
    ACLRT_LAUNCH_KERNEL(invres_net_head)(blockDim, stream, act[lastSlot], fcW, fcB, dOut,
                                         tBase + net.size() * sizeof(InvresNetTiling));
    ACL_TRY(aclrtSynchronizeStream(stream));

    std::vector<float> logits((size_t)BATCH * CLASSES);
    ACL_TRY(aclrtMemcpy(logits.data(), logits.size() * 4, dOut, logits.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(logits.data()), logits.size() * 4);
    printf("%zu conv layers + head executed\n", net.size());

    for (auto &a : act) {
        aclrtFree(a);
    }
    aclrtFree(dParams);
    aclrtFree(dOut);
    aclrtFree(dTilings);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
