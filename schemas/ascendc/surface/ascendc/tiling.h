// curate AscendC surface: reading tiling data inside a kernel and declaring its task type.
//
// In a real build the framework generates the tiling structure from the host-side definition and
// injects it; the checker does the same from the operator's op_host sources and names the default
// structure CURATE_DEFAULT_TILING_TYPE. When no definition is found the placeholder below is used
// and member accesses on it are reported as "unknown to the surface", not as errors.
#ifndef CURATE_ASCENDC_TILING_H
#define CURATE_ASCENDC_TILING_H

struct CurateUnknownTilingData {};
#ifndef CURATE_DEFAULT_TILING_TYPE
#define CURATE_DEFAULT_TILING_TYPE CurateUnknownTilingData
#endif

template <typename T>
__aicore__ inline T CurateTilingFromBytes(GM_ADDR tiling);

#define GET_TILING_DATA(tiling_data, tiling_arg) \
    CURATE_DEFAULT_TILING_TYPE tiling_data = CurateTilingFromBytes<CURATE_DEFAULT_TILING_TYPE>(tiling_arg)
#define GET_TILING_DATA_WITH_STRUCT(tiling_struct, tiling_data, tiling_arg) \
    tiling_struct tiling_data = CurateTilingFromBytes<tiling_struct>(tiling_arg)
#define GET_TILING_DATA_PTR_WITH_STRUCT(tiling_struct, dst_ptr, tiling_ptr)                       \
    const tiling_struct __curate_tiling_##dst_ptr = CurateTilingFromBytes<tiling_struct>(tiling_ptr); \
    __tiling_data_ptr__ tiling_struct* dst_ptr = &__curate_tiling_##dst_ptr
#define GET_TILING_DATA_MEMBER(tiling_type, member, var, tiling) \
    auto var = CurateTilingFromBytes<tiling_type>(tiling).member
#define COPY_TILING_WITH_STRUCT(tiling_struct, src_ptr, dst_ptr)                                   \
    const tiling_struct __curate_copy_##dst_ptr = *reinterpret_cast<const tiling_struct*>(src_ptr); \
    const tiling_struct* dst_ptr = &__curate_copy_##dst_ptr
#define REGISTER_TILING_DEFAULT(tiling_struct) static_assert(sizeof(tiling_struct) >= 0, "")
#define REGISTER_TILING_FOR_TILINGKEY(condition, tiling_struct) static_assert(sizeof(tiling_struct) >= 0, "")
#define REGISTER_NONE_TILING static_assert(true, "")
#define TILING_KEY_IS(k) (TILING_KEY_VAR == (k))
#define KERNEL_TASK_TYPE_DEFAULT(value) static_assert(sizeof(value) >= 0, "")
#define KERNEL_TASK_TYPE(key, value) static_assert(sizeof(value) >= 0, "")
#define ENABLE_DETERMINISTIC() static_assert(true, "")
#define ASCENDC_TPL_SEL_PARAM(...) static_assert(true, "")

// Collective-communication (mc2) tiling blocks: opaque to the kernel.
struct Mc2InitTiling {
    uint8_t reserved[64];
};
struct Mc2CcTiling {
    uint8_t reserved[512];
};

#endif  // CURATE_ASCENDC_TILING_H
