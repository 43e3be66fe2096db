"""The published answer is the kernel code without the licence boilerplate of its files."""

from __future__ import annotations

from curate.publish.answer import without_licence_headers
from schemas.ascendc import unit_file_marker

CANN = """/**
 * Copyright (c) 2025 Huawei Technologies Co., Ltd.
 * CANN Open Software License Agreement Version 2.0 (the "License").
 * THIS SOFTWARE IS PROVIDED ON AN "AS IS" BASIS, WITHOUT WARRANTIES OF ANY KIND.
 */

"""
APACHE = "// SPDX-License-Identifier: Apache-2.0\n// Copyright 2025 The kernel authors\n\n"


def test_leading_licence_blocks_of_every_assembled_file_are_removed() -> None:
    code = (
        CANN
        + '// Adds two vectors tile by tile.\n#include "add_tiling.h"\nint entryMarker;\n'
        + "\n"
        + unit_file_marker("op_kernel/add_tiling.h")
        + "\n"
        + APACHE
        + "/* tiling of the add kernel */\nstruct AddTiling { int n; };\n"
    )
    answer = without_licence_headers(code)
    assert "Copyright" not in answer and "License" not in answer and "WARRANTIES" not in answer
    # the code, its own comments and the file markers stay, in order
    assert answer.startswith("// Adds two vectors tile by tile.\n#include")
    assert "int entryMarker;" in answer and "struct AddTiling { int n; };" in answer
    assert unit_file_marker("op_kernel/add_tiling.h") + "\n/* tiling of the add kernel */" in answer


def test_comments_that_are_not_a_licence_and_later_notices_stay() -> None:
    code = "/* Softmax over the last axis. */\nint x;\n// Copyright note in the middle stays\nint y;\n"
    assert without_licence_headers(code) == code
    assert without_licence_headers("") == ""
