// main.cpp - launches deconv3d_rowwise on one NPU and dumps the result.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include "acl/acl.h"
#include "aclrtlaunch_deconv3d_rowwise.h"

#define ACL_OK(x)                                                              \
    do {                                                                       \
        aclError e_ = (x);                                                     \
        if (e_ != ACL_SUCCESS) {                                               \
            printf("[ERROR] %s returned %d (line %d)\n", #x, e_, __LINE__);   \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

struct Deconv3dRowwiseTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t din;
    uint32_t hin;
    uint32_t win;
    uint32_t kd;
    uint32_t kh;
    uint32_t kw;
    uint32_t dout;
    uint32_t hout;
    uint32_t wout;
    uint32_t rowAlign;
    uint32_t tapAlign;
    uint32_t rowsTotal;
    uint32_t rowsPerCore;
};

static void LoadBin(const char *name, void *dst, size_t bytes)
{
    std::ifstream in(name, std::ios::binary);
    if (!in.read(static_cast<char *>(dst), bytes)) {
        printf("[ERROR] failed reading %s\n", name);
        exit(1);
    }
}

static void SaveBin(const char *name, const void *src, size_t bytes)
{
    std::ofstream out(name, std::ios::binary);
    out.write(static_cast<const char *>(src), bytes);
}

int main()
{
    // cube-shaped input volume, 3x5x5 filter (see scripts/gen_data.py)
    Deconv3dRowwiseTiling t{};
    t.batch = 2; t.cin = 32; t.cout = 64;
    t.din = 16; t.hin = 16; t.win = 16;
    t.kd = 3; t.kh = 5; t.kw = 5;
    t.dout = t.din + t.kd - 1;
    t.hout = t.hin + t.kh - 1;
    t.wout = t.win + t.kw - 1;
    t.rowAlign = (t.wout + 7) / 8 * 8;
    t.tapAlign = (t.kw + 7) / 8 * 8;
    t.rowsTotal = t.batch * t.dout * t.hout;

    uint32_t blockDim = 48;
    t.rowsPerCore = (t.rowsTotal + blockDim - 1) / blockDim;
    blockDim = (t.rowsTotal + t.rowsPerCore - 1) / t.rowsPerCore;

    size_t xSize = (size_t)t.batch * t.cin * t.din * t.hin * t.win * sizeof(float);
    size_t wSize = (size_t)t.cin * t.cout * t.kd * t.kh * t.kw * sizeof(float);
    size_t ySize = (size_t)t.batch * t.cout * t.dout * t.hout * t.wout * sizeof(float);

    ACL_OK(aclInit(nullptr));
    ACL_OK(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_OK(aclrtCreateStream(&stream));

    uint8_t *xh, *wh, *yh;
    ACL_OK(aclrtMallocHost((void **)&xh, xSize));
    ACL_OK(aclrtMallocHost((void **)&wh, wSize));
    ACL_OK(aclrtMallocHost((void **)&yh, ySize));
    LoadBin("./input/x.bin", xh, xSize);
    LoadBin("./input/w.bin", wh, wSize);

    uint8_t *xd, *wd, *yd, *td;
    ACL_OK(aclrtMalloc((void **)&xd, xSize, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc((void **)&wd, wSize, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc((void **)&yd, ySize, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc((void **)&td, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemcpy(xd, xSize, xh, xSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(wd, wSize, wh, wSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(td, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(deconv3d_rowwise)(blockDim, stream, xd, wd, yd, td);
    ACL_OK(aclrtSynchronizeStream(stream));

    ACL_OK(aclrtMemcpy(yh, ySize, yd, ySize, ACL_MEMCPY_DEVICE_TO_HOST));
    SaveBin("./output/output.bin", yh, ySize);

    aclrtFree(xd); aclrtFree(wd); aclrtFree(yd); aclrtFree(td);
    aclrtFreeHost(xh); aclrtFreeHost(wh); aclrtFreeHost(yh);
    ACL_OK(aclrtDestroyStream(stream));
    ACL_OK(aclrtResetDevice(0));
    ACL_OK(aclFinalize());
    return 0;
}
