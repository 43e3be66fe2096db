#include <cstdio>
#include <cstdint>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_row_standardize_affine.h"

struct RowStandardizeAffineTiling {
    uint32_t rows, rowLen, tileLen, tileCnt, rowsPerCore;
    float eps;
};

#define CHECK_ACL(x) do { aclError r_ = (x); if (r_ != ACL_SUCCESS) { \
    printf("acl error %d: %s\n", r_, #x); return -1; } } while (0)

static bool Load(const char *path, void *dst, size_t bytes)
{
    std::ifstream f(path, std::ios::binary);
    return f && f.read(static_cast<char *>(dst), bytes);
}

int main()
{
    // x: [8, 64, 256, 256], statistics over the last three dims
    const uint32_t rows = 8, C = 64, H = 256, W = 256;
    const uint32_t rowLen = C * H * W;
    const size_t xBytes = (size_t)rows * rowLen * sizeof(float);
    const size_t pBytes = (size_t)rowLen * sizeof(float);

    RowStandardizeAffineTiling tiling{};
    tiling.rows = rows;
    tiling.rowLen = rowLen;
    tiling.tileLen = 8192;                     // 7 x 32KB UB buffers
    tiling.tileCnt = (rowLen + tiling.tileLen - 1) / tiling.tileLen;
    uint32_t blockDim = rows;                  // one sample per core
    tiling.rowsPerCore = (rows + blockDim - 1) / blockDim;
    tiling.eps = 1e-5f;

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK_ACL(aclrtCreateStream(&stream));

    std::vector<float> hx(xBytes / 4), hg(rowLen), hb(rowLen), hy(xBytes / 4);
    if (!Load("./input/x.bin", hx.data(), xBytes) || !Load("./input/gamma.bin", hg.data(), pBytes) ||
        !Load("./input/beta.bin", hb.data(), pBytes)) {
        printf("missing input files, run scripts/gen_data.py\n");
        return -1;
    }

    void *dx, *dg, *db, *dy, *dt;
    CHECK_ACL(aclrtMalloc(&dx, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dy, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dg, pBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&db, pBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dt, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(dx, xBytes, hx.data(), xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dg, pBytes, hg.data(), pBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(db, pBytes, hb.data(), pBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dt, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(row_standardize_affine)(blockDim, stream, dx, dg, db, dy, dt);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(hy.data(), xBytes, dy, xBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write((const char *)hy.data(), xBytes);

    aclrtFree(dx); aclrtFree(dy); aclrtFree(dg); aclrtFree(db); aclrtFree(dt);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
