// mask_row_pick host: bool mask [1, 512, 1], x / y [64, 512, 64] -> out [64, 512, 64]
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_mask_row_pick.h"

struct MaskRowPickTiling {
    uint32_t outer, mid, inner, rowsPerCore, rowsRemain, tileRows;
};

template <typename T>
static bool Load(const std::string &path, std::vector<T> &buf)
{
    std::ifstream f(path, std::ios::binary);
    if (!f.is_open()) {
        printf("open %s failed\n", path.c_str());
        return false;
    }
    f.read(reinterpret_cast<char *>(buf.data()), buf.size() * sizeof(T));
    return true;
}

int main()
{
    const uint32_t A = 64, J = 512, KIN = 64;
    const uint32_t cores = 40;
    const size_t elems = (size_t)A * J * KIN;

    MaskRowPickTiling tl{};
    tl.outer = A;
    tl.mid = J;
    tl.inner = KIN;
    uint32_t rows = A * J;
    tl.rowsPerCore = rows / cores;
    tl.rowsRemain = rows % cores;
    // 3 float tiles x 2 buffers must fit in UB; 64 rows * 64 * 4B = 16 KB per tile
    tl.tileRows = 64;

    std::vector<uint8_t> mask(J);
    std::vector<float> x(elems), y(elems), out(elems);
    if (!Load("input/mask.bin", mask) || !Load("input/x.bin", x) || !Load("input/y.bin", y)) {
        return 1;
    }

    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream s;
    aclrtCreateStream(&s);

    void *dMask, *dX, *dY, *dOut, *dTl;
    aclrtMalloc(&dMask, J, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dX, elems * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dY, elems * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dOut, elems * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dTl, sizeof(tl), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dMask, J, mask.data(), J, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dX, elems * 4, x.data(), elems * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dY, elems * 4, y.data(), elems * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dTl, sizeof(tl), &tl, sizeof(tl), ACL_MEMCPY_HOST_TO_DEVICE);

    ACLRT_LAUNCH_KERNEL(mask_row_pick)(cores, s, dMask, dX, dY, dOut, dTl);
    aclError rc = aclrtSynchronizeStream(s);
    if (rc != ACL_SUCCESS) {
        printf("sync failed: %d\n", (int)rc);
    }

    aclrtMemcpy(out.data(), elems * 4, dOut, elems * 4, ACL_MEMCPY_DEVICE_TO_HOST);
    std::ofstream("output/out.bin", std::ios::binary).write(reinterpret_cast<const char *>(out.data()), elems * 4);

    for (void *p : {dMask, dX, dY, dOut, dTl}) {
        aclrtFree(p);
    }
    aclrtDestroyStream(s);
    aclrtResetDevice(0);
    aclFinalize();
    return rc == ACL_SUCCESS ? 0 : 1;
}
