"""The walk's fast text scan finds exactly what the plain regexes find (entries written out,
capitalised words opening a void declaration, includes): it only skips the places where no match
can start, so a kernel reached through a repository macro or an include is never lost to it."""

from __future__ import annotations

import pickle
from pathlib import Path

from parsers.config import IngestConfig
from parsers.entries import DEFINE_RE, LITERAL_ENTRY_RE, MACRO_ENTRY_USE_RE
from parsers.filememo import FileMemo
from parsers.scan import scan_repository
from schemas.ascendc import INCLUDE_RE

TRICKY = """\
KERNEL_API void first_line(GM_ADDR x) {}
#include "common/defs.h"
  #  include <vendor/x.h>
template <typename T>
MY_GLOBAL __attribute__((aic)) void templated(GM_ADDR x) {}
template <typename T> OTHER_API
    inline void split_over_lines(GM_ADDR x) {}
this_is_not_one void lower(int x) {}
ASSERT(x);
CAPS_ONLY
void after_a_blank_line(int y) {}
extern "C" __global__ __aicore__ void written(GM_ADDR x) {}
x__global__ y; CATLASS_GLOBAL
"""


def _plain(text: str) -> tuple[int, tuple[tuple[str, str], ...], tuple[str, ...], list[tuple[str, bool]]]:
    defines = tuple((m.group(1), m.group(2)) for m in DEFINE_RE.finditer(text))
    uses = tuple(sorted({m.group(1) for m in MACRO_ENTRY_USE_RE.finditer(text)}))
    includes = [(m.group(2).strip(), m.group(1) == "<") for m in INCLUDE_RE.finditer(text)]
    return len(LITERAL_ENTRY_RE.findall(text)), defines, uses, includes


def test_the_fast_scan_finds_what_the_plain_regexes_find(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "common").mkdir(parents=True)
    (root / "common/defs.h").write_text(
        '#define KERNEL_API extern "C" __global__ __aicore__\n#define OTHER 1\n'
    )
    (root / "k.cpp").write_text(TRICKY)
    (root / "lead.cpp").write_text("\n" + TRICKY)  # the same text one line down
    defs = (root / "common/defs.h").read_text()
    assert _plain(TRICKY)[0] == 2 and {"KERNEL_API", "MY_GLOBAL", "OTHER_API", "CAPS_ONLY"} <= set(
        _plain(TRICKY)[2]
    )
    assert [name for name, _ in _plain(defs)[1]] == ["KERNEL_API", "OTHER"]
    memo = FileMemo(None)  # holds what the scan read of each file, in memory
    scan = scan_repository(root, IngestConfig(), memo)
    for rel in ("k.cpp", "lead.cpp", "common/defs.h"):
        _, facts, spelt = pickle.loads(memo.rows[str(root / rel)][2])  # type: ignore[arg-type]
        assert (*facts, spelt) == _plain((root / rel).read_text())
    assert "k.cpp" in scan.sources and "lead.cpp" in scan.sources
