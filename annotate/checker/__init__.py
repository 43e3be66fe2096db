"""The AscendC kernel checker: libclang type check of kernel sources against the project's API
surface, with no LLM involved. `curate check-kernel`, `curate doctor` and the reasoning verifiers
(`annotate.reasoning`) all use it through this small public API.

- `surface/`: the project's own AscendC API surface (headers written for curate) and its catalog;
- `toolchain`: the SoC profiles and the clang command line that uses the surface;
- `clangcheck`: `KernelChecker`, the type check of one file or one text;
- `cann`: the vendor-compiler backend when a CANN toolkit is installed.
"""

from annotate.checker.cann import CompileRequest, Toolkit, compile_check, detect, which_compiler
from annotate.checker.catalog import Catalog, build_catalog, load_catalog
from annotate.checker.clangcheck import CheckOptions, CheckResult, KernelChecker, check_file, check_source
from annotate.checker.toolchain import AUTO_SOC, resolve_soc, soc_profile

__all__ = [
    "AUTO_SOC",
    "Catalog",
    "CheckOptions",
    "CheckResult",
    "CompileRequest",
    "KernelChecker",
    "Toolkit",
    "build_catalog",
    "check_file",
    "check_source",
    "compile_check",
    "detect",
    "load_catalog",
    "resolve_soc",
    "soc_profile",
    "which_compiler",
]
