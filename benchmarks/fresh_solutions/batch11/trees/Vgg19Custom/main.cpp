// stacked_3x3_classifier host: 10 images 224x224 -> 1000 scores.
// Activations live in NHWC. Each 3x3 conv = unfold (per image) + GEMM with bias/ReLU epilogue.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_stacked_3x3_classifier.h"
#include "aclrtlaunch_stacked_3x3_classifier_unfold.h"
#include "aclrtlaunch_stacked_3x3_classifier_pool.h"

struct Stacked3x3ClassifierTiling {
    uint32_t images, height, width, channels;
};

namespace {
const uint32_t kImages = 10;
const uint32_t kInChannels = 8;   // RGB zero-padded to 8 so every pixel is a whole 32-byte block
const int kConvCfg[] = {64, 64, -1, 128, 128, -1, 256, 256, 256, 256, -1, 512, 512, 512, 512, -1,
                        512, 512, 512, 512, -1};  // -1 = 2x2 max pool
const uint32_t kFc[] = {7 * 7 * 512, 4096, 4096, 1000};
const uint32_t kVec = 40;

std::vector<float> Load(const std::string &name, size_t count)
{
    std::vector<float> v(count);
    std::ifstream f("./input/" + name, std::ios::binary);
    if (!f.read(reinterpret_cast<char *>(v.data()), count * sizeof(float))) {
        fprintf(stderr, "bad file %s\n", name.c_str());
        v.clear();
    }
    return v;
}

struct Dev {
    std::vector<void *> ptrs;
    float *Get(size_t elems)
    {
        void *p = nullptr;
        aclrtMalloc(&p, elems * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
        ptrs.push_back(p);
        return static_cast<float *>(p);
    }
    void *Bytes(const void *host, size_t bytes)
    {
        void *p = nullptr;
        aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemcpy(p, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
        ptrs.push_back(p);
        return p;
    }
    float *Put(const std::vector<float> &h) { return static_cast<float *>(Bytes(h.data(), h.size() * sizeof(float))); }
    ~Dev()
    {
        for (void *p : ptrs) {
            aclrtFree(p);
        }
    }
};

// GEMM tiling + relu flag, packed the way the kernel reads it
void *GemmTiling(Dev &dev, uint32_t m, uint32_t n, uint32_t k, bool relu, uint32_t &blockDim)
{
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    matmul_tiling::MultiCoreMatmulTiling tiler(*plat);
    tiler.SetDim(plat->GetCoreNumAic());
    tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetShape(m, n, k);
    tiler.SetOrgShape(m, n, k);
    tiler.SetBias(true);
    tiler.SetFixSplit(m < 128 ? 16 : 128, 128, -1);
    tiler.SetTraverse(matmul_tiling::MatrixTraverse::FIRSTM);
    tiler.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling cube;
    if (tiler.GetTiling(cube) == -1) {
        fprintf(stderr, "no tiling for %u x %u x %u\n", m, n, k);
        return nullptr;
    }
    std::vector<uint8_t> blob(cube.GetDataSize() + sizeof(uint32_t));
    cube.SaveToBuffer(blob.data(), cube.GetDataSize());
    uint32_t flag = relu ? 1u : 0u;
    memcpy(blob.data() + cube.GetDataSize(), &flag, sizeof(flag));
    blockDim = cube.get_usedCoreNum();
    return dev.Bytes(blob.data(), blob.size());
}
} // namespace

int main()
{
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream;
    aclrtCreateStream(&stream);
    int status = 0;
    {
        Dev dev;
        auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
        void *workspace = dev.Get(plat->GetLibApiWorkSpaceSize() / sizeof(float) + 8);

        std::vector<float> img = Load("image_nhwc.bin", (size_t)kImages * 224 * 224 * kInChannels);
        if (img.empty()) {
            return 1;
        }
        float *cur = dev.Put(img);

        // largest buffers: one activation at 224x224x64, one unfold of 224*224 rows x 9*64
        const size_t actElems = (size_t)kImages * 224 * 224 * 64;
        float *bufA = dev.Get(actElems);
        float *bufB = dev.Get(actElems);
        float *patches = dev.Get((size_t)224 * 224 * 9 * 64);

        uint32_t h = 224, w = 224, c = kInChannels;
        int convIdx = 0;
        float *dst = bufA;
        for (int op : kConvCfg) {
            if (op < 0) {
                Stacked3x3ClassifierTiling pt{kImages, h, w, c};
                ACLRT_LAUNCH_KERNEL(stacked_3x3_classifier_pool)(kVec, stream, cur, dst,
                                                                dev.Bytes(&pt, sizeof(pt)));
                h /= 2;
                w /= 2;
            } else {
                const uint32_t cout = static_cast<uint32_t>(op);
                const uint32_t k = 9 * c;
                std::string tag = "conv" + std::to_string(convIdx);
                float *wt = dev.Put(Load(tag + "_w.bin", (size_t)k * cout));   // (kh, kw, cin) x cout
                float *bs = dev.Put(Load(tag + "_b.bin", cout));
                Stacked3x3ClassifierTiling ut{1, h, w, c};
                void *unfoldTiling = dev.Bytes(&ut, sizeof(ut));
                uint32_t gemmBlocks = 0;
                void *gemmTiling = GemmTiling(dev, h * w, cout, k, true, gemmBlocks);
                if (gemmTiling == nullptr) {
                    return 1;
                }
                for (uint32_t n = 0; n < kImages; ++n) {
                    ACLRT_LAUNCH_KERNEL(stacked_3x3_classifier_unfold)(kVec, stream, cur + (size_t)n * h * w * c,
                                                                      patches, unfoldTiling);
                    ACLRT_LAUNCH_KERNEL(stacked_3x3_classifier)(gemmBlocks, stream, patches, wt, bs,
                                                                dst + (size_t)n * h * w * cout, workspace,
                                                                gemmTiling);
                }
                c = cout;
                ++convIdx;
            }
            cur = dst;
            dst = (dst == bufA) ? bufB : bufA;
        }

        // classifier head on the flattened (7, 7, 512) features; fc0 rows were permuted to NHWC order
        float *hidden = cur;
        for (int i = 0; i < 3; ++i) {
            std::string tag = "fc" + std::to_string(i);
            float *wt = dev.Put(Load(tag + "_w.bin", (size_t)kFc[i] * kFc[i + 1]));
            float *bs = dev.Put(Load(tag + "_b.bin", kFc[i + 1]));
            uint32_t blocks = 0;
            void *tl = GemmTiling(dev, kImages, kFc[i + 1], kFc[i], i < 2, blocks);
            if (tl == nullptr) {
                return 1;
            }
            float *out = (hidden == bufA) ? bufB : bufA;
            ACLRT_LAUNCH_KERNEL(stacked_3x3_classifier)(blocks, stream, hidden, wt, bs, out, workspace, tl);
            hidden = out;
        }

        if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
            fprintf(stderr, "execution failed\n");
            status = 1;
        } else {
            std::vector<float> scores(kImages * kFc[3]);
            aclrtMemcpy(scores.data(), scores.size() * sizeof(float), hidden, scores.size() * sizeof(float),
                        ACL_MEMCPY_DEVICE_TO_HOST);
            std::ofstream("./output/output.bin", std::ios::binary)
                .write(reinterpret_cast<const char *>(scores.data()), scores.size() * sizeof(float));
            printf("scores[0][0..2] = %f %f %f\n", scores[0], scores[1], scores[2]);
        }
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return status;
}
