// main.cpp: host program for row_log_normalize
#include <cstdint>
#include <fstream>
#include <iostream>
#include <vector>

#include "acl/acl.h"

extern void row_log_normalize_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *tiling);

struct RowLogNormalizeTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowsPerCore;
    uint32_t tileLen;
    uint32_t tileNum;
    uint32_t lastLen;
};

#define ACL_CALL(expr)                                                           \
    do {                                                                         \
        aclError e_ = (expr);                                                    \
        if (e_ != ACL_SUCCESS) {                                                 \
            std::cerr << #expr << " returned " << e_ << std::endl;              \
            return -1;                                                           \
        }                                                                        \
    } while (0)

int main(int argc, char **argv)
{
    const uint32_t rows = 64;
    const uint32_t cols = 131072;
    const uint32_t aivNum = 40;
    const uint32_t tileLen = 4096;   // 16 KB per tile: 4 queue slots + 4 work buffers = 128 KB of UB

    RowLogNormalizeTiling tiling{};
    tiling.rows = rows;
    tiling.cols = cols;
    tiling.rowsPerCore = (rows + aivNum - 1) / aivNum;
    tiling.tileLen = tileLen;
    tiling.tileNum = (cols + tileLen - 1) / tileLen;
    uint32_t rest = cols - (tiling.tileNum - 1) * tileLen;
    tiling.lastLen = (rest + 7) / 8 * 8;   // cols is a multiple of 8 in this sample
    uint32_t blockDim = (rows + tiling.rowsPerCore - 1) / tiling.rowsPerCore;

    size_t bytes = size_t(rows) * cols * sizeof(float);
    std::vector<float> host(size_t(rows) * cols);
    {
        std::ifstream in("./input/input_x.bin", std::ios::binary);
        if (!in.read(reinterpret_cast<char *>(host.data()), bytes)) {
            std::cerr << "cannot read ./input/input_x.bin" << std::endl;
            return -1;
        }
    }

    ACL_CALL(aclInit(nullptr));
    ACL_CALL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    ACL_CALL(aclrtCreateStream(&stream));

    uint8_t *xDev = nullptr, *yDev = nullptr, *tDev = nullptr;
    ACL_CALL(aclrtMalloc((void **)&xDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc((void **)&yDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc((void **)&tDev, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMemcpy(xDev, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CALL(aclrtMemcpy(tDev, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    row_log_normalize_do(blockDim, stream, xDev, yDev, tDev);
    ACL_CALL(aclrtSynchronizeStream(stream));

    ACL_CALL(aclrtMemcpy(host.data(), bytes, yDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output_y.bin", std::ios::binary).write(reinterpret_cast<char *>(host.data()), bytes);

    ACL_CALL(aclrtFree(xDev));
    ACL_CALL(aclrtFree(yDev));
    ACL_CALL(aclrtFree(tDev));
    ACL_CALL(aclrtDestroyStream(stream));
    ACL_CALL(aclrtResetDevice(0));
    ACL_CALL(aclFinalize());
    return 0;
}
