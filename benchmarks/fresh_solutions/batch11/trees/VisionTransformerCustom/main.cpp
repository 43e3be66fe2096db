/*
 * Host program: runs a patch-token classifier (ViT-style network) end to end by
 * chaining the vector stage kernel and the cube dense kernel on one stream.
 */
#include <cstdint>
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
#include "aclrtlaunch_patch_token_classifier.h"
#include "aclrtlaunch_patch_token_classifier_dense.h"

#define CHECK_ACL(expr)                                                              \
    do {                                                                             \
        auto _ret = (expr);                                                          \
        if (_ret != ACL_SUCCESS) {                                                   \
            fprintf(stderr, "%s:%d acl error %d\n", __FILE__, __LINE__, (int)_ret);  \
            return 1;                                                                \
        }                                                                            \
    } while (0)

// must match the device struct field for field
struct PatchTokenClassifierTiling {
    uint32_t stage;
    uint32_t batch, channels, imageSize, patch, grid;
    uint32_t tokens, dim;
    uint32_t actMode, totalLength, tileLength;
    uint32_t heads, headDim, seqLen, groups;
    float scale;
    uint32_t rows;
    float eps;
};

namespace {
constexpr uint32_t BATCH = 2;
constexpr uint32_t CHANNELS = 3;
constexpr uint32_t IMAGE = 224;
constexpr uint32_t PATCH = 16;
constexpr uint32_t GRID = IMAGE / PATCH;
constexpr uint32_t PATCHES = GRID * GRID;
constexpr uint32_t TOKENS = PATCHES + 1;
constexpr uint32_t DIM = 512;
constexpr uint32_t DEPTH = 6;
constexpr uint32_t HEADS = 8;
constexpr uint32_t MLP = 2048;
constexpr uint32_t CLASSES = 10;
constexpr uint32_t PATCH_DIM = CHANNELS * PATCH * PATCH;
constexpr uint32_t ROWS = BATCH * TOKENS;
constexpr uint32_t VEC_CORES = 40;
constexpr uint32_t CUBE_CORES = 20;

bool LoadFile(const std::string &path, void *dst, size_t bytes)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path.c_str());
        return false;
    }
    f.read(static_cast<char *>(dst), bytes);
    return static_cast<size_t>(f.gcount()) == bytes;
}

bool SaveFile(const std::string &path, const void *src, size_t bytes)
{
    std::ofstream f(path, std::ios::binary);
    f.write(static_cast<const char *>(src), bytes);
    return f.good();
}

void *DevAlloc(size_t bytes)
{
    void *p = nullptr;
    aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    return p;
}

// upload a host file into a fresh device buffer
void *DevFromFile(const std::string &path, size_t bytes)
{
    std::vector<uint8_t> host(bytes);
    if (!LoadFile(path, host.data(), bytes)) {
        return nullptr;
    }
    void *d = DevAlloc(bytes);
    aclrtMemcpy(d, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    return d;
}

void *UploadVecTiling(const PatchTokenClassifierTiling &t)
{
    void *d = DevAlloc(sizeof(t));
    aclrtMemcpy(d, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE);
    return d;
}

// cube tilings, one per (M, N, K), computed once and kept on device
std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::pair<void *, uint32_t>> g_denseTilings;

std::pair<void *, uint32_t> DenseTiling(uint32_t m, uint32_t n, uint32_t k)
{
    auto key = std::make_tuple(m, n, k);
    auto it = g_denseTilings.find(key);
    if (it != g_denseTilings.end()) {
        return it->second;
    }
    using namespace matmul_tiling;
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    MultiCoreMatmulTiling api(*plat);
    uint32_t cores = m < 64 ? 1 : CUBE_CORES;
    api.SetDim(cores);
    api.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetShape(m, n, k);
    api.SetOrgShape(m, n, k);
    api.SetBias(true);
    api.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling cube;
    if (api.GetTiling(cube) == -1) {
        fprintf(stderr, "matmul tiling failed for %u x %u x %u\n", m, n, k);
        return {nullptr, 0};
    }
    uint32_t size = cube.GetDataSize();
    std::vector<uint8_t> buf(size);
    cube.SaveToBuffer(buf.data(), size);
    void *d = DevAlloc(size);
    aclrtMemcpy(d, size, buf.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
    auto entry = std::make_pair(d, static_cast<uint32_t>(cube.get_usedCoreNum()));
    g_denseTilings[key] = entry;
    return entry;
}

void *g_workspace = nullptr;

void Dense(aclrtStream s, void *a, void *w, void *bias, void *c, uint32_t m, uint32_t n, uint32_t k)
{
    auto t = DenseTiling(m, n, k);
    ACLRT_LAUNCH_KERNEL(patch_token_classifier_dense)(t.second, s, a, w, bias, c, g_workspace, t.first);
}
} // namespace

struct LayerWeights {
    void *wqkv, *bqkv, *wo, *bo, *g1, *be1, *w1, *b1, *w2, *b2, *g2, *be2;
};

int main()
{
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    const size_t F = sizeof(float);
    // system workspace for the matmul library plus nothing of our own
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    size_t wsBytes = plat->GetLibApiWorkSpaceSize();
    g_workspace = DevAlloc(wsBytes);

    void *dImg = DevFromFile("./input/image.bin", (size_t)BATCH * CHANNELS * IMAGE * IMAGE * F);
    void *dWp = DevFromFile("./input/patch_w.bin", (size_t)PATCH_DIM * DIM * F);
    void *dBp = DevFromFile("./input/patch_b.bin", DIM * F);
    void *dCls = DevFromFile("./input/cls.bin", DIM * F);
    void *dPos = DevFromFile("./input/pos.bin", (size_t)TOKENS * DIM * F);
    void *dHw1 = DevFromFile("./input/head_w1.bin", (size_t)DIM * MLP * F);
    void *dHb1 = DevFromFile("./input/head_b1.bin", MLP * F);
    void *dHw2 = DevFromFile("./input/head_w2.bin", (size_t)MLP * CLASSES * F);
    void *dHb2 = DevFromFile("./input/head_b2.bin", CLASSES * F);
    if (!dImg || !dWp || !dBp || !dCls || !dPos || !dHw1 || !dHb1 || !dHw2 || !dHb2) {
        return 1;
    }

    std::vector<LayerWeights> layers(DEPTH);
    for (uint32_t l = 0; l < DEPTH; ++l) {
        std::string p = "./input/layer" + std::to_string(l) + "_";
        LayerWeights &w = layers[l];
        w.wqkv = DevFromFile(p + "wqkv.bin", (size_t)DIM * 3 * DIM * F);
        w.bqkv = DevFromFile(p + "bqkv.bin", 3 * DIM * F);
        w.wo = DevFromFile(p + "wo.bin", (size_t)DIM * DIM * F);
        w.bo = DevFromFile(p + "bo.bin", DIM * F);
        w.g1 = DevFromFile(p + "ln1_g.bin", DIM * F);
        w.be1 = DevFromFile(p + "ln1_b.bin", DIM * F);
        w.w1 = DevFromFile(p + "w1.bin", (size_t)DIM * MLP * F);
        w.b1 = DevFromFile(p + "b1.bin", MLP * F);
        w.w2 = DevFromFile(p + "w2.bin", (size_t)MLP * DIM * F);
        w.b2 = DevFromFile(p + "b2.bin", DIM * F);
        w.g2 = DevFromFile(p + "ln2_g.bin", DIM * F);
        w.be2 = DevFromFile(p + "ln2_b.bin", DIM * F);
        if (!w.wqkv || !w.w1 || !w.w2) {
            return 1;
        }
    }

    // activations
    void *dPatches = DevAlloc((size_t)BATCH * PATCHES * PATCH_DIM * F);
    void *dEmb = DevAlloc((size_t)BATCH * PATCHES * DIM * F);
    void *dX = DevAlloc((size_t)ROWS * DIM * F);
    void *dQkv = DevAlloc((size_t)ROWS * 3 * DIM * F);
    void *dAttn = DevAlloc((size_t)ROWS * DIM * F);
    void *dProj = DevAlloc((size_t)ROWS * DIM * F);
    void *dHidden = DevAlloc((size_t)ROWS * MLP * F);
    void *dClsRows = DevAlloc((size_t)BATCH * DIM * F);
    void *dHead = DevAlloc((size_t)BATCH * MLP * F);
    void *dOut = DevAlloc((size_t)BATCH * CLASSES * F);

    // vector stage tilings
    PatchTokenClassifierTiling base{};
    base.batch = BATCH;
    base.channels = CHANNELS;
    base.imageSize = IMAGE;
    base.patch = PATCH;
    base.grid = GRID;
    base.tokens = TOKENS;
    base.dim = DIM;
    base.heads = HEADS;
    base.headDim = DIM / HEADS;
    base.scale = 1.0f / 8.0f;            // 1 / sqrt(64)
    base.eps = 1e-5f;
    base.rows = ROWS;
    // The encoder is fed (batch, tokens, dim) but treats dim 0 as the sequence:
    // every token position is its own attention problem over the images.
    base.seqLen = BATCH;
    base.groups = TOKENS;

    PatchTokenClassifierTiling tPatch = base;
    tPatch.stage = 0;
    PatchTokenClassifierTiling tAsm = base;
    tAsm.stage = 1;
    PatchTokenClassifierTiling tRelu = base;
    tRelu.stage = 2;
    tRelu.actMode = 0;
    tRelu.totalLength = ROWS * MLP;
    tRelu.tileLength = 4096;
    PatchTokenClassifierTiling tGelu = base;
    tGelu.stage = 2;
    tGelu.actMode = 1;
    tGelu.totalLength = BATCH * MLP;
    tGelu.tileLength = BATCH * MLP;
    PatchTokenClassifierTiling tAttn = base;
    tAttn.stage = 3;
    PatchTokenClassifierTiling tNorm = base;
    tNorm.stage = 4;

    void *dtPatch = UploadVecTiling(tPatch);
    void *dtAsm = UploadVecTiling(tAsm);
    void *dtRelu = UploadVecTiling(tRelu);
    void *dtGelu = UploadVecTiling(tGelu);
    void *dtAttn = UploadVecTiling(tAttn);
    void *dtNorm = UploadVecTiling(tNorm);

    // 1. patches + embedding + class token + positions
    ACLRT_LAUNCH_KERNEL(patch_token_classifier)(VEC_CORES, stream, dImg, nullptr, nullptr, nullptr, dPatches, dtPatch);
    Dense(stream, dPatches, dWp, dBp, dEmb, BATCH * PATCHES, DIM, PATCH_DIM);
    ACLRT_LAUNCH_KERNEL(patch_token_classifier)(VEC_CORES, stream, dEmb, dCls, dPos, nullptr, dX, dtAsm);

    // 2. post-norm encoder layers
    for (uint32_t l = 0; l < DEPTH; ++l) {
        const LayerWeights &w = layers[l];
        Dense(stream, dX, w.wqkv, w.bqkv, dQkv, ROWS, 3 * DIM, DIM);
        ACLRT_LAUNCH_KERNEL(patch_token_classifier)(VEC_CORES, stream, dQkv, nullptr, nullptr, nullptr, dAttn, dtAttn);
        Dense(stream, dAttn, w.wo, w.bo, dProj, ROWS, DIM, DIM);
        ACLRT_LAUNCH_KERNEL(patch_token_classifier)(VEC_CORES, stream, dX, dProj, w.g1, w.be1, dX, dtNorm);
        Dense(stream, dX, w.w1, w.b1, dHidden, ROWS, MLP, DIM);
        ACLRT_LAUNCH_KERNEL(patch_token_classifier)(VEC_CORES, stream, dHidden, nullptr, nullptr, nullptr, nullptr, dtRelu);
        Dense(stream, dHidden, w.w2, w.b2, dProj, ROWS, DIM, MLP);
        ACLRT_LAUNCH_KERNEL(patch_token_classifier)(VEC_CORES, stream, dX, dProj, w.g2, w.be2, dX, dtNorm);
    }

    // 3. class-token rows -> head
    for (uint32_t b = 0; b < BATCH; ++b) {
        CHECK_ACL(aclrtMemcpyAsync(static_cast<uint8_t *>(dClsRows) + (size_t)b * DIM * F, DIM * F,
                                   static_cast<uint8_t *>(dX) + (size_t)b * TOKENS * DIM * F, DIM * F,
                                   ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
    }
    Dense(stream, dClsRows, dHw1, dHb1, dHead, BATCH, MLP, DIM);
    ACLRT_LAUNCH_KERNEL(patch_token_classifier)(1, stream, dHead, nullptr, nullptr, nullptr, nullptr, dtGelu);
    Dense(stream, dHead, dHw2, dHb2, dOut, BATCH, CLASSES, MLP);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    std::vector<float> logits(BATCH * CLASSES);
    CHECK_ACL(aclrtMemcpy(logits.data(), logits.size() * F, dOut, logits.size() * F, ACL_MEMCPY_DEVICE_TO_HOST));
    SaveFile("./output/output.bin", logits.data(), logits.size() * F);
    for (uint32_t b = 0; b < BATCH; ++b) {
        printf("image %u logits[0..3]: %f %f %f %f\n", b, logits[b * CLASSES], logits[b * CLASSES + 1],
               logits[b * CLASSES + 2], logits[b * CLASSES + 3]);
    }

    // teardown
    for (auto &kv : g_denseTilings) {
        aclrtFree(kv.second.first);
    }
    for (auto &w : layers) {
        for (void *p : {w.wqkv, w.bqkv, w.wo, w.bo, w.g1, w.be1, w.w1, w.b1, w.w2, w.b2, w.g2, w.be2}) {
            aclrtFree(p);
        }
    }
    for (void *p : {dImg, dWp, dBp, dCls, dPos, dHw1, dHb1, dHw2, dHb2, dPatches, dEmb, dX, dQkv, dAttn,
                    dProj, dHidden, dClsRows, dHead, dOut, dtPatch, dtAsm, dtRelu, dtGelu, dtAttn, dtNorm,
                    g_workspace}) {
        aclrtFree(p);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return 0;
}
