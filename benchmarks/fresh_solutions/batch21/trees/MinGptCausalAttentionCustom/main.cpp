// Host program: fused qkv projection -> causal attention -> output projection.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_masked_mha_block.h"
#include "aclrtlaunch_masked_mha_block_linear.h"

#define ACL_OK(call)                                                                   \
    do {                                                                               \
        auto _e = (call);                                                              \
        if (_e != ACL_SUCCESS) {                                                       \
            std::fprintf(stderr, "acl error %d: %s (line %d)\n", (int)_e, #call, __LINE__); \
            std::exit(EXIT_FAILURE);                                                   \
        }                                                                              \
    } while (0)

struct MaskedMhaBlockTiling {
    uint32_t rows, inDim, outDim, colTile;
    uint32_t batch, seqLen, embd, heads, headDim, qBlock;
    float scale;
};

namespace {
std::vector<float> LoadBin(const std::string &path, size_t count)
{
    std::vector<float> buf(count);
    std::ifstream in(path, std::ios::binary);
    if (!in.read(reinterpret_cast<char *>(buf.data()), count * sizeof(float))) {
        std::fprintf(stderr, "short read: %s\n", path.c_str());
        std::exit(EXIT_FAILURE);
    }
    return buf;
}

void *ToDevice(const void *src, size_t bytes)
{
    void *p = nullptr;
    ACL_OK(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    if (src != nullptr) {
        ACL_OK(aclrtMemcpy(p, bytes, src, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    return p;
}
}  // namespace

int main()
{
    constexpr uint32_t B = 2, T = 128, C = 256, NH = 4;
    constexpr uint32_t HS = C / NH;
    static_assert(HS == 64, "attention kernel assumes 64-wide heads");
    constexpr uint32_t M = B * T;

    ACL_OK(aclInit(nullptr));
    ACL_OK(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_OK(aclrtCreateStream(&stream));

    auto x = LoadBin("input/x.bin", (size_t)M * C);
    auto wAttnT = LoadBin("input/w_attn_t.bin", (size_t)C * 3 * C);   // [C, 3C]
    auto bAttn = LoadBin("input/b_attn.bin", 3 * C);
    auto wProjT = LoadBin("input/w_proj_t.bin", (size_t)C * C);       // [C, C]
    auto bProj = LoadBin("input/b_proj.bin", C);

    void *dX = ToDevice(x.data(), x.size() * 4);
    void *dWa = ToDevice(wAttnT.data(), wAttnT.size() * 4);
    void *dBa = ToDevice(bAttn.data(), bAttn.size() * 4);
    void *dWp = ToDevice(wProjT.data(), wProjT.size() * 4);
    void *dBp = ToDevice(bProj.data(), bProj.size() * 4);
    void *dQkv = ToDevice(nullptr, (size_t)M * 3 * C * 4);
    void *dAtt = ToDevice(nullptr, (size_t)M * C * 4);
    void *dOut = ToDevice(nullptr, (size_t)M * C * 4);

    MaskedMhaBlockTiling common{};
    common.batch = B; common.seqLen = T; common.embd = C; common.heads = NH; common.headDim = HS;
    common.qBlock = 32;
    common.scale = 1.0f / std::sqrt(static_cast<float>(HS));
    common.rows = M;
    common.inDim = C;
    common.colTile = 64;        // C x 64 floats of W resident = 64 KiB

    MaskedMhaBlockTiling tQkv = common;
    tQkv.outDim = 3 * C;
    MaskedMhaBlockTiling tProj = common;
    tProj.outDim = C;

    void *dTilingQkv = ToDevice(&tQkv, sizeof(tQkv));
    void *dTilingProj = ToDevice(&tProj, sizeof(tProj));

    const uint32_t blockDim = 32;
    // 1) q|k|v = x @ Wattn^T + b
    ACLRT_LAUNCH_KERNEL(masked_mha_block_linear)(blockDim, stream, dX, dWa, dBa, dQkv, dTilingQkv);
    // 2) per-head causal attention, heads written back side by side
    ACLRT_LAUNCH_KERNEL(masked_mha_block)(blockDim, stream, dQkv, dAtt, dTilingQkv);
    // 3) output projection
    ACLRT_LAUNCH_KERNEL(masked_mha_block_linear)(blockDim, stream, dAtt, dWp, dBp, dOut, dTilingProj);
    ACL_OK(aclrtSynchronizeStream(stream));

    std::vector<float> y((size_t)M * C);
    ACL_OK(aclrtMemcpy(y.data(), y.size() * 4, dOut, y.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("output/output.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(y.data()), y.size() * 4);

    for (void *p : {dX, dWa, dBa, dWp, dBp, dQkv, dAtt, dOut, dTilingQkv, dTilingProj}) {
        aclrtFree(p);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::puts("attention block finished");
    return 0;
}
