// Host driver: upconv3d_skip_selfgate on x[2,32,16,16,16], skip/out [2,64,32,32,32]
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_upconv3d_skip_selfgate.h"

struct UpConv3dTiling {
    uint32_t batch, cin, cout;
    uint32_t inD, inH, inW;
    uint32_t outD, outH, outW;
    uint32_t rowsPerCore;
};

#define CK(x)                                                    \
    do {                                                         \
        if ((x) != ACL_SUCCESS) {                                \
            fprintf(stderr, "ACL error: %s line %d\n", #x, __LINE__); \
            return 1;                                            \
        }                                                        \
    } while (0)

static bool Load(const std::string &p, std::vector<float> &v)
{
    std::ifstream f(p, std::ios::binary);
    return f && f.read(reinterpret_cast<char *>(v.data()), v.size() * sizeof(float));
}

int main()
{
    UpConv3dTiling t{};
    t.batch = 2; t.cin = 32; t.cout = 64;
    t.inD = 16; t.inH = 16; t.inW = 16;
    // (in - 1) * stride - 2 * pad + k + output_pad = 15 * 2 - 2 + 3 + 1 = 32
    t.outD = (t.inD - 1) * 2 - 2 + 3 + 1;
    t.outH = (t.inH - 1) * 2 - 2 + 3 + 1;
    t.outW = (t.inW - 1) * 2 - 2 + 3 + 1;
    const uint32_t coreNum = 48;
    const uint32_t rows = t.batch * t.outD * t.outH;
    t.rowsPerCore = (rows + coreNum - 1) / coreNum;
    const uint32_t blockDim = (rows + t.rowsPerCore - 1) / t.rowsPerCore;

    std::vector<float> x((size_t)t.batch * t.cin * t.inD * t.inH * t.inW);
    std::vector<float> w((size_t)t.cin * t.cout * 27);
    std::vector<float> b(t.cout);
    std::vector<float> skip((size_t)t.batch * t.cout * t.outD * t.outH * t.outW);
    std::vector<float> out(skip.size());
    if (!Load("./input/x.bin", x) || !Load("./input/weight.bin", w) || !Load("./input/bias.bin", b) ||
        !Load("./input/skip.bin", skip)) {
        fprintf(stderr, "inputs missing, run scripts/gen_data.py\n");
        return 1;
    }

    CK(aclInit(nullptr));
    CK(aclrtSetDevice(0));
    aclrtStream st;
    CK(aclrtCreateStream(&st));

    auto upload = [](const std::vector<float> &h, void **d) -> aclError {
        size_t n = h.size() * sizeof(float);
        aclError e = aclrtMalloc(d, n, ACL_MEM_MALLOC_HUGE_FIRST);
        if (e != ACL_SUCCESS) {
            return e;
        }
        return aclrtMemcpy(*d, n, h.data(), n, ACL_MEMCPY_HOST_TO_DEVICE);
    };
    void *dx, *dw, *db, *ds, *dout, *dt;
    CK(upload(x, &dx));
    CK(upload(w, &dw));
    CK(upload(b, &db));
    CK(upload(skip, &ds));
    const size_t outBytes = out.size() * sizeof(float);
    CK(aclrtMalloc(&dout, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CK(aclrtMalloc(&dt, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    CK(aclrtMemcpy(dt, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(upconv3d_skip_selfgate)(blockDim, st, dx, dw, db, ds, dout, dt);
    CK(aclrtSynchronizeStream(st));
    CK(aclrtMemcpy(out.data(), outBytes, dout, outBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(out.data()), outBytes);

    for (void *p : {dx, dw, db, ds, dout, dt}) {
        aclrtFree(p);
    }
    aclrtDestroyStream(st);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
