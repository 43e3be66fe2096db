"""The engines `audit` and `dedup` run on: `local` (this process) or `ray` (Ray Data, on a
local runtime or the cluster at RAY_ADDRESS). Both engines run the same stage functions and
give identical results; Ray spreads them over more cores and machines."""

from __future__ import annotations

import os
from types import ModuleType

from curate.errors import UserError

ENGINES = ("local", "ray")


def check_engine(engine: str) -> None:
    if engine not in ENGINES:
        raise UserError(f"--engine {engine!r} is not an engine; use one of {', '.join(ENGINES)}")


def connect_ray() -> ModuleType:
    """Ray, joined to the cluster at RAY_ADDRESS, or to a local runtime started here when there
    is none (and none was started by the caller with `ray.init(...)`)."""
    try:
        import ray
    except ImportError:
        raise UserError("--engine ray needs Ray: pip install 'ascend-cot-curate[ray]'") from None
    if not ray.is_initialized():
        ray.init(address=os.environ.get("RAY_ADDRESS") or None, include_dashboard=False, log_to_driver=False)
    return ray
