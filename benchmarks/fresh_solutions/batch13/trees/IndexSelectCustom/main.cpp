/*
 * column_pick host program: out = x[:, idx]
 */
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_column_pick.h"

#define ACL_OK(call)                                                          \
    do {                                                                      \
        auto rc__ = (call);                                                   \
        if (rc__ != ACL_SUCCESS) {                                            \
            printf("%s:%d %s -> %d\n", __FILE__, __LINE__, #call, (int)rc__); \
            return -1;                                                        \
        }                                                                     \
    } while (0)

struct ColumnPickTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t picks;
    uint32_t rowsPerCore;
    uint32_t rowsTail;
};

template <typename T>
static bool ReadInto(const std::string &name, std::vector<T> &dst)
{
    std::ifstream f(name, std::ios::binary);
    return static_cast<bool>(f.read(reinterpret_cast<char *>(dst.data()), dst.size() * sizeof(T)));
}

int main()
{
    const uint32_t rows = 256;
    const uint32_t cols = 8192;
    const uint32_t picks = 2048;
    const uint32_t coreNum = 32;

    ColumnPickTiling tl{rows, cols, picks, rows / coreNum, rows % coreNum};

    std::vector<float> x(static_cast<size_t>(rows) * cols);
    std::vector<int64_t> idx(picks);
    std::vector<float> out(static_cast<size_t>(rows) * picks);
    if (!ReadInto("./input/input_x.bin", x) || !ReadInto("./input/input_idx.bin", idx)) {
        printf("failed to read inputs, run scripts/gen_data.py first\n");
        return -1;
    }

    ACL_OK(aclInit(nullptr));
    ACL_OK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    ACL_OK(aclrtCreateStream(&stream));

    size_t xBytes = x.size() * sizeof(float);
    size_t idxBytes = idx.size() * sizeof(int64_t);
    size_t outBytes = out.size() * sizeof(float);

    void *xD = nullptr, *idxD = nullptr, *outD = nullptr, *tlD = nullptr;
    ACL_OK(aclrtMalloc(&xD, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&idxD, idxBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&outD, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&tlD, sizeof(tl), ACL_MEM_MALLOC_HUGE_FIRST));

    ACL_OK(aclrtMemcpy(xD, xBytes, x.data(), xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(idxD, idxBytes, idx.data(), idxBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(tlD, sizeof(tl), &tl, sizeof(tl), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(column_pick)(coreNum, stream, xD, idxD, outD, tlD);
    ACL_OK(aclrtSynchronizeStream(stream));

    ACL_OK(aclrtMemcpy(out.data(), outBytes, outD, outBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output_out.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(out.data()), outBytes);

    aclrtFree(xD);
    aclrtFree(idxD);
    aclrtFree(outD);
    aclrtFree(tlD);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
