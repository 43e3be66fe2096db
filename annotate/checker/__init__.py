"""The AscendC kernel checker: libclang type check of kernel sources against the project's API
surface, with no LLM involved. `curate check-kernel`, `curate doctor` and the reasoning verifiers
(`annotate.reasoning`) all use it through this small public API.

The AscendC facts it parses with (the libclang driver, the API surface headers and their
catalog, the SoC profiles, the include resolver) are the shared layer in `schemas/ascendc/`,
which the ingest parser uses too.

- `clangcheck`: `KernelChecker`, the type check of one file or one text;
- `cann`: the vendor-compiler backend when a CANN toolkit is installed.
"""

from annotate.checker.cann import CompileRequest, Toolkit, compile_check, detect, which_compiler
from annotate.checker.clangcheck import CheckOptions, CheckResult, KernelChecker, check_file, check_source
from schemas.ascendc.catalog import Catalog, build_catalog, load_catalog
from schemas.ascendc.soc import AUTO_SOC, resolve_soc, soc_profile

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
