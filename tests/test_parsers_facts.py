"""The text-level extractors, licence detection, provenance and the classifier."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsers import facts
from parsers.classify import CATEGORIES, category_and_level, name_tokens
from parsers.host import parse_op_def, tiling_function
from parsers.licenses import LicenseFiles, license_from_header, unit_license
from parsers.provenance import public_url
from schemas.ascendc import rewrite_launches
from schemas.cpp import mask_comments_and_literals


def test_a_qualified_api_call_counts_even_when_the_unit_defines_that_name():
    code = "uint32_t GetBlockNum() { return n; }\nvoid F() { auto b = AscendC::GetBlockNum(); auto c = GetBlockNum(); }"
    assert facts.api_calls(code, defined_locally={"GetBlockNum", "F"}) == ["GetBlockNum"]
    assert facts.api_calls(code.replace("AscendC::", ""), defined_locally={"GetBlockNum", "F"}) == []


def test_api_calls_skip_comments_strings_and_locally_defined_names():
    code = mask_comments_and_literals(
        """
        // DataCopy(x, y, 8);  a comment is not a call
        const char* s = "Exp(x)";
        LocalTensor<T> t = q.AllocTensor<T>();
        AscendC::Muls(t, t, 2.0f, 8);
        Compute(0);
        WholeReduceSumCustom(t);
        DataCopyParams params(1, 2, 0, 0);
        """
    )
    assert facts.api_calls(code, defined_locally={"Compute"}) == ["AllocTensor", "Muls"]


def test_tiling_keys_resolve_macro_and_constexpr_names():
    code = "#define KEY_A 100\nconstexpr uint64_t KEY_B = 7UL;\nif (TILING_KEY_IS(KEY_A)) {} if (TILING_KEY_IS(KEY_B)) {} if (TILING_KEY_IS(3)) {}"
    assert facts.tiling_keys(code, facts.integer_constants(code)) == [3, 7, 100]


def test_buffer_num_from_queue_template_and_init_buffer():
    code = "constexpr int32_t BUFFER_NUM = 2;\nTQue<QuePosition::VECIN, BUFFER_NUM> q;\npipe.InitBuffer(q, 1, 64);"
    assert facts.buffer_num(code, facts.integer_constants(code)) == 2
    assert facts.queue_positions(code) == ["VECIN"]


@pytest.mark.parametrize(
    ("code", "apis", "positions", "expected"),
    [
        ("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);", [], ["VECIN"], "vector"),
        ("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);", [], [], "mixed"),
        ("#define ASCENDC_CUBE_ONLY", ["Mmad"], [], "cube"),
        ("", ["Mmad", "Add"], ["A1", "VECIN"], "mixed"),
        ("if ASCEND_IS_AIC { return; }", ["Add"], ["VECIN", "VECOUT"], "vector"),
        ("", ["CrossCoreSetFlag"], ["VECIN"], "mixed"),
        # a template library's kernel: cores named by attribute, per-core operator(), branches,
        # and cross-core flags through the library's own wrapper (no AscendC call in the unit)
        (
            "CATLASS_GLOBAL __attribute__((aic)) void SmallMatmul(GM_ADDR a) { matmul(params); }",
            [],
            [],
            "cube",
        ),
        (
            "template <> void operator()<AscendC::AIC>(Params const& p) { block(p); }\n"
            "template <> void operator()<AscendC::AIV>(Params const& p) {}",
            [],
            [],
            "cube",
        ),
        (
            "void operator()<AscendC::AIC>(Params const& p) { mmad(p); }\n"
            "void operator()<AscendC::AIV>(Params const& p) { epilogue(p); }",
            [],
            [],
            "mixed",
        ),
        ("Arch::CrossCoreSetFlag<0x2, PIPE_FIX>(qkReady);", [], [], "mixed"),
        ("if ASCEND_IS_AIC { blockMmad(a, b, c); } else if ASCEND_IS_AIV { epilogue(c); }", [], [], "mixed"),
        ("if ASCEND_IS_AIV { return; }\nif ASCEND_IS_AIC { blockMmad(a, b, c); }", [], [], "cube"),
        ("void operator()(Params const& params) { blockMmad(gmA, gmB, gmC, shape); }", [], [], "cube"),
    ],
)
def test_core_type(code, apis, positions, expected):
    assert facts.core_type(code, apis, positions) == expected


def test_launch_rewrite_keeps_length_and_lines():
    text = "k<<<8, nullptr, s>>>(a, b);\nstd::vector<std::pair<int, std::vector<int>>> v;"
    out = rewrite_launches(text)
    assert len(out) == len(text) and out.count("\n") == text.count("\n")
    assert out.startswith("k/*<8, nullptr, s>*/(a, b);")
    assert out.endswith("std::vector<std::pair<int, std::vector<int>>> v;")


def test_op_def_and_tiling_function_from_host_code():
    host = """
    IMPL_OP_OPTILING(Foo).Tiling(optiling::FooTilingFunc);
    class Foo : public OpDef {
      explicit Foo(const char* n) : OpDef(n) {
        this->Input("x").ParamType(DYNAMIC).DataTypeList({ge::DT_INT8}).FormatList({ge::FORMAT_ND});
        this->Output("y").DataType({ge::DT_INT32, ge::DT_INT32}).Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Attr("axis").AttrType(REQUIRED).Int();
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend310p");
      }
    };
    """
    op = parse_op_def(host)
    assert op is not None and op.op_type == "Foo"
    assert (op.inputs[0].name, op.inputs[0].param_type, op.inputs[0].dtypes) == ("x", "DYNAMIC", ["DT_INT8"])
    assert op.outputs[0].formats == ["FORMAT_NCHW"] and op.outputs[0].param_type == "REQUIRED"
    assert [(a.name, a.type) for a in op.attrs] == [("axis", "Int")]
    assert op.socs == ["ascend910b", "ascend310p"]
    assert tiling_function(host) == "FooTilingFunc"
    assert parse_op_def("int main() {}") is None


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (
            '/*\n * This program is free software ... CANN Open Software License Agreement Version 2.0 (the\n * "License").\n */',
            "CANN-2.0",
        ),
        ("/**\n * CANN Open Software License Agreement Version 1.0\n */", "CANN-1.0"),
        ("// SPDX-License-Identifier: BSD-3-Clause\n", "BSD-3-Clause"),
        ('/* Licensed under the Apache License, Version 2.0 (the "License") */', "Apache-2.0"),
        ("// just a comment about tiling\n", "unknown"),
        ("int x; // Apache License, Version 2.0 appears after code: not a header", "unknown"),
    ],
)
def test_license_from_header(header, expected):
    assert license_from_header(header + "\nint main() {}\n") == expected


def test_license_file_lookup_stops_at_the_ingested_root(tmp_path: Path):
    (tmp_path / "LICENSE").write_text("Apache License\nVersion 2.0, January 2004\n")
    root = tmp_path / "repo"
    (root / "mit" / "deep").mkdir(parents=True)
    (root / "mit" / "LICENSE").write_text("Permission is hereby granted, free of charge, to any person")
    (root / "none").mkdir()
    files = LicenseFiles(root)
    assert unit_license("int x;", "mit/deep", files) == "MIT"
    assert unit_license("int x;", "none", files) == "unknown"  # the LICENSE above the root is not ours to use
    assert unit_license("// SPDX-License-Identifier: MIT\n", "none", files) == "MIT"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://user:token@example.invalid/o/r.git", "https://example.invalid/o/r.git"),
        ("git@example.invalid:o/r.git", "git@example.invalid:o/r.git"),
        ("/home/someone/checkout", ""),
        ("file:///tmp/r", ""),
    ],
)
def test_public_url_drops_credentials_and_local_paths(url, expected):
    assert public_url(url) == expected


@pytest.mark.parametrize(
    ("op_name", "apis", "category", "level"),
    [
        ("add_custom", ["Add"], "elementwise", 1),
        ("LayerNormV2", [], "normalization", 2),
        ("softmax_cross_entropy_with_logits", [], "loss", 2),
        ("apply_adam_w", [], "optimizer", 2),
        ("flash_attention_score", [], "attention", 3),
        ("top_k_v2", [], "sort/topk", 3),
        ("non_max_suppression", [], "sort/topk", 3),
        ("grouped_matmul", [], "matmul", 3),
        ("mat_mul", [], "matmul", 2),
        ("avg_pool3d", [], "pooling", 2),
        ("transpose_d", [], "data-movement", 2),
        ("fill_diagonal", [], "elementwise", 1),
        ("ascend_quant_v2", [], "quantization", 2),
        ("gather_elements", [], "index/gather/scatter", 2),
        ("conv2d_backprop", [], "convolution", 2),
        ("reduce_sum", [], "reduction", 2),
        ("gelu_grad", [], "activation", 2),
        ("mystery_op", ["Mmad"], "matmul", 2),
        ("mystery_op", [], "other", 2),
    ],
)
def test_classify(op_name, apis, category, level):
    assert category_and_level(op_name, op_name, apis) == (category, level)


def test_categories_are_the_issue_list_and_tokens_split_camel_and_snake():
    assert len(CATEGORIES) == 15 and CATEGORIES[-1] == "other"
    assert name_tokens("AddCustomV2") == ["add", "custom", "v2"]
    assert name_tokens("fused_mul_add_n") == ["fused", "mul", "add", "n"]


def test_facts_need_a_word_start_as_the_regexes_wrote_it():
    """The regexes open with their literal (fast) and check the word start after it: a name that
    only ends in the word is not it, one at the very start of the text is."""
    from parsers.facts import api_calls, buffer_num, queue_positions, tiling_struct_names

    assert buffer_num("TQue<VECIN, 2> a; MyTQue<VECIN, 8> b;", {}) == 2
    assert queue_positions("TPosition::VECIN x; XTPosition::A1 QuePosition::B2") == ["B2", "VECIN"]
    assert tiling_struct_names("REGISTER_TILING_DEFAULT(Ns::T); MYGET_TILING_DATA_WITH_STRUCT(U, x)") == ["T"]
    code = "AscendC :: \n GetBlockNum(); GetBlockNum(); xAscendC::Other(); my_asc_copy(x); asc_copy(y);"
    assert api_calls(code, {"GetBlockNum"}) == ["GetBlockNum", "Other", "asc_copy"]
