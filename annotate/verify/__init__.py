"""Toolchain verification of AscendC kernels and of the teacher's reasoning about them.

- `surface/`: the project's own AscendC API surface (headers written for curate) and its catalog;
- `clangcheck`: libclang type check of kernel files against the surface (`curate check-kernel`);
- `cann`: the vendor-compiler backend when a CANN toolkit is installed;
- `grounding`: the reasoning's claims checked against the kernel's parsed facts;
- `verifiers`: the `annotate.seam.Verifier` implementations and `default_verifiers(config)`;
- `rerun`: re-judging stored annotations without the teacher (`curate verify`).
"""

from annotate.verify.catalog import Catalog, build_catalog, load_catalog
from annotate.verify.clangcheck import CheckOptions, CheckResult, KernelChecker, check_file, check_source
from annotate.verify.config import VerifyConfig
from annotate.verify.verifiers import CannVerifier, GroundingVerifier, SurfaceVerifier, default_verifiers

__all__ = [
    "CannVerifier",
    "Catalog",
    "CheckOptions",
    "CheckResult",
    "GroundingVerifier",
    "KernelChecker",
    "SurfaceVerifier",
    "VerifyConfig",
    "build_catalog",
    "check_file",
    "check_source",
    "default_verifiers",
    "load_catalog",
]
