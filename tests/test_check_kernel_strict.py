"""Strict where the evidence is strong: a near miss of a catalog API is an error even when a
vendor-internal include had to be stubbed (it cannot declare the repository's helpers), and
stays lenient when a missing repository header might declare it."""

from __future__ import annotations

from annotate.checker.clangcheck import check_source

BODY = """
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    GM_ADDR user = GetUserWorkspaceZq(workspace);
    GM_ADDR dup = GetUserWorkspace(workspace);
    (void)user; (void)dup;
}
"""


def findings(head: str) -> list[tuple[str, str]]:
    result = check_source(head + BODY, "k.cpp")
    return [(d.severity, d.check) for d in result.diagnostics if "GetUserWorkspaceZq" in d.message]


def test_a_near_miss_is_an_error_beside_a_stubbed_vendor_internal_include() -> None:
    head = '#include "kernel_operator.h"\n#include "impl/dav_c220/kfc/kfc_comm_client.h"\n'
    assert findings(head) == [("error", "ascendc.unknown_api")]
    result = check_source(head + BODY, "k.cpp")
    [diag] = [d for d in result.diagnostics if d.severity == "error"]
    assert "did you mean 'GetUserWorkspace'" in diag.message and diag.line == 7


def test_a_missing_repository_header_may_declare_it() -> None:
    head = '#include "kernel_operator.h"\n#include "../common/workspace_helpers.h"\n'
    assert findings(head) == [("warning", "surface.unknown")]


def test_a_helper_the_unit_declares_is_no_near_miss() -> None:
    head = (
        '#include "kernel_operator.h"\n#include "impl/dav_c220/kfc/kfc_comm_client.h"\n'
        "__aicore__ inline GM_ADDR GetUserWorkspaceZq(GM_ADDR w) { return w; }\n"
    )
    assert findings(head) == []
