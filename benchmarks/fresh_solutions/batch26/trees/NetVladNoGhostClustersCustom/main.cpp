#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_residual_cluster_pool.h"

struct ResidualClusterPoolTiling {
    uint32_t batch, points, dim, clusters;
};

#define OK(x) do { if ((x) != ACL_SUCCESS) { fprintf(stderr, "%s failed\n", #x); return 1; } } while (0)

static void *Put(const char *file, size_t n)
{
    std::vector<float> h(n);
    std::ifstream(file, std::ios::binary).read(reinterpret_cast<char *>(h.data()), n * 4);
    void *d = nullptr;
    aclrtMalloc(&d, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(d, n * 4, h.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    return d;
}

int main()
{
    ResidualClusterPoolTiling t{256, 100, 512, 32};
    const uint32_t blockDim = 40;
    size_t outN = (size_t)t.batch * t.dim * t.clusters;

    OK(aclInit(nullptr));
    OK(aclrtSetDevice(0));
    aclrtStream stream;
    OK(aclrtCreateStream(&stream));

    void *x = Put("input/x.bin", (size_t)t.batch * t.points * t.dim);
    void *cent = Put("input/assign_t.bin", (size_t)t.clusters * t.dim);
    void *sc = Put("input/bn_scale.bin", t.clusters);
    void *sh = Put("input/bn_shift.bin", t.clusters);
    void *anc = Put("input/words_t.bin", (size_t)t.clusters * t.dim);
    void *out = nullptr, *td = nullptr;
    OK(aclrtMalloc(&out, outN * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&td, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemcpy(td, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(residual_cluster_pool)(blockDim, stream, x, cent, sc, sh, anc, out, td);
    OK(aclrtSynchronizeStream(stream));

    std::vector<float> res(outN);
    OK(aclrtMemcpy(res.data(), outN * 4, out, outN * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(res.data()), outN * 4);

    for (void *p : {x, cent, sc, sh, anc, out, td}) aclrtFree(p);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
