// Runs row_slot_write on (64 x 8192) base data with 4096 writes per row.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_row_slot_write.h"

#define ACL_CALL(x)                                                                    \
    do {                                                                               \
        aclError s_ = (x);                                                             \
        if (s_ != ACL_SUCCESS) {                                                       \
            std::fprintf(stderr, "error %d from %s at line %d\n", s_, #x, __LINE__);   \
            return 1;                                                                  \
        }                                                                              \
    } while (0)

struct RowSlotWriteTiling {
    uint32_t rows;
    uint32_t width;
    uint32_t count;
    uint32_t rowsPerCore;
};

static bool ReadRaw(const std::string &path, void *buf, size_t bytes)
{
    std::ifstream f(path, std::ios::binary);
    if (!f.is_open()) {
        std::fprintf(stderr, "can't open %s\n", path.c_str());
        return false;
    }
    f.read(static_cast<char *>(buf), static_cast<std::streamsize>(bytes));
    return f.gcount() == static_cast<std::streamsize>(bytes);
}

int main()
{
    const uint32_t rows = 64, width = 8192, count = 4096;
    const uint32_t blockDim = 32;
    RowSlotWriteTiling tiling{rows, width, count, (rows + blockDim - 1) / blockDim};

    const size_t baseBytes = size_t(rows) * width * sizeof(float);
    const size_t posBytes = size_t(rows) * count * sizeof(int64_t);
    const size_t valBytes = size_t(rows) * count * sizeof(float);

    std::vector<float> base(size_t(rows) * width), val(size_t(rows) * count), out(size_t(rows) * width);
    std::vector<int64_t> pos(size_t(rows) * count);
    if (!ReadRaw("./input/input_x.bin", base.data(), baseBytes) ||
        !ReadRaw("./input/input_idx.bin", pos.data(), posBytes) ||
        !ReadRaw("./input/input_updates.bin", val.data(), valBytes)) {
        return 1;
    }

    ACL_CALL(aclInit(nullptr));
    ACL_CALL(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_CALL(aclrtCreateStream(&stream));

    void *dBase, *dPos, *dVal, *dOut, *dTiling;
    ACL_CALL(aclrtMalloc(&dBase, baseBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&dPos, posBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&dVal, valBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&dOut, baseBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&dTiling, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMemcpy(dBase, baseBytes, base.data(), baseBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CALL(aclrtMemcpy(dPos, posBytes, pos.data(), posBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CALL(aclrtMemcpy(dVal, valBytes, val.data(), valBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CALL(aclrtMemcpy(dTiling, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(row_slot_write)(blockDim, stream, dBase, dPos, dVal, dOut, dTiling);
    ACL_CALL(aclrtSynchronizeStream(stream));

    ACL_CALL(aclrtMemcpy(out.data(), baseBytes, dOut, baseBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream f("./output/output_y.bin", std::ios::binary);
    f.write(reinterpret_cast<const char *>(out.data()), static_cast<std::streamsize>(baseBytes));

    aclrtFree(dBase);
    aclrtFree(dPos);
    aclrtFree(dVal);
    aclrtFree(dOut);
    aclrtFree(dTiling);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
