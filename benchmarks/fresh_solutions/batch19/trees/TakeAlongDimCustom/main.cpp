// Host side of row_index_pick: src (128 x 8192 fp32) gathered by index (128 x 4096 int64).
#include <cstdio>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_row_index_pick.h"

#define ACL_OK(call)                                                              \
    if ((call) != ACL_SUCCESS) {                                                  \
        printf("[ERROR] %s failed at %s:%d\n", #call, __FILE__, __LINE__);        \
        return -1;                                                                \
    }

struct RowIndexPickTiling {
    uint32_t rows;
    uint32_t srcCols;
    uint32_t idxCols;
    uint32_t rowsPerCore;
    uint32_t chunk;
};

template <typename T>
static bool LoadFile(const std::string &name, std::vector<T> &v)
{
    std::ifstream in(name, std::ios::binary);
    if (!in.is_open()) return false;
    in.read(reinterpret_cast<char *>(v.data()), v.size() * sizeof(T));
    return true;
}

template <typename T>
static void SaveFile(const std::string &name, const std::vector<T> &v)
{
    std::ofstream out(name, std::ios::binary);
    out.write(reinterpret_cast<const char *>(v.data()), v.size() * sizeof(T));
}

int main()
{
    const uint32_t rows = 128, srcCols = 8192, idxCols = 4096;
    const uint32_t blockDim = 32;

    RowIndexPickTiling tiling;
    tiling.rows = rows;
    tiling.srcCols = srcCols;
    tiling.idxCols = idxCols;
    tiling.rowsPerCore = (rows + blockDim - 1) / blockDim;
    tiling.chunk = 2048;   // 16 KB int64 x2 + 8 KB fp32 x2 + 8 KB offsets + 32 KB row

    std::vector<float> src((size_t)rows * srcCols);
    std::vector<int64_t> index((size_t)rows * idxCols);
    std::vector<float> out((size_t)rows * idxCols);
    if (!LoadFile("./input/src.bin", src) || !LoadFile("./input/index.bin", index)) {
        printf("missing input files, run scripts/gen_data.py first\n");
        return -1;
    }

    ACL_OK(aclInit(nullptr));
    ACL_OK(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_OK(aclrtCreateStream(&stream));

    size_t srcBytes = src.size() * sizeof(float);
    size_t idxBytes = index.size() * sizeof(int64_t);
    size_t outBytes = out.size() * sizeof(float);
    uint8_t *dSrc, *dIdx, *dOut, *dTiling;
    ACL_OK(aclrtMalloc((void **)&dSrc, srcBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc((void **)&dIdx, idxBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc((void **)&dOut, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc((void **)&dTiling, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));

    ACL_OK(aclrtMemcpy(dSrc, srcBytes, src.data(), srcBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(dIdx, idxBytes, index.data(), idxBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(dTiling, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(row_index_pick)(blockDim, stream, dSrc, dIdx, dOut, dTiling);
    ACL_OK(aclrtSynchronizeStream(stream));

    ACL_OK(aclrtMemcpy(out.data(), outBytes, dOut, outBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    SaveFile("./output/output.bin", out);

    aclrtFree(dSrc);
    aclrtFree(dIdx);
    aclrtFree(dOut);
    aclrtFree(dTiling);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
