/*
 * Host driver for dense_growth_net: a densely connected CNN (growth 32, blocks 6/12/48/32,
 * BN uses the statistics of the current batch), batch 10 at 224x224 -> 10 logits per image.
 *
 * Convolutions are lowered to im2col + cube GEMM per image. The GEMM writes a layer's 32 new
 * channels straight into their slot in the block's wide buffer, so concatenation costs nothing.
 * In the transition layers the 2x2 average pool runs before the 1x1 conv. Both are linear, so
 * the result is the same, and the GEMM is 4x smaller.
 */
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "aclrtlaunch_dense_growth_net.h"
#include "aclrtlaunch_dense_growth_net_bnrelu.h"
#include "aclrtlaunch_dense_growth_net_im2col.h"
#include "aclrtlaunch_dense_growth_net_pool.h"
#include "aclrtlaunch_dense_growth_net_gap.h"

struct DenseGrowthNetTiling {
    uint32_t batch, channels, height, width, srcChannels, dstChannels;
    uint32_t kernel, stride, pad, outH, outW, rowsPerChunk, poolMode, tileLen;
    float eps;
};

static const uint32_t kBatch = 10;
static const uint32_t kImg = 224;
static const uint32_t kGrowth = 32;
static const uint32_t kClasses = 10;
static const uint32_t kBlocks[4] = {6, 12, 48, 32};
static const uint32_t kVecCores = 40;

class Runner {
public:
    explicit Runner(aclrtStream s) : stream(s)
    {
        plat = platform_ascendc::PlatformAscendCManager::GetInstance();
        wsBytes = plat->GetLibApiWorkSpaceSize();
        workspace = Alloc(wsBytes);
    }
    ~Runner()
    {
        for (void *p : owned) {
            aclrtFree(p);
        }
    }

    float *Alloc(size_t bytes)
    {
        void *p = nullptr;
        aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        owned.push_back(p);
        return static_cast<float *>(p);
    }

    float *Upload(const std::vector<float> &h)
    {
        float *d = Alloc(h.size() * sizeof(float));
        aclrtMemcpy(d, h.size() * sizeof(float), h.data(), h.size() * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
        return d;
    }

    void *VecTiling(const DenseGrowthNetTiling &t)
    {
        void *d = Alloc(sizeof(t));
        aclrtMemcpy(d, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE);
        return d;
    }

    // C[M,N] = A[M,K] * B[K,N] (+ bias)
    void Gemm(const float *a, const float *b, const float *bias, float *c, uint32_t m, uint32_t n, uint32_t k)
    {
        auto key = std::make_tuple(m, n, k, bias != nullptr);
        auto it = gemmTilings.find(key);
        if (it == gemmTilings.end()) {
            matmul_tiling::MultiCoreMatmulTiling api(*plat);
            api.SetDim(plat->GetCoreNumAic());
            api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
            api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
            api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
            api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
            api.SetShape(m, n, k);
            api.SetOrgShape(m, n, k);
            api.SetBias(bias != nullptr);
            api.SetBufferSpace(-1, -1, -1);
            optiling::TCubeTiling tc;
            if (api.GetTiling(tc) == -1) {
                fprintf(stderr, "gemm tiling failed: %u %u %u\n", m, n, k);
                return;
            }
            std::vector<uint8_t> blob(tc.GetDataSize());
            tc.SaveToBuffer(blob.data(), blob.size());
            void *d = Alloc(blob.size());
            aclrtMemcpy(d, blob.size(), blob.data(), blob.size(), ACL_MEMCPY_HOST_TO_DEVICE);
            it = gemmTilings.emplace(key, std::make_pair(d, (uint32_t)tc.get_usedCoreNum())).first;
        }
        ACLRT_LAUNCH_KERNEL(dense_growth_net)(it->second.second, stream, (void *)a, (void *)b, (void *)bias, c,
                                              workspace, it->second.first);
    }

    // normalise `ch` channels of x (channel stride srcC) into y (channel stride dstC)
    void BnRelu(const float *x, const float *gamma, const float *beta, float *y, uint32_t ch, uint32_t h,
                uint32_t w, uint32_t srcC, uint32_t dstC)
    {
        DenseGrowthNetTiling t{};
        t.batch = kBatch;
        t.channels = ch;
        t.height = h;
        t.width = w;
        t.srcChannels = srcC;
        t.dstChannels = dstC;
        t.tileLen = 4096;
        t.eps = 1e-5f;
        ACLRT_LAUNCH_KERNEL(dense_growth_net_bnrelu)(kVecCores, stream, (void *)x, (void *)gamma, (void *)beta, y,
                                                     VecTiling(t));
    }

    void Pool(const float *x, float *y, uint32_t ch, uint32_t h, uint32_t w, uint32_t dstC, uint32_t k,
              uint32_t s, uint32_t p, uint32_t mode)
    {
        DenseGrowthNetTiling t = Window(ch, h, w, k, s, p);
        t.batch = kBatch;
        t.dstChannels = dstC;
        t.poolMode = mode;
        ACLRT_LAUNCH_KERNEL(dense_growth_net_pool)(kVecCores, stream, (void *)x, y, VecTiling(t));
    }

    // conv (no bias) of one image via im2col + GEMM; out is the (cout, oh*ow) block of that image
    void Conv(const float *img, const float *weight, float *out, float *cols, uint32_t cin, uint32_t h, uint32_t w,
              uint32_t cout, uint32_t k, uint32_t s, uint32_t p, void *im2colTiling)
    {
        uint32_t oh = (h + 2 * p - k) / s + 1;
        uint32_t ow = (w + 2 * p - k) / s + 1;
        ACLRT_LAUNCH_KERNEL(dense_growth_net_im2col)(kVecCores, stream, (void *)img, cols, im2colTiling);
        Gemm(weight, cols, nullptr, out, cout, oh * ow, cin * k * k);
    }

    void *Im2colTiling(uint32_t cin, uint32_t h, uint32_t w, uint32_t k, uint32_t s, uint32_t p)
    {
        DenseGrowthNetTiling t = Window(cin, h, w, k, s, p);
        t.batch = 1;
        return VecTiling(t);
    }

    void Gap(const float *x, float *y, uint32_t ch, uint32_t h, uint32_t w)
    {
        DenseGrowthNetTiling t{};
        t.batch = kBatch;
        t.channels = ch;
        t.height = h;
        t.width = w;
        ACLRT_LAUNCH_KERNEL(dense_growth_net_gap)(kBatch, stream, (void *)x, y, VecTiling(t));
    }

private:
    static DenseGrowthNetTiling Window(uint32_t ch, uint32_t h, uint32_t w, uint32_t k, uint32_t s, uint32_t p)
    {
        DenseGrowthNetTiling t{};
        t.channels = ch;
        t.height = h;
        t.width = w;
        t.srcChannels = ch;
        t.dstChannels = ch;
        t.kernel = k;
        t.stride = s;
        t.pad = p;
        t.outH = (h + 2 * p - k) / s + 1;
        t.outW = (w + 2 * p - k) / s + 1;
        uint32_t r = 2048 / t.outW;
        r = r == 0 ? 1 : r;
        t.rowsPerChunk = r < t.outH ? r : t.outH;
        return t;
    }

    aclrtStream stream;
    platform_ascendc::PlatformAscendC *plat;
    size_t wsBytes;
    void *workspace;
    std::vector<void *> owned;
    std::map<std::tuple<uint32_t, uint32_t, uint32_t, bool>, std::pair<void *, uint32_t>> gemmTilings;
};

static std::vector<float> ReadFloats(const std::string &path)
{
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    std::vector<float> v;
    if (!f) {
        fprintf(stderr, "missing %s\n", path.c_str());
        return v;
    }
    size_t bytes = f.tellg();
    f.seekg(0);
    v.resize(bytes / sizeof(float));
    f.read(reinterpret_cast<char *>(v.data()), bytes);
    return v;
}

int main()
{
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream;
    aclrtCreateStream(&stream);
    int rc = 0;
    {
        Runner rt(stream);
        std::vector<float> hImg = ReadFloats("./input/image.bin");
        std::vector<float> hConv = ReadFloats("./input/conv_weights.bin");  // all convs, in network order
        std::vector<float> hBn = ReadFloats("./input/bn_params.bin");       // gamma|beta per BN, in order
        std::vector<float> hFcW = ReadFloats("./input/fc_w_t.bin");         // (1920, 10)
        std::vector<float> hFcB = ReadFloats("./input/fc_b.bin");
        if (hImg.empty() || hConv.empty() || hBn.empty() || hFcW.empty() || hFcB.empty()) {
            return 1;
        }
        const float *img = rt.Upload(hImg);
        const float *convW = rt.Upload(hConv);
        const float *bnP = rt.Upload(hBn);
        const float *fcW = rt.Upload(hFcW);
        const float *fcB = rt.Upload(hFcB);
        size_t wOff = 0;
        size_t bnOff = 0;
        auto nextConv = [&](size_t count) { const float *p = convW + wOff; wOff += count; return p; };
        auto nextBn = [&](uint32_t ch, const float **g, const float **b) {
            *g = bnP + bnOff;
            *b = bnP + bnOff + ch;
            bnOff += 2 * ch;
        };

        // scratch: im2col columns and the normalised activations
        float *cols = rt.Alloc((size_t)8 * 1024 * 1024 * sizeof(float));
        float *act = rt.Alloc((size_t)kBatch * 64 * 112 * 112 * sizeof(float));
        float *pooled = rt.Alloc((size_t)kBatch * 256 * 28 * 28 * sizeof(float) * 2);

        // ---- stem: conv7x7/2 -> BN -> ReLU -> maxpool3x3/2
        float *stem = rt.Alloc((size_t)kBatch * 64 * 112 * 112 * sizeof(float));
        const float *w0 = nextConv(64 * 3 * 49);
        void *tStem = rt.Im2colTiling(3, kImg, kImg, 7, 2, 3);
        for (uint32_t n = 0; n < kBatch; ++n) {
            rt.Conv(img + (size_t)n * 3 * kImg * kImg, w0, stem + (size_t)n * 64 * 112 * 112, cols, 3, kImg, kImg,
                    64, 7, 2, 3, tStem);
        }
        const float *g, *b;
        nextBn(64, &g, &b);
        rt.BnRelu(stem, g, b, act, 64, 112, 112, 64, 64);

        uint32_t ch = 64;
        uint32_t hw = 56;
        uint32_t total = ch + kBlocks[0] * kGrowth;
        float *blockBuf = rt.Alloc((size_t)kBatch * total * hw * hw * sizeof(float));
        rt.Pool(act, blockBuf, 64, 112, 112, total, 3, 2, 1, 0);

        for (int blk = 0; blk < 4; ++blk) {
            const uint32_t plane = hw * hw;
            void *tIm2col = nullptr;
            for (uint32_t l = 0; l < kBlocks[blk]; ++l) {
                const uint32_t cin = ch + l * kGrowth;
                nextBn(cin, &g, &b);
                rt.BnRelu(blockBuf, g, b, act, cin, hw, hw, total, cin);
                const float *wl = nextConv((size_t)kGrowth * cin * 9);
                tIm2col = rt.Im2colTiling(cin, hw, hw, 3, 1, 1);
                for (uint32_t n = 0; n < kBatch; ++n) {
                    // new channels land at [cin, cin + 32) of image n in the block buffer
                    rt.Conv(act + (size_t)n * cin * plane, wl, blockBuf + ((size_t)n * total + cin) * plane, cols,
                            cin, hw, hw, kGrowth, 3, 1, 1, tIm2col);
                }
            }
            ch = total;
            if (blk == 3) {
                break;
            }
            // ---- transition: BN -> ReLU -> avgpool2x2 -> conv1x1 (pool moved first)
            nextBn(ch, &g, &b);
            rt.BnRelu(blockBuf, g, b, act, ch, hw, hw, total, ch);
            rt.Pool(act, pooled, ch, hw, hw, ch, 2, 2, 0, 1);
            const uint32_t half = ch / 2;
            const float *wt = nextConv((size_t)half * ch);
            hw /= 2;
            const uint32_t nextTotal = half + kBlocks[blk + 1] * kGrowth;
            float *nextBuf = rt.Alloc((size_t)kBatch * nextTotal * hw * hw * sizeof(float));
            for (uint32_t n = 0; n < kBatch; ++n) {
                rt.Gemm(wt, pooled + (size_t)n * ch * hw * hw, nullptr, nextBuf + (size_t)n * nextTotal * hw * hw,
                        half, hw * hw, ch);
            }
            blockBuf = nextBuf;
            ch = half;
            total = nextTotal;
        }

        // ---- head: BN -> ReLU -> global average pool -> linear
        nextBn(ch, &g, &b);
        rt.BnRelu(blockBuf, g, b, act, ch, hw, hw, ch, ch);
        float *feat = rt.Alloc((size_t)kBatch * ch * sizeof(float));
        rt.Gap(act, feat, ch, hw, hw);
        float *logits = rt.Alloc((size_t)kBatch * kClasses * sizeof(float));
        rt.Gemm(feat, fcW, fcB, logits, kBatch, kClasses, ch);

        if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
            fprintf(stderr, "stream failed\n");
            rc = 1;
        } else {
            std::vector<float> out(kBatch * kClasses);
            aclrtMemcpy(out.data(), out.size() * sizeof(float), logits, out.size() * sizeof(float),
                        ACL_MEMCPY_DEVICE_TO_HOST);
            std::ofstream("./output/output.bin", std::ios::binary)
                .write(reinterpret_cast<const char *>(out.data()), out.size() * sizeof(float));
            printf("features %u, conv params used %zu / %zu, bn params used %zu / %zu\n", ch, wOff, hConv.size(),
                   bnOff, hBn.size());
        }
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return rc;
}
