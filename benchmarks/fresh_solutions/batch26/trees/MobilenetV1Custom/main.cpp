/*
 * Host driver: runs the full separable classifier by chaining the three device kernels.
 * Weights (with batch norm already folded into per-channel scale/shift) come from ./input.
 */
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_depthsep_classifier.h"
#include "aclrtlaunch_depthsep_classifier_pw.h"
#include "aclrtlaunch_depthsep_classifier_head.h"

#define ACL_CHECK(expr)                                                              \
    do {                                                                             \
        aclError _e = (expr);                                                        \
        if (_e != ACL_SUCCESS) {                                                     \
            fprintf(stderr, "%s failed with %d at line %d\n", #expr, _e, __LINE__);  \
            return 1;                                                                \
        }                                                                            \
    } while (0)

struct DepthsepClassifierTiling {
    uint32_t batch, inC, outC, inH, inW, outH, outW, stride, cinPerGroup, hwTile, coGroup, numClasses;
};

static std::vector<float> ReadFloats(const std::string &path, size_t count)
{
    std::vector<float> buf(count);
    std::ifstream f(path, std::ios::binary);
    if (!f || !f.read(reinterpret_cast<char *>(buf.data()), count * sizeof(float))) {
        fprintf(stderr, "cannot read %s\n", path.c_str());
    }
    return buf;
}

static void *ToDevice(const std::vector<float> &host)
{
    void *dev = nullptr;
    aclrtMalloc(&dev, host.size() * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dev, host.size() * sizeof(float), host.data(), host.size() * sizeof(float),
                ACL_MEMCPY_HOST_TO_DEVICE);
    return dev;
}

static void *TilingToDevice(const DepthsepClassifierTiling &t)
{
    void *dev = nullptr;
    aclrtMalloc(&dev, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dev, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE);
    return dev;
}

int main()
{
    const uint32_t N = 10, IMG = 224, NUM_CLASSES = 1000, CORES = 40;
    // separable stages: {in, out, stride}
    const uint32_t stages[13][3] = {
        {32, 64, 1},   {64, 128, 2},  {128, 128, 1}, {128, 256, 2}, {256, 256, 1},
        {256, 512, 2}, {512, 512, 1}, {512, 512, 1}, {512, 512, 1}, {512, 512, 1},
        {512, 512, 1}, {512, 1024, 2}, {1024, 1024, 1}};

    ACL_CHECK(aclInit(nullptr));
    ACL_CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    ACL_CHECK(aclrtCreateStream(&stream));

    // two ping-pong activation buffers, sized for the largest activation (N x 64 x 112 x 112)
    size_t maxAct = (size_t)N * 64 * 112 * 112;
    void *act[2] = {nullptr, nullptr};
    ACL_CHECK(aclrtMalloc(&act[0], maxAct * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CHECK(aclrtMalloc(&act[1], maxAct * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    void *tmp = nullptr;   // depthwise output inside a stage
    ACL_CHECK(aclrtMalloc(&tmp, maxAct * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));

    std::vector<float> x = ReadFloats("./input/x.bin", (size_t)N * 3 * IMG * IMG);
    ACL_CHECK(aclrtMemcpy(act[0], x.size() * sizeof(float), x.data(), x.size() * sizeof(float),
                          ACL_MEMCPY_HOST_TO_DEVICE));
    std::vector<void *> toFree;

    // ---- stem: dense 3x3 stride 2, 3 -> 32
    uint32_t h = IMG;
    {
        DepthsepClassifierTiling t{N, 3, 32, h, h, h / 2, h / 2, 2, 3, 0, 0, 0};
        void *w = ToDevice(ReadFloats("./input/stem_w.bin", 32 * 3 * 9));
        void *sc = ToDevice(ReadFloats("./input/stem_scale.bin", 32));
        void *sh = ToDevice(ReadFloats("./input/stem_shift.bin", 32));
        void *td = TilingToDevice(t);
        ACLRT_LAUNCH_KERNEL(depthsep_classifier)(CORES, stream, act[0], w, sc, sh, act[1], td);
        toFree.insert(toFree.end(), {w, sc, sh, td});
        h /= 2;
    }
    int cur = 1;

    // ---- 13 depthwise-separable stages
    for (int s = 0; s < 13; ++s) {
        uint32_t cin = stages[s][0], cout = stages[s][1], st = stages[s][2];
        uint32_t oh = (h + 2 - 3) / st + 1;
        std::string p = "./input/s" + std::to_string(s);

        DepthsepClassifierTiling dw{N, cin, cin, h, h, oh, oh, st, 1, 0, 0, 0};
        void *dwW = ToDevice(ReadFloats(p + "_dw_w.bin", cin * 9));
        void *dwSc = ToDevice(ReadFloats(p + "_dw_scale.bin", cin));
        void *dwSh = ToDevice(ReadFloats(p + "_dw_shift.bin", cin));
        void *dwT = TilingToDevice(dw);
        ACLRT_LAUNCH_KERNEL(depthsep_classifier)(CORES, stream, act[cur], dwW, dwSc, dwSh, tmp, dwT);

        uint32_t hw = oh * oh;
        uint32_t tile = hw < 2048 ? (hw + 7) / 8 * 8 : 2048;
        DepthsepClassifierTiling pw{N, cin, cout, oh, oh, oh, oh, 1, 1, tile, 8, 0};
        void *pwW = ToDevice(ReadFloats(p + "_pw_w.bin", cout * cin));
        void *pwSc = ToDevice(ReadFloats(p + "_pw_scale.bin", cout));
        void *pwSh = ToDevice(ReadFloats(p + "_pw_shift.bin", cout));
        void *pwT = TilingToDevice(pw);
        ACLRT_LAUNCH_KERNEL(depthsep_classifier_pw)(CORES, stream, tmp, pwW, pwSc, pwSh, act[1 - cur], pwT);

        toFree.insert(toFree.end(), {dwW, dwSc, dwSh, dwT, pwW, pwSc, pwSh, pwT});
        cur = 1 - cur;
        h = oh;
    }

    // ---- head: 7x7 average pool + linear 1024 -> 1000
    void *logits = nullptr;
    size_t outCount = (size_t)N * NUM_CLASSES;
    ACL_CHECK(aclrtMalloc(&logits, outCount * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    {
        DepthsepClassifierTiling t{N, 1024, NUM_CLASSES, h, h, 1, 1, 1, 1, 0, 0, NUM_CLASSES};
        void *fw = ToDevice(ReadFloats("./input/fc_w.bin", (size_t)NUM_CLASSES * 1024));
        void *fb = ToDevice(ReadFloats("./input/fc_b.bin", NUM_CLASSES));
        void *td = TilingToDevice(t);
        ACLRT_LAUNCH_KERNEL(depthsep_classifier_head)(CORES, stream, act[cur], fw, fb, logits, td);
        toFree.insert(toFree.end(), {fw, fb, td});
    }
    ACL_CHECK(aclrtSynchronizeStream(stream));

    std::vector<float> out(outCount);
    ACL_CHECK(aclrtMemcpy(out.data(), outCount * sizeof(float), logits, outCount * sizeof(float),
                          ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(out.data()), outCount * sizeof(float));

    for (void *ptr : toFree) aclrtFree(ptr);
    aclrtFree(act[0]);
    aclrtFree(act[1]);
    aclrtFree(tmp);
    aclrtFree(logits);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
