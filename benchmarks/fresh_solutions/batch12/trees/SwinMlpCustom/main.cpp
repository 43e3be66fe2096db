// Host side of window_token_mixer: one shifted block of the first stage
// (56 x 56 tokens, 96 channels, 3 heads, 7 x 7 windows, shift 3).
#include <cstdio>
#include <cstdint>
#include <string>
#include <vector>
#include <fstream>
#include "acl/acl.h"
#include "aclrtlaunch_window_token_mixer.h"

struct WindowTokenMixerTiling {
    uint32_t batch;
    uint32_t height;
    uint32_t width;
    uint32_t dim;
    uint32_t heads;
    uint32_t headDim;
    uint32_t win;
    uint32_t padTop;
    uint32_t padLeft;
    uint32_t winRows;
    uint32_t winCols;
    float eps;
};

namespace {
bool ReadInto(const std::string &path, std::vector<float> &buf)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        printf("missing %s\n", path.c_str());
        return false;
    }
    in.read(reinterpret_cast<char *>(buf.data()), buf.size() * sizeof(float));
    return in.gcount() == static_cast<std::streamsize>(buf.size() * sizeof(float));
}

void* ToDevice(const void *host, size_t bytes)
{
    void *dev = nullptr;
    aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    if (host != nullptr) {
        aclrtMemcpy(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    }
    return dev;
}
} // namespace

int main()
{
    const uint32_t B = 10, H = 56, W = 56, C = 96, heads = 3, win = 7, shift = 3;

    WindowTokenMixerTiling tl{};
    tl.batch = B; tl.height = H; tl.width = W; tl.dim = C;
    tl.heads = heads; tl.headDim = C / heads; tl.win = win;
    // shifted variant: pad (win - shift) in front and shift behind, on both axes
    tl.padTop = shift > 0 ? win - shift : 0;
    tl.padLeft = tl.padTop;
    uint32_t paddedH = H + (shift > 0 ? win : 0);
    uint32_t paddedW = W + (shift > 0 ? win : 0);
    tl.winRows = paddedH / win;
    tl.winCols = paddedW / win;
    tl.eps = 1e-5f;

    const size_t nx = (size_t)B * H * W * C;
    const size_t area = win * win;
    std::vector<float> x(nx), gamma(C), beta(C), mixW(heads * area * area), mixB(heads * area), y(nx);
    if (!ReadInto("./input/x.bin", x) || !ReadInto("./input/gamma.bin", gamma) ||
        !ReadInto("./input/beta.bin", beta) || !ReadInto("./input/mix_w.bin", mixW) ||
        !ReadInto("./input/mix_b.bin", mixB)) {
        return 1;
    }

    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        printf("acl init failed\n");
        return 1;
    }
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);

    void *dX = ToDevice(x.data(), nx * 4);
    void *dG = ToDevice(gamma.data(), C * 4);
    void *dB = ToDevice(beta.data(), C * 4);
    // pad the tiny parameter tensors to whole 32-byte blocks for the kernel's aligned copies
    size_t wBytes = ((mixW.size() + 7) / 8 * 8) * 4;
    size_t mbBytes = ((mixB.size() + 7) / 8 * 8) * 4;
    mixW.resize(wBytes / 4, 0.0f);
    mixB.resize(mbBytes / 4, 0.0f);
    void *dW = ToDevice(mixW.data(), wBytes);
    void *dMb = ToDevice(mixB.data(), mbBytes);
    void *dY = ToDevice(nullptr, nx * 4);
    void *dT = ToDevice(&tl, sizeof(tl));

    uint32_t blockDim = 40;
    ACLRT_LAUNCH_KERNEL(window_token_mixer)(blockDim, stream, dX, dG, dB, dW, dMb, dY, dT);
    if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
        printf("kernel failed\n");
        return 1;
    }
    aclrtMemcpy(y.data(), nx * 4, dY, nx * 4, ACL_MEMCPY_DEVICE_TO_HOST);
    std::ofstream("./output/output.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(y.data()), nx * 4);

    for (void *p : {dX, dG, dB, dW, dMb, dY, dT}) {
        aclrtFree(p);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    printf("window_token_mixer finished\n");
    return 0;
}
