"""The Ascend950 matrix (cube) surface: MX loads and products, strided and sparse loads, the 3510
fixpipe record and the matmul helpers. Each family passes a correct kernel and fails a mutated one."""

from __future__ import annotations

from annotate.checker.clangcheck import KernelChecker
from tests.helpers.checker_cases import HEAD, fails_with

MX = (
    HEAD
    + """
__aicore__ inline void Product(LocalTensor<float>& c, LocalTensor<fp4x2_e2m1_t>& a1,
                               LocalTensor<AscendC::fp8_e8m0_t>& scaleA1, LocalTensor<fp4x2_e2m1_t>& a2,
                               LocalTensor<fp4x2_e2m1_t>& b2, uint16_t m, uint16_t n, uint16_t k)
{
    LoadData2DParamsV2 load;
    load.mStep = 1;
    load.kStep = 2;
    LoadData2DMxParams scale;
    scale.xStartPosition = 0;
    scale.yStartPosition = 0;
    scale.xStep = 1;
    scale.yStep = 2;
    LoadData(a2, a1, scaleA1, load, scale);
    LoadData2DMxParams whole(0, 0, 1, 2, 2, 2);
    (void)whole;
    MmadParams mmad;
    mmad.m = m;
    mmad.n = n;
    mmad.k = k;
    MmadMx(c, a2, b2, mmad);
}
"""
)


def test_mx_load_and_product(checker: KernelChecker) -> None:
    fails_with(checker, MX, "scale.xStep = 1;", "scale.xStpe = 1;", "xStpe")
    fails_with(
        checker,
        MX,
        "LoadData(a2, a1, scaleA1, load, scale);",
        "LoadData(a2, a1, scaleA1, scale);",
        "LoadData",
    )
    fails_with(checker, MX, "MmadMx(c, a2, b2, mmad);", "MmadMX(c, a2, b2, mmad);", "MmadMX")
    fails_with(checker, MX, "MmadMx(c, a2, b2, mmad);", "MmadMx(c, a2, mmad);", "MmadMx")


STRIDED = (
    HEAD
    + """
__aicore__ inline void Split(LocalTensor<half>& a2, LocalTensor<half>& a1, uint16_t m)
{
    LoadData3DParamsV2<half> params;
    params.channelSize = 32;
    LoadDataRepeatParamWithStride repeat;
    repeat.dstStride = m / 16;
    SetLoadDataRepeatWithStride(repeat);
    LoadDataWithStride(a2, a1, params);
    SetLoadDataRepeatWithStride({0, 1, 0, m});
    SetLoadDataRepeat({0, 1, 0});
    static constexpr IsResetLoad3dConfig KEEP = {false, false};
    LoadData<half, KEEP>(a2, a1, params);
}
"""
)


def test_strided_and_repeated_loads(checker: KernelChecker) -> None:
    fails_with(checker, STRIDED, "repeat.dstStride = m / 16;", "repeat.dstStrid = m / 16;", "dstStrid")
    fails_with(
        checker, STRIDED, "LoadDataWithStride(a2, a1, params);", "LoadDataWithStride(a2, params);", "LoadData"
    )
    fails_with(
        checker, STRIDED, "SetLoadDataRepeat({0, 1, 0});", "SetLoadDataRepet({0, 1, 0});", "SetLoadDataRepet"
    )
    fails_with(
        checker,
        STRIDED,
        "static constexpr IsResetLoad3dConfig KEEP",
        "static constexpr IsResetLoad3DConfig KEEP",
        "IsResetLoad3DConfig",
    )


SPARSE = (
    HEAD
    + """
__aicore__ inline void Sparse(LocalTensor<int32_t>& c, LocalTensor<int8_t>& a2, LocalTensor<int8_t>& b1,
                              LocalTensor<int8_t>& b2, LocalTensor<uint8_t>& idx, uint16_t m, uint16_t n, uint16_t k)
{
    LoadData2DParams load;
    load.repeatTimes = 4;
    LoadDataWithSparse(b2, b1, idx, load);
    MmadWithSparse(c, a2, b2, {m, n, k, false, 0, false, false, false});
}
"""
)


def test_sparse_load_and_product(checker: KernelChecker) -> None:
    fails_with(
        checker,
        SPARSE,
        "LoadDataWithSparse(b2, b1, idx, load);",
        "LoadDataWithSparse(b2, b1, load);",
        "LoadData",
    )
    fails_with(
        checker,
        SPARSE,
        "MmadWithSparse(c, a2, b2, {m, n, k, false, 0, false, false, false});",
        "MmadWithSparce(c, a2, b2, {m, n, k, false, 0, false, false, false});",
        "MmadWithSparce",
    )


FIXPIPE_3510 = (
    HEAD
    + """
__aicore__ inline void Store(GlobalTensor<bfloat16_t>& out, LocalTensor<float>& l0c, uint16_t m, uint16_t n)
{
    FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> params(n, m, m, n);
    params.quantPre = QuantMode_t::VQF322BF16_PRE;
    params.params.ndNum = 1;
    Fixpipe<bfloat16_t, float, CFG_ROW_MAJOR>(out, l0c, params);
}
"""
)


def test_fixpipe_3510_record(checker: KernelChecker) -> None:
    fails_with(checker, FIXPIPE_3510, "params(n, m, m, n);", "params(n, m, m);", "FixpipeParamsArch3510")
    # the nz2nd loop sizes live in the layout transform, not on the record itself
    fails_with(checker, FIXPIPE_3510, "params.params.ndNum = 1;", "params.ndNum = 1;", "ndNum")


MATMUL = (
    HEAD
    + """
#include "lib/matmul_intf.h"
template <typename AType>
class Kernel {
    using L0cT = typename AscendC::GetMmDstType<AType>::Type;

public:
    __aicore__ inline void Run(LocalTensor<L0cT>& c) { (void)c; }
};
__aicore__ constexpr MatmulApiStaticTiling Tiling()
{
    MatmulApiStaticTiling tiling;
    tiling.mxTypePara = 0x01010101;
    return tiling;
}
"""
)


def test_matmul_dst_type_and_mx_tiling(checker: KernelChecker) -> None:
    fails_with(checker, MATMUL, "AscendC::GetMmDstType<AType>", "AscendC::GetMmDstTyp<AType>", "GetMmDstTyp")
    fails_with(checker, MATMUL, "tiling.mxTypePara = ", "tiling.mxTypeParam = ", "mxTypeParam")


def test_every_address_space_qualifier_is_modelled(checker: KernelChecker) -> None:
    """Each address-space qualifier of the vendor compiler (the bias table's `__biasbuf__` is in
    its cube data-copy headers) is known: no diagnostic at all, where an unknown `__x__` name is
    reported as a built-in the surface does not model."""
    helper = (
        HEAD
        + """
__aicore__ inline float First(__gm__ float* g, __ubuf__ float* u, __cbuf__ half* l1, __ca__ half* a,
                              __cb__ half* b, __cc__ float* c, __fbuf__ uint64_t* f, __biasbuf__ float* bias,
                              __ssbuf__ uint32_t* s)
{
    return g[0] + u[0] + static_cast<float>(l1[0] + a[0] + b[0]) + c[0] + static_cast<float>(f[0]) + bias[0]
           + static_cast<float>(s[0]);
}
"""
    )
    known = checker.check_source(helper, "kernel.cpp")
    assert known.ok and not known.diagnostics, [d.message for d in known.diagnostics]
    unknown = checker.check_source(helper.replace("__biasbuf__", "__biasbuff__"), "kernel.cpp")
    assert any("'__biasbuff__'" in d.message for d in unknown.diagnostics)
