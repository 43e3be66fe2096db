#include <cstdint>
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_add_custom.h"

int32_t main()
{
    const uint32_t blockDim = 8;
    const size_t n = 8 * 8192;
    const size_t bytes = n * sizeof(float);
    std::vector<float> x(n, 1.5f), y(n, 2.25f), z(n, 0.0f);
    void *xd = nullptr, *yd = nullptr, *zd = nullptr;
    aclrtStream stream = nullptr;
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtCreateStream(&stream);
    aclrtMalloc(&xd, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&yd, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&zd, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(xd, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(yd, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    ACLRT_LAUNCH_KERNEL(add_custom)(blockDim, stream, xd, yd, zd);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(z.data(), bytes, zd, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    std::printf("z[0] = %f (expected 3.75)\n", z[0]);
    aclrtFree(xd);
    aclrtFree(yd);
    aclrtFree(zd);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
