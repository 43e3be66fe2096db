"""Configuration and parameter records of the advanced API (softmax, normalisation, transdata,
unpad, cumsum): each family passes a correct kernel and fails one with a misspelt name or a
dropped argument, so the records carry their real field names and the calls their real arity."""

from __future__ import annotations

from annotate.checker.clangcheck import KernelChecker
from tests.helpers.checker_cases import HEAD, fails_with

SOFTMAX = (
    HEAD
    + """
void HostTiling(const AscendC::TensorShape& shape, AscendC::SoftMaxTiling& tiling)
{
    AscendC::SoftMaxFlashV2TilingFunc(shape, 4, 4, 1024, tiling, true, false);
}
__aicore__ inline float Alpha(uint32_t m, uint32_t k)
{
    AscendC::SoftMaxParams params = {m, k, m, k, 2, 8, 0.5f};
    return params.alpha + params.splitMeanCnt;
}
"""
)


def test_softmax_params_and_host_tiling(checker: KernelChecker) -> None:
    fails_with(checker, SOFTMAX, "params.alpha +", "params.alpah +", "alpah")
    # host code: clang's own overload errors are not counted there, a near-miss name is
    fails_with(
        checker, SOFTMAX, "SoftMaxFlashV2TilingFunc(", "SoftMaxFlashV2TilingFnc(", "SoftMaxFlashV2TilingFnc"
    )


NORMALIZATION = (
    HEAD
    + """
constexpr LayerNormConfig LN_CFG = {false, false, false, true};
constexpr NormalizeConfig NL_CFG = {ReducePattern::AR, -1, false, false, false};
__aicore__ inline void Norm(const LocalTensor<float>& y, const LocalTensor<float>& mean, const LocalTensor<float>& rstd,
                            const LocalTensor<float>& var, const LocalTensor<float>& x, const LocalTensor<float>& gamma,
                            const LocalTensor<float>& beta, const LocalTensor<uint8_t>& tmp,
                            const LayerNormSeparateTiling& tiling, uint32_t a, uint32_t r)
{
    LayerNormPara lnPara = {a, r, r};
    LayerNorm<float, float, false, LN_CFG>(y, mean, rstd, x, gamma, beta, 1e-5f, lnPara, tiling);
    NormalizePara nlPara = {a, r, lnPara.rLengthWithPadding};
    Normalize<float, float, false, NL_CFG>(y, rstd, mean, var, x, gamma, beta, tmp, 1e-5f, nlPara);
}
"""
)


def test_layernorm_and_normalize(checker: KernelChecker) -> None:
    fails_with(checker, NORMALIZATION, "lnPara.rLengthWithPadding", "lnPara.rLengthWithPad", "rLengthWithPad")
    fails_with(checker, NORMALIZATION, "ReducePattern::AR,", "ReducePattern::RR,", "RR")
    fails_with(checker, NORMALIZATION, "tmp, 1e-5f, nlPara);", "tmp, nlPara);", "Normalize")


WELFORD = (
    HEAD
    + """
constexpr WelfordUpdateConfig UPDATE_CFG = {true};
__aicore__ inline void Stats(const LocalTensor<float>& mean, const LocalTensor<float>& var,
                             const LocalTensor<float>& x, const LocalTensor<int32_t>& counts,
                             const LocalTensor<uint8_t>& tmp, uint32_t n, uint32_t ab)
{
    WelfordUpdateParam update = {n, ab, ab, 1.0f};
    WelfordUpdate<float, float, false, UPDATE_CFG>(mean, var, mean, var, x, tmp, update);
    WelfordFinalizePara finalize = {n, ab, 1, ab, 0, 0, 1.0f, 1.0f};
    finalize.headCountLength = ab;
    WelfordFinalize<false>(mean, var, mean, var, counts, tmp, finalize);
}
"""
)


def test_welford(checker: KernelChecker) -> None:
    fails_with(checker, WELFORD, "finalize.headCountLength", "finalize.headCountLen", "headCountLen")
    fails_with(
        checker,
        WELFORD,
        "(mean, var, mean, var, x, tmp, update)",
        "(mean, var, x, tmp, update)",
        "WelfordUpdate",
    )


TRANSDATA = (
    HEAD
    + """
constexpr TransDataConfig CFG = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
__aicore__ inline void Convert(const LocalTensor<half>& dst, const LocalTensor<half>& src,
                               const LocalTensor<uint8_t>& tmp, int n, int c, int d, int h, int w)
{
    auto from = MakeLayout(MakeShape(n, c, d, h, w), MakeStride());
    auto to = MakeLayout(MakeShape(n, d, c, h, w, 16), MakeStride());
    TransDataParams<decltype(from), decltype(to)> params = {from, to};
    (void)params.dstLayout;
    TransData<CFG>(dst, src, tmp, params);
}
"""
)


def test_transdata(checker: KernelChecker) -> None:
    fails_with(checker, TRANSDATA, "(void)params.dstLayout;", "(void)params.dstLayot;", "dstLayot")
    fails_with(checker, TRANSDATA, "DataFormat::NDC1HWC0}", "DataFormat::NDC1HWCO}", "NDC1HWCO")


UNPAD = (
    HEAD
    + """
__aicore__ inline void Trim(const LocalTensor<float>& dst, const LocalTensor<float>& src,
                            LocalTensor<uint8_t>& tmp, UnPadTiling& tiling)
{
    UnPadParams params{0, 1};
    params.rightPad = 2;
    UnPad(dst, src, params, tmp, tiling);
}
"""
)


def test_unpad(checker: KernelChecker) -> None:
    fails_with(checker, UNPAD, "params.rightPad = 2;", "params.rigthPad = 2;", "rigthPad")
    fails_with(
        checker, UNPAD, "UnPad(dst, src, params, tmp, tiling);", "UnPad(dst, src, tmp, tiling);", "UnPad"
    )


CUMSUM = (
    HEAD
    + """
constexpr CumSumConfig CFG = {true, false, true, CumSumAlgorithm::CUMSUM_ALGORITHM_SKLANSKY};
__aicore__ inline void Scan(LocalTensor<float>& dst, LocalTensor<float>& last, const LocalTensor<float>& src,
                            uint32_t rows, uint32_t cols)
{
    static_assert(CFG.outputLastRow, "");
    CumSumInfo info = {rows, cols};
    CumSum<float, CFG>(dst, last, src, info);
}
"""
)


def test_cumsum(checker: KernelChecker) -> None:
    fails_with(checker, CUMSUM, "CUMSUM_ALGORITHM_SKLANSKY}", "CUMSUM_ALGORITHM_SKLANSKI}", "SKLANSKI")
    fails_with(
        checker,
        CUMSUM,
        "static_assert(CFG.outputLastRow",
        "static_assert(CFG.outputLastRows",
        "outputLastRows",
    )
