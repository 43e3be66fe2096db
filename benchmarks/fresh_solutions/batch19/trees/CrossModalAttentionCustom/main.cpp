/*
 * main.cpp - host driver for text_image_attend.
 * text (4, 32, 256), img (4, 196, 512), 8 heads -> out (4, 32, 256)
 *
 * Launch sequence (one stream): 5 dense layers + attention core + output dense layer.
 * All weights are provided pre-transposed as (in_features, out_features).
 */
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_text_image_attend.h"
#include "aclrtlaunch_text_image_attend_linear.h"

#define CK(x)                                                                   \
    do {                                                                        \
        aclError r__ = (x);                                                     \
        if (r__ != ACL_SUCCESS) {                                               \
            printf("%s:%d %s -> %d\n", __FILE__, __LINE__, #x, (int)r__);        \
            return 1;                                                           \
        }                                                                       \
    } while (0)

struct TextImageAttendLinearTiling {
    uint32_t rows, inF, outF, rowBlock, kChunk, blocksPerCore;
};

struct TextImageAttendTiling {
    uint32_t batch, lenQ, lenKV, embed, heads, headDim, lenKVAlign;
    float scale;
};

static void *ToDevice(const void *host, size_t bytes)
{
    void *d = nullptr;
    if (aclrtMalloc(&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return nullptr;
    if (host != nullptr) {
        aclrtMemcpy(d, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    }
    return d;
}

static std::vector<float> LoadF32(const std::string &path, size_t count)
{
    std::vector<float> v(count);
    std::ifstream f(path, std::ios::binary);
    if (!f) printf("warning: %s missing\n", path.c_str());
    f.read(reinterpret_cast<char *>(v.data()), count * sizeof(float));
    return v;
}

int main()
{
    const uint32_t B = 4, LT = 32, LI = 196, ET = 256, EI = 512, H = 8;
    const uint32_t coreNum = 32;

    CK(aclInit(nullptr));
    CK(aclrtSetDevice(0));
    aclrtStream stream;
    CK(aclrtCreateStream(&stream));

    // inputs and parameters
    auto text = LoadF32("./input/text.bin", (size_t)B * LT * ET);
    auto img = LoadF32("./input/img.bin", (size_t)B * LI * EI);
    const char *names[] = {"q_proj", "kv_proj", "in_q", "in_k", "in_v", "out"};
    const uint32_t inDims[] = {ET, EI, ET, ET, ET, ET};
    void *dW[6], *dB[6];
    for (int i = 0; i < 6; ++i) {
        auto w = LoadF32(std::string("./input/") + names[i] + "_wt.bin", (size_t)inDims[i] * ET);
        auto b = LoadF32(std::string("./input/") + names[i] + "_b.bin", ET);
        dW[i] = ToDevice(w.data(), w.size() * sizeof(float));
        dB[i] = ToDevice(b.data(), b.size() * sizeof(float));
    }
    void *dText = ToDevice(text.data(), text.size() * sizeof(float));
    void *dImg = ToDevice(img.data(), img.size() * sizeof(float));

    const size_t tBytes = (size_t)B * LT * ET * sizeof(float);
    const size_t iBytes = (size_t)B * LI * ET * sizeof(float);
    void *dQ0 = ToDevice(nullptr, tBytes), *dKV = ToDevice(nullptr, iBytes);
    void *dQ = ToDevice(nullptr, tBytes), *dK = ToDevice(nullptr, iBytes), *dV = ToDevice(nullptr, iBytes);
    void *dAttn = ToDevice(nullptr, tBytes), *dOut = ToDevice(nullptr, tBytes);

    // dense-layer tilings: 8-row blocks, 32 weight rows per streamed chunk
    auto makeLin = [&](uint32_t rows, uint32_t inF) {
        TextImageAttendLinearTiling t{rows, inF, ET, 8, 32, 0};
        uint32_t blocks = (rows + t.rowBlock - 1) / t.rowBlock;
        t.blocksPerCore = (blocks + coreNum - 1) / coreNum;
        return t;
    };
    TextImageAttendLinearTiling linText = makeLin(B * LT, ET);
    TextImageAttendLinearTiling linImg = makeLin(B * LI, EI);
    TextImageAttendLinearTiling linKV = makeLin(B * LI, ET);
    void *dLinText = ToDevice(&linText, sizeof(linText));
    void *dLinImg = ToDevice(&linImg, sizeof(linImg));
    void *dLinKV = ToDevice(&linKV, sizeof(linKV));

    TextImageAttendTiling at{B, LT, LI, ET, H, ET / H, (LI + 7) / 8 * 8, 1.0f / std::sqrt((float)(ET / H))};
    void *dAt = ToDevice(&at, sizeof(at));

    ACLRT_LAUNCH_KERNEL(text_image_attend_linear)(coreNum, stream, dText, dW[0], dB[0], dQ0, dLinText);
    ACLRT_LAUNCH_KERNEL(text_image_attend_linear)(coreNum, stream, dImg, dW[1], dB[1], dKV, dLinImg);
    ACLRT_LAUNCH_KERNEL(text_image_attend_linear)(coreNum, stream, dQ0, dW[2], dB[2], dQ, dLinText);
    ACLRT_LAUNCH_KERNEL(text_image_attend_linear)(coreNum, stream, dKV, dW[3], dB[3], dK, dLinKV);
    ACLRT_LAUNCH_KERNEL(text_image_attend_linear)(coreNum, stream, dKV, dW[4], dB[4], dV, dLinKV);
    ACLRT_LAUNCH_KERNEL(text_image_attend)(B * H, stream, dQ, dK, dV, dAttn, dAt);
    ACLRT_LAUNCH_KERNEL(text_image_attend_linear)(coreNum, stream, dAttn, dW[5], dB[5], dOut, dLinText);
    CK(aclrtSynchronizeStream(stream));

    std::vector<float> out((size_t)B * LT * ET);
    CK(aclrtMemcpy(out.data(), tBytes, dOut, tBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/out.bin", std::ios::binary).write(reinterpret_cast<char *>(out.data()), tBytes);

    void *all[] = {dText, dImg, dQ0, dKV, dQ, dK, dV, dAttn, dOut, dLinText, dLinImg, dLinKV, dAt};
    for (void *p : all) aclrtFree(p);
    for (int i = 0; i < 6; ++i) {
        aclrtFree(dW[i]);
        aclrtFree(dB[i]);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
