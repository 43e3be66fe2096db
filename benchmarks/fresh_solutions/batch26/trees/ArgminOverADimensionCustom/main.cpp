#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_column_min_position.h"

struct ColumnMinPositionTiling {
    uint32_t outer, reduce, inner, chunk, chunksPerRow, slabRows, totalItems;
};

#define ACL_OK(call) do { auto _r = (call); if (_r != ACL_SUCCESS) { \
    fprintf(stderr, "%s -> %d\n", #call, (int)_r); return 1; } } while (0)

int main()
{
    // x: [2, 4096, 4095] float32, reduced over axis 1
    const uint32_t outer = 2, reduce = 4096, inner = 4095;
    ColumnMinPositionTiling t;
    t.outer = outer;
    t.reduce = reduce;
    t.inner = inner;
    t.chunk = 256;
    t.chunksPerRow = (inner + t.chunk - 1) / t.chunk;   // 16
    t.slabRows = 24;                                    // 24 x 256 x 4B = 24KB per slab, double buffered
    t.totalItems = outer * t.chunksPerRow;              // 32
    uint32_t blockDim = t.totalItems < 40 ? t.totalItems : 40;

    size_t inBytes = (size_t)outer * reduce * inner * sizeof(float);
    size_t outBytes = (size_t)outer * inner * sizeof(int64_t);

    ACL_OK(aclInit(nullptr));
    ACL_OK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    ACL_OK(aclrtCreateStream(&stream));

    void *hostX = nullptr;
    ACL_OK(aclrtMallocHost(&hostX, inBytes));
    std::ifstream fin("./input/x.bin", std::ios::binary);
    if (!fin.read(static_cast<char *>(hostX), inBytes)) {
        fprintf(stderr, "input/x.bin missing or short\n");
        return 1;
    }

    void *devX, *devIdx, *devT;
    ACL_OK(aclrtMalloc(&devX, inBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&devIdx, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&devT, sizeof(t), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemcpy(devX, inBytes, hostX, inBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(devT, sizeof(t), &t, sizeof(t), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(column_min_position)(blockDim, stream, devX, devIdx, devT);
    ACL_OK(aclrtSynchronizeStream(stream));

    std::vector<int64_t> idx(outer * inner);
    ACL_OK(aclrtMemcpy(idx.data(), outBytes, devIdx, outBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(idx.data()), outBytes);

    aclrtFree(devX);
    aclrtFree(devIdx);
    aclrtFree(devT);
    aclrtFreeHost(hostX);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
