#include <cstdio>
#include <cstdint>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_filter_scale_chanmin.h"

#define CK(x) do { aclError e = (x); if (e != ACL_SUCCESS) { printf("%s: %d\n", #x, (int)e); return 1; } } while (0)

struct FilterScaleChanminTiling {
    uint32_t batch, cin, height, width, cout, outH, outW, pitch, rowsPerCore;
    float scale;
};

template <typename T>
static std::vector<T> ReadAll(const char *path, size_t count)
{
    std::vector<T> v(count);
    std::ifstream(path, std::ios::binary).read(reinterpret_cast<char *>(v.data()), count * sizeof(T));
    return v;
}

int main()
{
    FilterScaleChanminTiling tl;
    tl.batch = 64; tl.cin = 64; tl.height = 256; tl.width = 256; tl.cout = 128;
    tl.outH = tl.height - 2;
    tl.outW = tl.width - 2;
    tl.pitch = (tl.outW + 7) & ~7u;
    tl.scale = 2.0f;
    const uint32_t blockDim = 40;
    tl.rowsPerCore = (tl.batch * tl.outH + blockDim - 1) / blockDim;

    size_t nx = (size_t)tl.batch * tl.cin * tl.height * tl.width;
    size_t nw = (size_t)tl.cout * tl.cin * 9;
    size_t ny = (size_t)tl.batch * tl.outH * tl.outW;
    auto hx = ReadAll<float>("./input/x.bin", nx);
    auto hw = ReadAll<float>("./input/w.bin", nw);
    auto hb = ReadAll<float>("./input/b.bin", tl.cout);

    CK(aclInit(nullptr));
    CK(aclrtSetDevice(0));
    aclrtStream stream;
    CK(aclrtCreateStream(&stream));

    void *dx, *dw, *db, *dy, *dt;
    CK(aclrtMalloc(&dx, nx * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CK(aclrtMalloc(&dw, nw * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CK(aclrtMalloc(&db, tl.cout * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CK(aclrtMalloc(&dy, ny * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CK(aclrtMalloc(&dt, sizeof(tl), ACL_MEM_MALLOC_HUGE_FIRST));
    CK(aclrtMemcpy(dx, nx * 4, hx.data(), nx * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CK(aclrtMemcpy(dw, nw * 4, hw.data(), nw * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CK(aclrtMemcpy(db, tl.cout * 4, hb.data(), tl.cout * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CK(aclrtMemcpy(dt, sizeof(tl), &tl, sizeof(tl), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(filter_scale_chanmin)(blockDim, stream, dx, dw, db, dy, dt);
    CK(aclrtSynchronizeStream(stream));

    std::vector<float> hy(ny);
    CK(aclrtMemcpy(hy.data(), ny * 4, dy, ny * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write((char *)hy.data(), ny * 4);

    aclrtFree(dx); aclrtFree(dw); aclrtFree(db); aclrtFree(dy); aclrtFree(dt);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
