"""What SOURCE means on the command line: a local directory, or a git URL cloned into the
workspace cache. Table files and Hugging Face ids (benchmarks only) are resolved by the caller."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from curate.errors import UserError

_GIT_URL_RE = re.compile(r"^(?:https?|ssh|git|file)://|^[\w.-]+@[\w.-]+:", re.IGNORECASE)
CLONE_TIMEOUT_S = 900


def looks_like_git_url(source: str) -> bool:
    return bool(_GIT_URL_RE.match(source)) or (source.endswith(".git") and not Path(source).exists())


def default_name(source: str) -> str:
    base = source.rstrip("/").split("/")[-1].split(":")[-1]
    base = base[: -len(".git")] if base.endswith(".git") else base
    return re.sub(r"[^\w.-]+", "-", base) or "source"


def clone(url: str, cache: Path, name: str) -> Path:
    """Shallow-clone `url` into `cache/name` (replacing an earlier clone only on success)."""
    cache.mkdir(parents=True, exist_ok=True)
    target = cache / name
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=cache))
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "true"}
    try:
        done = subprocess.run(
            ["git", "clone", "--quiet", "--depth", "1", url, str(tmp / "repo")],
            capture_output=True,
            text=True,
            timeout=CLONE_TIMEOUT_S,
            env=env,
            check=False,
        )
    except FileNotFoundError:
        shutil.rmtree(tmp, ignore_errors=True)
        raise UserError("git is not installed; install git or pass a local directory") from None
    except subprocess.TimeoutExpired:
        shutil.rmtree(tmp, ignore_errors=True)
        raise UserError(
            f"cloning {url} took more than {CLONE_TIMEOUT_S} s; clone it yourself and pass the directory"
        ) from None
    if done.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        reason = (done.stderr.strip().splitlines() or ["git clone failed"])[-1]
        raise UserError(f"could not clone {url}: {reason}")
    shutil.rmtree(target, ignore_errors=True)
    os.replace(tmp / "repo", target)
    shutil.rmtree(tmp, ignore_errors=True)
    return target


def local_directory(source: str) -> Path:
    """`source` as an existing, non-empty directory, or a UserError saying what is wrong."""
    path = Path(source).expanduser()
    if not path.exists():
        raise UserError(f"{source} does not exist; pass a repository directory or a git URL")
    if not path.is_dir():
        raise UserError(
            f"{source} is a file, not a directory; pass the repository directory that contains it"
        )
    try:
        next(path.iterdir())
    except StopIteration:
        raise UserError(f"{source} is empty; pass a directory that holds AscendC sources") from None
    except PermissionError:
        raise UserError(f"{source} cannot be read (permission denied)") from None
    return path
