// Host program for volume_upsample_rownorm_gelu.
//
// Shapes: x [2, 32, 16, 32, 32] -> out [2, 64, 32, 64, 64]
// (kernel 4, stride 2, padding 1; width normalisation over the 64 output columns)
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_volume_upsample_rownorm_gelu.h"

#define RET_IF_FAIL(x)                                                        \
    do {                                                                      \
        aclError e_ = (x);                                                    \
        if (e_ != ACL_SUCCESS) {                                              \
            std::fprintf(stderr, "%s failed (%d) line %d\n", #x, (int)e_, __LINE__); \
            return 1;                                                         \
        }                                                                     \
    } while (0)

struct VolumeUpsampleTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t inD;
    uint32_t inH;
    uint32_t inW;
    uint32_t outD;
    uint32_t outH;
    uint32_t outW;
    uint32_t unitsPerCore;
    uint32_t unitsTail;
    float eps;
    float scale;
};

static std::vector<float> ReadF32(const std::string &path, size_t n)
{
    std::vector<float> v(n);
    std::ifstream f(path, std::ios::binary);
    f.read(reinterpret_cast<char *>(v.data()), n * sizeof(float));
    if (!f) {
        std::fprintf(stderr, "could not read %s\n", path.c_str());
        v.clear();
    }
    return v;
}

int main()
{
    const uint32_t N = 2, CIN = 32, COUT = 64;
    const uint32_t D = 16, H = 32, W = 32;
    const uint32_t K = 4, STRIDE = 2, PAD = 1;
    const uint32_t OD = (D - 1) * STRIDE - 2 * PAD + K;   // 32
    const uint32_t OH = (H - 1) * STRIDE - 2 * PAD + K;   // 64
    const uint32_t OW = (W - 1) * STRIDE - 2 * PAD + K;   // 64
    const uint32_t blockDim = 32;

    VolumeUpsampleTiling tl{};
    tl.batch = N;
    tl.cin = CIN;
    tl.cout = COUT;
    tl.inD = D;
    tl.inH = H;
    tl.inW = W;
    tl.outD = OD;
    tl.outH = OH;
    tl.outW = OW;
    const uint32_t units = N * OD * OH;
    tl.unitsPerCore = units / blockDim;
    tl.unitsTail = units % blockDim;
    tl.eps = 1e-5f;
    tl.scale = 1.0f;

    const size_t xN = (size_t)N * CIN * D * H * W;
    const size_t wN = (size_t)CIN * COUT * K * K * K;
    const size_t oN = (size_t)N * COUT * OD * OH * OW;

    std::vector<float> x = ReadF32("./input/input_x.bin", xN);
    std::vector<float> w = ReadF32("./input/input_weight.bin", wN);
    std::vector<float> b = ReadF32("./input/input_bias.bin", COUT);
    std::vector<float> gamma = ReadF32("./input/input_gamma.bin", OW);
    std::vector<float> beta = ReadF32("./input/input_beta.bin", OW);
    if (x.empty() || w.empty() || b.empty() || gamma.empty() || beta.empty()) {
        return 1;
    }

    RET_IF_FAIL(aclInit(nullptr));
    RET_IF_FAIL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    RET_IF_FAIL(aclrtCreateStream(&stream));

    struct DevBuf {
        void *ptr = nullptr;
        size_t bytes = 0;
    };
    DevBuf dx{nullptr, xN * 4}, dw{nullptr, wN * 4}, db{nullptr, COUT * 4u}, dg{nullptr, OW * 4u},
        dbe{nullptr, OW * 4u}, dout{nullptr, oN * 4}, dtl{nullptr, sizeof(tl)};
    for (DevBuf *d : {&dx, &dw, &db, &dg, &dbe, &dout, &dtl}) {
        RET_IF_FAIL(aclrtMalloc(&d->ptr, d->bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    }
    RET_IF_FAIL(aclrtMemcpy(dx.ptr, dx.bytes, x.data(), dx.bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_FAIL(aclrtMemcpy(dw.ptr, dw.bytes, w.data(), dw.bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_FAIL(aclrtMemcpy(db.ptr, db.bytes, b.data(), db.bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_FAIL(aclrtMemcpy(dg.ptr, dg.bytes, gamma.data(), dg.bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_FAIL(aclrtMemcpy(dbe.ptr, dbe.bytes, beta.data(), dbe.bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_FAIL(aclrtMemcpy(dtl.ptr, dtl.bytes, &tl, sizeof(tl), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(volume_upsample_rownorm_gelu)
    (blockDim, stream, dx.ptr, dw.ptr, db.ptr, dg.ptr, dbe.ptr, dout.ptr, dtl.ptr);
    RET_IF_FAIL(aclrtSynchronizeStream(stream));

    std::vector<float> out(oN);
    RET_IF_FAIL(aclrtMemcpy(out.data(), dout.bytes, dout.ptr, dout.bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output_out.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(out.data()), dout.bytes);

    for (DevBuf *d : {&dx, &dw, &db, &dg, &dbe, &dout, &dtl}) {
        aclrtFree(d->ptr);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::printf("done: wrote %zu floats\n", oN);
    return 0;
}
