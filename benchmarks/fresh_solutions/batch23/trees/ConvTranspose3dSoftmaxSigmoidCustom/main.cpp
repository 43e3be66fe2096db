/*
 * Host side of upconv3d_channel_gate. Shapes are fixed below; the tiling is
 * derived from them and shipped to the device next to the tensors.
 */
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_upconv3d_channel_gate.h"

#define RET_IF_FAIL(x)                                                            \
    do {                                                                          \
        aclError err_ = (x);                                                      \
        if (err_ != ACL_SUCCESS) {                                                \
            std::printf("ACL error %d at %s:%d (%s)\n", err_, __FILE__, __LINE__, #x); \
            return 1;                                                             \
        }                                                                         \
    } while (0)

struct UpconvChannelGateTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t inD, inH, inW;
    uint32_t outD, outH, outW;
    uint32_t outWAligned;
    uint32_t inWAligned;
    uint32_t kD, kH, kW;
    uint32_t stride;
    uint32_t pad;
    uint32_t linesPerCore;
    uint32_t totalLines;
};

static bool ReadBin(const std::string &f, std::vector<float> &v)
{
    std::ifstream in(f, std::ios::binary);
    if (!in) {
        std::printf("missing %s\n", f.c_str());
        return false;
    }
    in.read(reinterpret_cast<char *>(v.data()), v.size() * sizeof(float));
    return in.gcount() == static_cast<std::streamsize>(v.size() * sizeof(float));
}

static uint32_t Up8(uint32_t v) { return (v + 7) / 8 * 8; }

int main()
{
    // problem definition
    const uint32_t N = 2, CIN = 32, COUT = 64;
    const uint32_t D = 8, H = 16, W = 16;
    const uint32_t K = 3, S = 2, P = 1, OP = 1;
    const uint32_t blockDim = 40;

    UpconvChannelGateTiling t{};
    t.batch = N; t.cin = CIN; t.cout = COUT;
    t.inD = D; t.inH = H; t.inW = W;
    t.outD = (D - 1) * S - 2 * P + K + OP;
    t.outH = (H - 1) * S - 2 * P + K + OP;
    t.outW = (W - 1) * S - 2 * P + K + OP;
    t.outWAligned = Up8(t.outW);
    t.inWAligned = Up8(W);
    t.kD = t.kH = t.kW = K;
    t.stride = S;
    t.pad = P;
    t.totalLines = N * t.outD * t.outH;
    t.linesPerCore = (t.totalLines + blockDim - 1) / blockDim;

    std::vector<float> x(size_t(N) * CIN * D * H * W);
    std::vector<float> w(size_t(CIN) * COUT * K * K * K);
    std::vector<float> b(COUT);
    std::vector<float> y(size_t(N) * COUT * t.outD * t.outH * t.outW);
    if (!ReadBin("./input/input_x.bin", x) || !ReadBin("./input/input_w.bin", w) ||
        !ReadBin("./input/input_b.bin", b)) {
        return 1;
    }

    RET_IF_FAIL(aclInit(nullptr));
    RET_IF_FAIL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    RET_IF_FAIL(aclrtCreateStream(&stream));

    auto bytes = [](const std::vector<float> &v) { return v.size() * sizeof(float); };
    void *dx, *dw, *db, *dy, *dt;
    RET_IF_FAIL(aclrtMalloc(&dx, bytes(x), ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMalloc(&dw, bytes(w), ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMalloc(&db, bytes(b), ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMalloc(&dy, bytes(y), ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMalloc(&dt, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    RET_IF_FAIL(aclrtMemcpy(dx, bytes(x), x.data(), bytes(x), ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_FAIL(aclrtMemcpy(dw, bytes(w), w.data(), bytes(w), ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_FAIL(aclrtMemcpy(db, bytes(b), b.data(), bytes(b), ACL_MEMCPY_HOST_TO_DEVICE));
    RET_IF_FAIL(aclrtMemcpy(dt, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(upconv3d_channel_gate)(blockDim, stream, dx, dw, db, dy, dt);
    RET_IF_FAIL(aclrtSynchronizeStream(stream));

    RET_IF_FAIL(aclrtMemcpy(y.data(), bytes(y), dy, bytes(y), ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output_y.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(y.data()), bytes(y));

    aclrtFree(dx); aclrtFree(dw); aclrtFree(db); aclrtFree(dy); aclrtFree(dt);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
