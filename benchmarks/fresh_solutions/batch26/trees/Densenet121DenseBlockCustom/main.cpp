#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_growth_concat_block.h"

struct GrowthConcatBlockTiling {
    uint32_t n, totalC, inC, growth, h, w, wAlign;
};

#define ACL_CALL(x) do { if ((x) != ACL_SUCCESS) { printf("ACL call failed: %s\n", #x); return -1; } } while (0)

static std::vector<float> ReadFile(const std::string &p, size_t n)
{
    std::vector<float> v(n);
    std::ifstream f(p, std::ios::binary);
    f.read(reinterpret_cast<char *>(v.data()), n * sizeof(float));
    return v;
}

int main()
{
    const uint32_t N = 10, C0 = 32, G = 32, LAYERS = 6, H = 224, W = 224;
    const uint32_t CT = C0 + LAYERS * G;            // 224 output channels
    const uint32_t blockDim = 40;
    const size_t plane = (size_t)H * W;

    ACL_CALL(aclInit(nullptr));
    ACL_CALL(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_CALL(aclrtCreateStream(&stream));

    // shared feature buffer [N, CT, H, W]; the block input fills channels [0, C0)
    size_t featBytes = (size_t)N * CT * plane * sizeof(float);
    void *feat = nullptr;
    ACL_CALL(aclrtMalloc(&feat, featBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    std::vector<float> x = ReadFile("input/x.bin", (size_t)N * C0 * plane);
    for (uint32_t b = 0; b < N; ++b) {
        size_t bytes = C0 * plane * sizeof(float);
        ACL_CALL(aclrtMemcpy((char *)feat + (size_t)b * CT * plane * sizeof(float), bytes,
                             x.data() + (size_t)b * C0 * plane, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    }

    std::vector<void *> owned;
    for (uint32_t l = 0; l < LAYERS; ++l) {
        uint32_t cin = C0 + l * G;
        std::string pre = "input/layer" + std::to_string(l);
        std::vector<float> w = ReadFile(pre + "_w.bin", (size_t)G * cin * 9);
        std::vector<float> sc = ReadFile(pre + "_scale.bin", cin);
        std::vector<float> sh = ReadFile(pre + "_shift.bin", cin);
        GrowthConcatBlockTiling t{N, CT, cin, G, H, W, (W + 7) / 8 * 8};

        void *dw, *dsc, *dsh, *dt;
        ACL_CALL(aclrtMalloc(&dw, w.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
        ACL_CALL(aclrtMalloc(&dsc, cin * 4, ACL_MEM_MALLOC_HUGE_FIRST));
        ACL_CALL(aclrtMalloc(&dsh, cin * 4, ACL_MEM_MALLOC_HUGE_FIRST));
        ACL_CALL(aclrtMalloc(&dt, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
        ACL_CALL(aclrtMemcpy(dw, w.size() * 4, w.data(), w.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
        ACL_CALL(aclrtMemcpy(dsc, cin * 4, sc.data(), cin * 4, ACL_MEMCPY_HOST_TO_DEVICE));
        ACL_CALL(aclrtMemcpy(dsh, cin * 4, sh.data(), cin * 4, ACL_MEMCPY_HOST_TO_DEVICE));
        ACL_CALL(aclrtMemcpy(dt, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

        // layers run back to back on one stream: layer l reads what layers < l wrote
        ACLRT_LAUNCH_KERNEL(growth_concat_block)(blockDim, stream, feat, dw, dsc, dsh, dt);
        owned.insert(owned.end(), {dw, dsc, dsh, dt});
    }
    ACL_CALL(aclrtSynchronizeStream(stream));

    std::vector<float> out((size_t)N * CT * plane);
    ACL_CALL(aclrtMemcpy(out.data(), featBytes, feat, featBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(out.data()), featBytes);

    for (void *p : owned) aclrtFree(p);
    aclrtFree(feat);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
