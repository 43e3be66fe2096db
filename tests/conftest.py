"""Shared test helpers: run the real `curate` CLI in a subprocess, write small source trees."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from annotate.checker.clangcheck import KernelChecker

REPO_ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = REPO_ROOT / "examples"


def run_curate(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None, timeout: float = 300):
    """Run `python -m curate.cli ARGS` as a user would; returns the CompletedProcess."""
    full_env = {**os.environ, **(env or {})}
    full_env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + full_env.get("PYTHONPATH", "")
    return subprocess.run(
        [sys.executable, "-m", "curate.cli", *args],
        cwd=cwd or REPO_ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write `{relative path: text}` under root (text is dedented)."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return root


@pytest.fixture
def tree(tmp_path: Path):
    """A factory: tree({"a/b.cpp": "..."}) -> the written root directory."""

    def make(files: dict[str, str], name: str = "repo") -> Path:
        return write_tree(tmp_path / name, files)

    return make


@pytest.fixture(scope="session")
def ray_runtime():  # type: ignore[no-untyped-def]
    """One local Ray runtime (two CPUs, no dashboard) for every test that runs an engine on Ray."""
    ray = pytest.importorskip("ray", reason="the [ray] extra is installed by `make test`")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def checker() -> KernelChecker:
    """One kernel checker per test module (building one loads the catalog)."""
    return KernelChecker()
