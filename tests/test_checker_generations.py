"""The kernel checker across API generations: each newly covered family passes a correct sample
and fails a mutated one; clang errors count only with positive evidence; a reasoning is not
blamed for what its unit's own kernel already shows."""

from __future__ import annotations

from annotate.checker.clangcheck import KernelChecker
from annotate.checker.opcontext import active_text, build_macros, op_context
from annotate.reasoning import SurfaceVerifier
from annotate.tasks.kernel_reasoning import render_reasoning
from schemas.ascendc import split_unit_code
from schemas.ascendc.includes import assemble_code
from schemas.verdicts import is_accepted
from tests.helpers.checker_cases import HEAD, errors_text, fails_with, line_of
from tests.test_annotate_task import make_unit
from tests.test_verify_grounding import SECTIONS

# -- API families of the surface ---------------------------------------------------------------------
TENSOR_API = (
    HEAD
    + """
template <typename T>
__aicore__ inline void Tile(GM_ADDR a, uint32_t m, uint32_t k)
{
    auto layout = AscendC::Te::MakeFrameLayout<AscendC::Te::NDExtLayoutPtn, AscendC::Te::LayoutTraitDefault<T>>(m, k);
    auto ptr = AscendC::Te::MakeMemPtr<AscendC::Te::Location::GM>(reinterpret_cast<__gm__ T*>(a));
    auto tensor = AscendC::Te::MakeTensor(ptr, layout);
    auto coord = AscendC::Te::MakeCoord(0, 0);
    int64_t row = AscendC::Te::Get<0>(coord);
    auto shape = AscendC::Te::MakeShape(m, k);
    using Format = AscendC::Te::FrameLayoutFormat<AscendC::Te::NZLayoutPtn>;
    (void)Format{}(m, k);
    (void)tensor;
    (void)row;
    (void)shape;
}
"""
)


def test_tensor_api(checker: KernelChecker) -> None:
    fails_with(checker, TENSOR_API, "Te::MakeShape(m, k)", "Te::MakeShpe(m, k)", "MakeShpe")
    # a value where the interface takes a type (the layout pattern)
    fails_with(
        checker,
        TENSOR_API,
        "FrameLayoutFormat<AscendC::Te::NZLayoutPtn>",
        "FrameLayoutFormat<16>",
        "template argument",
    )


HCCL = (
    HEAD
    + """
__aicore__ inline void Communicate(GM_ADDR context, GM_ADDR x, GM_ADDR y, uint64_t n)
{
    Hccl<HCCL_SERVER_TYPE_AICPU> hccl;
    hccl.Init(context);
    HcclHandle handle = hccl.AllReduce<true>(x, y, n, HCCL_DATA_TYPE_FP16, HCCL_REDUCE_SUM);
    hccl.Wait(handle);
    __gm__ uint8_t* ctx = GetHcclContext<0>();
    (void)ctx;
    hccl.Finalize();
}
"""
)


def test_collective_communication(checker: KernelChecker) -> None:
    fails_with(
        checker,
        HCCL,
        "hccl.AllReduce<true>(x, y, n, HCCL_DATA_TYPE_FP16, HCCL_REDUCE_SUM)",
        "hccl.AllReduce<true>(x, y, n, HCCL_DATA_TYPE_FP16)",
        "AllReduce",
    )
    fails_with(checker, HCCL, "hccl.Wait(handle)", "hccl.Waitt(handle)", "Waitt")


COMMUNITY = (
    HEAD
    + """
constexpr uint32_t BLOCK = ConstCeil(256, 32);
class KernelOld {
public:
    __aicore__ inline void Init(uint32_t tileNum)
    {
        KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
        this->tileNum = tileNum ASSERT(tileNum != 0 && "tile num can not be zero!");
        ASSERT_MSG(tileNum > 0, "tile num %u", tileNum);
        uint32_t loops = Ceil(tileNum, BLOCK) + AlignDown(tileNum, 8U) + ONE_BLK_FLOAT_NUM;
        (void)loops;
    }
    __aicore__ inline void Copy(LocalTensor<half>& dst, GlobalTensor<half>& src)
    {
        DataCopyPadGm2UBImpl((__ubuf__ half*)dst.GetPhyAddr(), (__gm__ half*)src.GetPhyAddr(), DataCopyParams{});
        SetAtomicnone();
    }
    uint32_t tileNum;
};
"""
)


def test_cann8_community_helpers(checker: KernelChecker) -> None:
    fails_with(checker, COMMUNITY, "DataCopyPadGm2UBImpl(", "DataCopyPadGm2UBImlp(", "DataCopyPadGm2UBImlp")
    fails_with(checker, COMMUNITY, "Ceil(tileNum, BLOCK)", "Ceil(tileNum)", "Ceil")


STD_AND_MATMUL = (
    HEAD
    + """#include "lib/matmul_intf.h"
template <typename T>
__aicore__ inline uint32_t Sizes()
{
    static_assert(Std::is_one_of_v<T, half, float>, "dtype");
    using Tuple = Std::tuple<T, int32_t>;
    using First = typename Std::tuple_element<0, Tuple>::type;
    static_assert(Std::is_same_v<First, T>, "first");
    constexpr MatmulShapeParams shape = {128, 128, 128, 64, 64, 64};
    constexpr MatmulConfig cfg = GetMMConfig<MatmulConfigMode::CONFIG_MDL>(shape);
    (void)cfg;
    return Std::ceil_align(17U, 16U);
}
"""
)


def test_std_utilities_and_matmul_config(checker: KernelChecker) -> None:
    fails_with(checker, STD_AND_MATMUL, "Std::is_one_of_v<", "Std::is_one_off_v<", "is_one_off_v")
    fails_with(checker, STD_AND_MATMUL, "Std::ceil_align(17U, 16U)", "Std::ceil_align(17U)", "ceil_align")


# -- errors need positive evidence -------------------------------------------------------------------
def test_generic_clang_errors_on_surface_lines_are_warnings(checker: KernelChecker) -> None:
    # SetMaskCount is a plain function today; a generation declared it with template arguments
    text = HEAD + "__aicore__ inline void f() { SetMaskCount<half>(); }\n"
    result = checker.check_source(text, "kernel.cpp")
    assert result.ok, errors_text(result)
    [finding] = [d for d in result.diagnostics if d.line == 3]
    assert finding.check == "surface.unproven" and "not counted" in finding.message


def test_evidence_still_rejects_counts_kinds_and_conversions(checker: KernelChecker) -> None:
    body = HEAD + (
        "__aicore__ inline void f(LocalTensor<half> a, GlobalTensor<half> g)\n{\n"
        "    Adds(a, a, (half)1.0, 8);\n}\n"
    )
    fails_with(checker, body, "Adds(a, a, (half)1.0, 8)", "Adds(a, a, (half)1.0)", "Adds", "number")
    fails_with(checker, body, "Adds(a, a, (half)1.0, 8)", "Adds(a, g, (half)1.0, 8)", "Adds", "kind")
    fails_with(checker, body, "Adds(a, a, (half)1.0, 8);", "LocalTensor<float> b = a;", "conversion")


def test_host_code_and_build_macros_are_not_the_surfaces_business(checker: KernelChecker) -> None:
    text = HEAD + (
        "__aicore__ inline uint32_t Blocks() { return TILE_NUM_FROM_CMAKE; }\n"
        "void launch(void* stream)\n{\n    aclrtSynchronizeStream(stream);\n}\n"
    )
    result = checker.check_source(text, "kernel.cpp")
    assert result.ok, errors_text(result)
    assert {d.check for d in result.diagnostics} <= {"surface.unknown", "surface.cascade", "surface.unproven"}
    misspelt = checker.check_source(
        text + "__aicore__ inline int64_t i() { return GetBlockIdxx(); }\n", "k.cpp"
    )
    assert not misspelt.ok and "GetBlockIdxx" in errors_text(misspelt)


# -- the operator context the build injects ----------------------------------------------------------
HOST_TILING = """\
#if 0
BEGIN_TILING_DATA_DEF(AddTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, size);
END_TILING_DATA_DEF;
#endif
BEGIN_TILING_DATA_DEF(AddTilingData)
  // TILING_DATA_FIELD_DEF(uint32_t, unused);
  TILING_DATA_FIELD_DEF(uint32_t, blockLength);
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Add, AddTilingData)
"""
KERNEL = (
    HEAD
    + """\
extern "C" __global__ __aicore__ void add(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    uint32_t n = tilingData.blockLength * tilingData.tileNum;
    (void)n;
}
"""
)


def test_tiling_read_without_dead_regions_and_from_ophost_folders(tree, checker: KernelChecker) -> None:  # type: ignore[no-untyped-def]
    assert "size" not in active_text(HOST_TILING) and "unused" not in active_text(HOST_TILING)
    root = tree({"add/add.cpp": KERNEL, "add/ophost/add_tiling.h": HOST_TILING})
    kernel = root / "add/add.cpp"
    assert "blockLength" in op_context(KERNEL, kernel.parent).header
    assert checker.check_file(kernel).ok
    misspelt = checker.check_file(kernel, overrides={kernel: KERNEL.replace("Data.tileNum", "Data.tileNmu")})
    assert not misspelt.ok and "did you mean 'tileNum'" in errors_text(misspelt)
    unread = checker.check_file(kernel, overrides={kernel: KERNEL.replace("Data.tileNum", "Data.coreCount")})
    assert unread.ok and any(d.check == "surface.tiling" for d in unread.diagnostics)


def test_format_macros_carry_ge_format_values() -> None:
    macros = build_macros("#if FORMAT_X == FORMAT_FRACTAL_NZ\n#endif\n", None)
    assert macros["FORMAT_FRACTAL_NZ"] == "29" and macros["FORMAT_X"] == macros["FORMAT_ND"] == "2"


# -- a reasoning is judged against its unit's own kernel ---------------------------------------------
REAL_KERNEL = (
    HEAD
    + """\
extern "C" __global__ __aicore__ void scale(GM_ADDR x)
{
    LocalTensor<half> a;
    AscendC::ScaleByVendorTable(a, a, 8);
    Muls(a, a, (half)2.0, 8);
}
"""
)


def _reasoning_quoting(code: str) -> str:
    return render_reasoning({**SECTIONS, "api_choices": SECTIONS["api_choices"] + f"\n\n```cpp\n{code}\n```"})


def test_findings_of_the_real_kernel_are_inherited_not_blamed_on_the_reasoning() -> None:
    checker = KernelChecker()
    assert not checker.check_source(REAL_KERNEL, "scale.cpp").ok  # an API the surface does not know
    unit = make_unit(code=REAL_KERNEL, path="ops/scale/op_kernel/scale.cpp")
    verifier = SurfaceVerifier(checker=checker)

    faithful = verifier.verify(
        unit, "", _reasoning_quoting("AscendC::ScaleByVendorTable(a, a, 8);\nMuls(a, a, (half)2.0, 8);")
    )
    assert is_accepted(faithful)
    [inherited] = faithful
    assert inherited.check == "surface.inherited" and "ScaleByVendorTable" in inherited.message

    introduced = verifier.verify(
        unit, "", _reasoning_quoting("AscendC::ScaleByVendorTable(a, a, 8);\nMulls(a, a, (half)2.0, 8);")
    )
    assert not is_accepted(introduced)
    assert [d.check for d in introduced if d.severity == "error"] == ["surface.snippet"]
    assert "Mulls" in next(d.message for d in introduced if d.severity == "error")


SIMT = """\
#include "kernel_operator.h"
#include "simt_api/asc_simt.h"
__simt_vf__ __aicore__ inline void Blur(__gm__ float* out, float w)
{
    float4 v = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
    v += v * w;
    out[0] = v.x + fmaf(v.y, w, v.z);
    unsigned int bits = __float_as_uint(out[0]);
    (void)bits;
    asc_threadfence_block();
}
"""


def test_simt_c_interface(checker: KernelChecker) -> None:
    fails_with(checker, SIMT, "asc_threadfence_block();", "asc_threadfence_blokc();", "asc_threadfence_blokc")
    fails_with(
        checker, SIMT, "make_float4(1.0f, 2.0f, 3.0f, 4.0f)", "make_float4(1.0f, 2.0f, 3.0f)", "make_float4"
    )


LAYOUTS = (
    HEAD
    + """
__aicore__ inline void Layouts(LocalTensor<float>& dst, LocalTensor<float>& src)
{
    auto layout = AscendC::MakeLayout(AscendC::MakeShape(16, 16), AscendC::MakeStride(16, 1));
    auto size = layout.GetSize();
    (void)size;
    Cos<float, false, CosConfig{CosAlgo::RADIAN_REDUCTION}>(dst, src, 16);
}
"""
)


def test_basic_layouts_and_math_configuration(checker: KernelChecker) -> None:
    fails_with(checker, LAYOUTS, "AscendC::MakeStride(16, 1)", "AscendC::MakeStirde(16, 1)", "MakeStirde")
    fails_with(checker, LAYOUTS, "CosAlgo::RADIAN_REDUCTION", "CosAlgo::RADIAN_REDUCTON", "RADIAN_REDUCTON")


def test_members_of_surface_classes_are_counted_inside_templates(checker: KernelChecker) -> None:
    good = HEAD + (
        "template <typename T>\nclass K {\npublic:\n"
        "    __aicore__ inline void P()\n    {\n"
        "        LocalTensor<T> t = q.AllocTensor<T>();\n        q.EnQue<T>(t);\n    }\n"
        "    TQue<QuePosition::VECIN, 1> q;\n};\n"
    )
    fails_with(checker, good, "q.EnQue<T>(t);", "q.EnQue<T>();", "EnQue", "0 arguments")


def test_a_sibling_operators_tiling_is_synthesised(tree, checker: KernelChecker) -> None:  # type: ignore[no-untyped-def]
    shared = '#include "kernel_operator.h"\n__aicore__ inline uint32_t Blocks(const AddTilingData* t) { return t->tileNum; }\n'
    user = '#include "../../add/op_kernel/add_impl.h"\nextern "C" __global__ __aicore__ void mul(GM_ADDR tiling) {}\n'
    root = tree(
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            "ops/add/op_host/add_tiling.h": HOST_TILING,
            "ops/add/op_kernel/add_impl.h": shared,
            "ops/mul/op_kernel/mul.cpp": user,
        }
    )
    result = checker.check_file(root / "ops/mul/op_kernel/mul.cpp")
    assert result.ok and not any(d.check == "surface.unknown" for d in result.diagnostics), errors_text(
        result
    )


def test_every_surface_header_parses_with_every_other(checker: KernelChecker) -> None:
    """Generations are declared side by side: no header of the surface may contradict another."""
    from schemas.ascendc import SURFACE_DIR

    headers = sorted(
        p.relative_to(SURFACE_DIR).as_posix()
        for p in SURFACE_DIR.rglob("*")
        if p.is_file() and p.suffix in (".h", "") and "libc" not in p.parts and p.name != "asc_prelude.h"
    )
    text = "".join(f'#include "{h}"\n' for h in headers) + "#include <cmath>\n"
    result = checker.check_source(text, "all_headers.cpp")
    assert [d for d in result.diagnostics if d.check in ("surface.internal", "include.missing")] == []
    assert result.ok, errors_text(result)


# -- the 2023 preview generation (TIK C++) and the vendor compiler's own spellings -----------------
PREVIEW = """\
#include "kernel_operator.h"
#ifdef __CCE_KT_TEST__
#define __aicore__
#else
#define __aicore__ [aicore]
#endif
using namespace tik2;

inline __aicore__ int32_t AlignDiv32(int32_t n) { return ((n + 31) & ~31) / 32; }

namespace tik2 {
template <typename T>
class Proposals {
public:
    __aicore__ inline void Sort(LocalTensor<T>& dst, LocalTensor<T>& src)
    {
        Concat(dst, src, 2, 4);
        Extract(dst, src, 2, 4);
    }
};
}  // namespace tik2

class KernelAdd {
public:
    __aicore__ inline void Init(GM_ADDR x, int32_t n)
    {
        GM_ADDR offset = ParamOffset<half>(x, n);
        xGm.SetGlobalBuffer((__gm__ half*)offset, AlignDiv32(n));
    }
    GlobalTensor<half> xGm;
};
"""


def test_preview_generation_and_bracket_attributes(checker: KernelChecker) -> None:
    fails_with(checker, PREVIEW, "ParamOffset<half>(x, n)", "ParamOfset<half>(x, n)", "ParamOfset")
    fails_with(checker, PREVIEW, "SetGlobalBuffer((__gm__", "SetGlobalBufer((__gm__", "SetGlobalBufer")
    # inside a template: no overload of Concat (this generation's or today's) takes 3 arguments
    fails_with(checker, PREVIEW, "Concat(dst, src, 2, 4);", "Concat(dst, src, 2);", "Concat", "3 arguments")


TEMPLATE_CALLS = (
    HEAD
    + """
template <typename T>
class Copier {
public:
    __aicore__ inline void Out(GlobalTensor<T>& g, LocalTensor<T>& l, uint16_t n)
    {
        DataCopyExtParams params{1, n, 0, 0, 0};
        DataCopyPad(g, l, params);
        printf("\\n");
    }
};
"""
)


def test_argument_counts_of_unqualified_calls_inside_templates(checker: KernelChecker) -> None:
    """clang never instantiates these templates; the count does not depend on their arguments."""
    fails_with(checker, TEMPLATE_CALLS, "DataCopyPad(g, l, params);", "DataCopyPad(g, l);", "DataCopyPad")
    fails_with(checker, TEMPLATE_CALLS, 'printf("\\n");', "printf();", "printf")
    own = TEMPLATE_CALLS.replace(
        "template <typename T>\nclass Copier",
        "__aicore__ inline void DataCopyPad(int a, int b);\ntemplate <typename T>\nclass Copier",
    )
    assert checker.check_source(own.replace("DataCopyPad(g, l, params);", "DataCopyPad(1, 2);"), "k.cpp").ok


def test_host_parameters_of_unreadable_types_are_not_blamed(checker: KernelChecker) -> None:
    """`std::vector<float>& x` without the surface's <vector>: clang reads the header as an
    expression and then finds `x` undeclared; the name is declared, in code the surface skips."""
    text = (
        HEAD
        + '#include <vector>\nextern "C" __global__ __aicore__ void k(GM_ADDR x)\n{\n'
        + "    GlobalTensor<half> g;\n    g.SetGlobalBuffer((__gm__ half*)x, 8);\n}\n"
        + "std::vector<float> Run(std::vector<float>& x)\n{\n    uint32_t n = x.size();\n    return x;\n}\n"
    )
    fails_with(checker, text, "g.SetGlobalBuffer(", "g.SetGlobalBufer(", "SetGlobalBufer")


BUILTINS_950 = (
    HEAD
    + """
__aicore__ inline void ReadTiling(uint8_t* tiling, GM_ADDR src, uint32_t bytes)
{
    __ubuf__ uint8_t* staged = (__ubuf__ uint8_t*)get_imm(0);
    copy_gm_to_ubuf_align_v2(staged, (__gm__ uint8_t*)src, 0, 1, bytes, 0, 0, false, 0, 0, 0);
    copy_data_align64(tiling, staged, bytes);
    AscendC::SliceInfo slices[AscendC::K_MAX_DIM];
    (void)slices;
}
"""
)


def test_ascend950_builtins_and_slice_limits(checker: KernelChecker) -> None:
    fails_with(
        checker,
        BUILTINS_950,
        "copy_gm_to_ubuf_align_v2(",
        "copy_gm_to_ubuf_algn_v2(",
        "copy_gm_to_ubuf_algn_v2",
    )
    fails_with(checker, BUILTINS_950, "AscendC::K_MAX_DIM]", "AscendC::K_MAX_DIMS]", "K_MAX_DIMS")


MATMUL_TYPES = (
    HEAD
    + """
#include "lib/matmul_intf.h"
using AType = MatmulTypeWithScale<TPosition::GM, TPosition::GM, CubeFormat::ND, fp8_e4m3fn_t, false>;
using SType = SparseMatmulType<TPosition::GM, TPosition::GM, CubeFormat::ND, int8_t>;
using Fp4 = float4_e2m1x2_t;
__aicore__ inline void Setup(uint64_t ffts) { AscendC::SetSyncBaseAddr(ffts); }
"""
)


def test_scaled_and_sparse_matmul_types_and_sync_base(checker: KernelChecker) -> None:
    fails_with(
        checker,
        MATMUL_TYPES,
        "AscendC::SetSyncBaseAddr(ffts)",
        "AscendC::SetSyncBaseAddr()",
        "too few",
    )
    fails_with(checker, MATMUL_TYPES, "= MatmulTypeWithScale<", "= MatmulTypeWithScal<", "MatmulTypeWithScal")


def test_unqualified_counts_admit_every_ascendc_namespace(checker: KernelChecker) -> None:
    """`Duplicate(dstReg, value)` in a unit that opens AscendC::Reg is the register API's (two
    arguments), not a miscount of the tensor API's (three or six)."""
    text = (
        HEAD
        + "using namespace AscendC::Reg;\ntemplate <typename T>\n"
        + "__simd_vf__ inline void Fill(T v)\n{\n    RegTensor<T> r;\n    Duplicate(r, v);\n}\n"
    )
    result = checker.check_source(text, "k.cpp")
    assert result.ok, errors_text(result)


def test_launches_inside_macros_keep_their_token_pasting(checker: KernelChecker) -> None:
    text = (
        HEAD
        + 'extern "C" __global__ __aicore__ void Kernel_f16(GM_ADDR x) {}\n'
        + "#define LAUNCH(SUFFIX) \\\\\n    Kernel_##SUFFIX<<<8, nullptr, stream>>>( \\\\\n        x)\n"
        + "void Run(GM_ADDR x, void* stream) { LAUNCH(f16); }\n"
    )
    result = checker.check_source(text, "k.asc")
    assert result.ok, errors_text(result)


FIXPIPE_950 = (
    HEAD
    + """
#include "lib/matmul_intf.h"
using AscendC::Reg::GetRound;
using AscendC::Reg::TypeGet;
__aicore__ inline void Store(GlobalTensor<float>& c, LocalTensor<float>& l0c, uint16_t m, uint16_t n)
{
    FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> params;
    params.params.ndNum = 1;
    params.mSize = m;
    params.nSize = n;
    Fixpipe(c, l0c, params);
    MmadParams mmad;
    mmad.disableGemv = true;
    using Reg = typename TypeGet<float>::T;
    constexpr auto round = GetRound<RoundMode::CAST_RINT>();
    (void)round;
}
"""
)


def test_ascend950_fixpipe_and_register_helpers(checker: KernelChecker) -> None:
    fails_with(checker, FIXPIPE_950, "params.params.ndNum = 1;", "params.params.ndNumm = 1;", "ndNumm")
    fails_with(checker, FIXPIPE_950, "Fixpipe(c, l0c, params);", "Fixpipe(c, params);", "Fixpipe")
    fails_with(checker, FIXPIPE_950, "mmad.disableGemv = true;", "mmad.disableGemvv = true;", "disableGemvv")


MATMUL_CONFIG = (
    HEAD
    + """
#include "lib/matmul_intf.h"
constexpr MatmulConfig SHARED_CFG = {.isCO1Shared = true, .sharedCO1BufferSize = 32 * 1024};
template <class MM>
__aicore__ inline void Drain(MM& mm)
{
    auto c = mm.GetTensorC();
    (void)c;
}
#define WITH_OPERANDS(Body)                                                  \\
    do {                                                                   \\
        using aType = MatmulType<TPosition::GM, CubeFormat::ND, A_DTYPE>;  \\
        Body;                                                              \\
    } while (0)
__aicore__ inline void Run() { WITH_OPERANDS(aType* p = nullptr; (void)p); }
"""
)


def test_matmul_configuration_fields_and_names_declared_by_macros(checker: KernelChecker) -> None:
    """A_DTYPE is a build macro (-D): the alias the macro declares with it is not blamed."""
    fails_with(
        checker, MATMUL_CONFIG, "constexpr MatmulConfig SHARED", "constexpr MatmulConfg SHARED", "MatmulConfg"
    )


def test_the_vendor_spelling_of_half(checker: KernelChecker) -> None:
    """`__fp16` parameters and return values are device code; host clang would refuse them."""
    text = HEAD + (
        "template <typename T>\n__aicore__ inline float ToFloat(T v) { return static_cast<float>(v); }\n"
        "__aicore__ inline float First(LocalTensor<__fp16>& t) { return ToFloat<__fp16>(t.GetValue(0)); }\n"
    )
    fails_with(checker, text, "t.GetValue(0)", "t.GetVaIue(0)", "GetVaIue")


def test_a_missing_member_in_an_if_constexpr_branch_is_judged_like_the_compiler(
    checker: KernelChecker,
) -> None:
    """`this->name` no member declares, in a class template without bases: an error in the body,
    a warning inside an `if constexpr` branch (the compiler only judges instantiations taking it)."""
    text = (
        HEAD
        + """
template <int layout>
class Offsets {
public:
    __aicore__ inline int64_t Row(int64_t i);
    int64_t rowStride = 0;
};

template <int layout>
__aicore__ inline int64_t Offsets<layout>::Row(int64_t i)
{
    if constexpr (layout == 1) {
        return i * this->rowStrde;
    }
    return i * this->rowStride;
}
"""
    )
    branch = checker.check_source(text, "kernel.cpp")
    assert branch.ok, errors_text(branch)
    warned = [d for d in branch.diagnostics if d.check == "clang.no_member"]
    assert [d.line for d in warned] == [line_of(text, "rowStrde")]
    fails_with(checker, text, "i * this->rowStride;", "i * this->rowStrid;", "no member named 'rowStrid'")


def test_a_function_template_nothing_uses_is_not_judged_like_one_that_is_called(
    checker: KernelChecker,
) -> None:
    """A shared header's helper template the operator never calls is never instantiated, so a
    call in it no overload takes is a warning; called from the kernel (even through another
    template, or from a template entry the build instantiates), it is an error."""
    text = (
        HEAD
        + """
template <typename T>
__aicore__ inline void Store(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t n)
{
    DataCopyExtParams params{1, n, 0, 0, 0};
    DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
    DataCopyPad(dst, src, params, pad);
}

template <typename T>
__aicore__ inline void StoreTwice(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t n)
{
    Store<T>(dst, src, n);
    Store<T>(dst, src, n);
}

template <int mode>
__global__ __aicore__ void store_kernel(GM_ADDR y)
{
    GlobalTensor<half> yGm;
    yGm.SetGlobalBuffer((__gm__ half*)y);
    LocalTensor<half> x;
}
"""
    )
    unused = checker.check_source(text, "kernel.cpp")
    assert unused.ok, errors_text(unused)
    line = line_of(text, "DataCopyPad(dst")
    assert any(d.line == line and "never instantiated" in d.message for d in unused.diagnostics)
    called = text.replace("LocalTensor<half> x;", "LocalTensor<half> x;\n    StoreTwice<half>(yGm, x, 8);")
    result = checker.check_source(called, "kernel.cpp")
    assert [d.line for d in result.errors] == [line], errors_text(result)


FUSED_950 = """\
#include "kernel_operator.h"
#define ALWAYS __forceinline__ __aicore__
// outside namespace AscendC and without `using namespace`: the built-in enum is global
ALWAYS void Quantise(AscendC::FixpipeParamsV220& params) { params.quantPre = QuantMode_t::QF322F16_PRE; }
__simd_vf__ inline void Softmax(__ubuf__ float* dst, __ubuf__ half* src)
{
    AscendC::Reg::RegTensor<half> x, rowMax;
    AscendC::Reg::RegTensor<float> e;
    AscendC::Reg::MaskReg mask;
    AscendC::Reg::FusedExpSub(e, x, rowMax, mask);
}
"""


def test_fused_register_ops_with_wider_results_and_global_quant_modes(checker: KernelChecker) -> None:
    fails_with(
        checker, FUSED_950, "FusedExpSub(e, x, rowMax, mask);", "FusedExpSub(e, x, mask);", "FusedExpSub"
    )
    fails_with(checker, FUSED_950, "QuantMode_t::QF322F16_PRE", "QuantMode_t::QF322F16_PER", "QF322F16_PER")


def test_an_assembled_unit_is_checked_as_the_tree_it_came_from(checker: KernelChecker) -> None:
    """A unit's code is its entry file, then its headers behind marker lines: checked as one text,
    the header's namespace would come after the `using namespace` that names it."""
    files = {
        "image/blur/op_kernel/blur.cpp": HEAD
        + '#include "arch35/blur_simt.h"\nusing namespace BlurOps;\n'
        + 'extern "C" __global__ __aicore__ void blur(GM_ADDR x) { Blur<float> op; op.Process(x); }\n',
        "image/blur/op_kernel/arch35/blur_simt.h": HEAD
        + "namespace BlurOps {\ntemplate <typename T>\nstruct Blur {\n"
        + "    __aicore__ inline void Process(GM_ADDR x) { GlobalTensor<T> g; g.SetGlobalBuffer((__gm__ T*)x); }\n"
        + "};\n}  // namespace BlurOps\n",
    }
    code = assemble_code(list(files), files.get)
    assert [path for path, _ in split_unit_code(code, "image/blur/op_kernel/blur.cpp")] == list(files)
    assert not checker.check_source(code, "blur.cpp").ok  # the order of one text, not the code
    result = checker.check_unit_code(code, "image/blur/op_kernel/blur.cpp")
    assert result.ok, errors_text(result)
    bad = checker.check_unit_code(
        code.replace("g.SetGlobalBuffer", "g.SetGlobalBufer"), "image/blur/op_kernel/blur.cpp"
    )
    assert [(d.path, d.line) for d in bad.errors] == [("image/blur/op_kernel/arch35/blur_simt.h", 6)]


CPU_DEBUG_TEST = """\
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y);
void RunOnHost()
{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(1024);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(1024);
    ICPU_SET_TILING_KEY(1);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(add_custom, 8, x, y);
    AscendC::GmFree((void*)x);
    AscendC::GmFree((void*)y);
}
"""


def test_the_cpu_debug_library_of_kernel_unit_tests(checker: KernelChecker) -> None:
    good = "uint8_t* x = (uint8_t*)AscendC::GmAlloc(1024);"
    fails_with(checker, CPU_DEBUG_TEST, good, good.replace("GmAlloc", "GmAlocc"), "GmAlocc")
