"""Basic-API families of today's interface (asc-devkit's own examples), each with a passing sample
and a mutated one; and the evidence rules those examples needed: names declared only in a
preprocessor branch a -D selects, the host tiling library, a misread declaration's next line."""

from __future__ import annotations

from annotate.checker.clangcheck import KernelChecker
from tests.helpers.checker_cases import HEAD, errors_text, fails_with

SYNC = (
    HEAD
    + """
__global__ __vector__ void Accumulate(GM_ADDR flags, GM_ADDR work)
{
    GlobalTensor<int32_t> gm;
    LocalTensor<int32_t> ub;
    InitDetermineComputeWorkspace(gm, ub);
    WaitPreBlock(gm, ub);
    NotifyNextBlock(gm, ub);
    WriteGmByPassDCache<int32_t>((__gm__ int32_t*)flags, 1);
    int32_t seen = ReadGmByPassDCache((__gm__ int32_t*)flags);
    GroupBarrier<PipeMode::MTE3_MODE> barrier(work, 8, 8);
    barrier.Arrive(0);
    barrier.Wait(seen);
    uint64_t start = clock();
    (void)start;
}
"""
)


def test_block_ordering_cache_bypass_group_barrier_and_clock(checker: KernelChecker) -> None:
    fails_with(checker, SYNC, "WaitPreBlock(gm, ub);", "WaitPreBlock(gm);", "WaitPreBlock")
    fails_with(checker, SYNC, "ReadGmByPassDCache((", "ReadGmByPasDCache((", "ReadGmByPasDCache")
    fails_with(checker, SYNC, "barrier.Arrive(0);", "barrier.Arive(0);", "Arive")
    fails_with(checker, SYNC, "PipeMode::MTE3_MODE", "PipeMode::MTE3_MOD", "MTE3_MOD")


REDUCE = (
    HEAD
    + """
__aicore__ inline void Sum(LocalTensor<float>& dst, LocalTensor<float>& src, TQue<TPosition::VECIN, 1>& que)
{
    ReduceRepeat<ReduceType::SUM, float>(dst, src, 64, 4, 1, 1, 8);
    ReducePairElem<ReduceType::MAX, float, float, false>(dst, src, 64, 4, 1, 1, 8);
    ReduceDataBlock<ReduceType::MIN, float, float>(dst, src, 64, 4, 1, 1, 8);
    que.InitStartBufHandle(nullptr, 1, 256);
}
"""
)


def test_reduces_templated_by_reduce_type_and_buffer_pool_handles(checker: KernelChecker) -> None:
    repeat = "ReduceRepeat<ReduceType::SUM, float>(dst, src, 64, 4, 1, 1, 8);"
    fails_with(checker, REDUCE, repeat, repeat.replace(", 8);", ");"), "ReduceRepeat")
    fails_with(checker, REDUCE, "ReducePairElem<", "ReducePairElen<", "ReducePairElen")
    buffers = "que.InitStartBufHandle(nullptr, 1, 256);"
    fails_with(checker, REDUCE, buffers, buffers.replace(", 256", ""), "too few arguments")


REGISTER_BUILTINS = (
    HEAD
    + """
__simd_vf__ inline void Mask(__ubuf__ float* dst, uint32_t count)
{
    Reg::MaskReg preg = plt_b32(count, POST_UPDATE);
    (void)preg;
    copy_ubuf_to_gm_align_v2(dst, dst, 0, 1, 32, 0, 0, 0);
}
"""
)


def test_ascend950_register_builtins(checker: KernelChecker) -> None:
    fails_with(checker, REGISTER_BUILTINS, "plt_b32(count", "plt_b23(count", "plt_b23")


SCENARIOS = (
    HEAD
    + """
#if SCENARIO_NUM == 1
using T1 = float;
constexpr uint32_t LENGTH = 4096;
#elif SCENARIO_NUM == 2
using T1 = half;
constexpr uint32_t LENGTH = 2048;
#endif
__global__ __vector__ void Copy(GM_ADDR x)
{
    GlobalTensor<T1> xGm;
    xGm.SetGlobalBuffer((__gm__ T1*)x, LENGTH);
}
"""
)


def test_names_declared_only_in_a_branch_the_build_selects(checker: KernelChecker) -> None:
    result = checker.check_source(SCENARIOS, "kernel.cpp")
    assert result.ok, errors_text(result)
    assert any("preprocessor branch" in d.message for d in result.diagnostics)
    misspelt = checker.check_source(
        SCENARIOS.replace("GlobalTensor<T1> xGm", "GlobalTensor<T2> xGm"), "kernel.cpp"
    )
    assert not misspelt.ok  # a name no branch declares is still an error


HOST_TILING = (
    HEAD
    + """
void Tiling(uint32_t& maxValue, uint32_t& minValue)
{
    AscendC::GetCeilMaxMinTmpSizeX(4, false, maxValue, minValue);
    AscendC::GetBlockNumm();
}
"""
)


def test_host_code_is_judged_by_near_misses_only(checker: KernelChecker) -> None:
    result = checker.check_source(HOST_TILING, "kernel.cpp")
    lines = {d.line: d.severity for d in result.diagnostics}
    text = HOST_TILING.splitlines()
    unknown = next(i for i, line in enumerate(text, 1) if "GetCeilMaxMinTmpSizeX" in line)
    misspelt = next(i for i, line in enumerate(text, 1) if "GetBlockNumm" in line)
    assert lines.get(unknown) == "warning" and lines.get(misspelt) == "error", result.diagnostics


MANY_ARGUMENTS = (
    HEAD
    + """
__simd_vf__ inline void Body(__ubuf__ float* p0, ...) {}
__aicore__ inline void Launch(__ubuf__ float* p)
{
    asc_vf_call<Body>(ARGS);
    (void)pids;
    FixpipeParamsC310<CO2Layout::ROW_MAJOR> params;
    GlobalTensor<float> c;
    LocalTensor<float> l0c;
    Fixpipe<float, float, CFG_ROW_MAJOR>(c, l0c, params);
}
"""
).replace("ARGS", ", ".join(["p"] * 130))


def test_variadic_calls_derived_records_and_builtins_as_no_misspelling_target(checker: KernelChecker) -> None:
    """A variadic launch with 130 arguments is fine; a record binds where its base is expected;
    an unknown `pids` (a missing include may declare it) is no misspelling of the built-in `plds`."""
    text = MANY_ARGUMENTS.replace(HEAD, HEAD + '#include "missing_helpers.h"\n')
    result = checker.check_source(text, "kernel.cpp")
    assert result.ok, errors_text(result)
    assert not any("plds" in d.message for d in result.diagnostics)
    fails_with(checker, text, "(c, l0c, params);", "(c, params);", "Fixpipe")
