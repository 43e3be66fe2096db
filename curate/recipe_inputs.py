"""The inputs of a recipe made readable: git sources checked out at their pinned commit (from the
network, or from a local mirror when offline), folders fingerprinted by their content.

A mirror directory holds one git repository per `owner+name` (`DIR/owner+name/repo`, a bare
repository or a clone with a work tree, or `DIR/owner+name` itself): `https://github.com/o/n`
is then read from `DIR/o+n`. The checkout keeps the public URL as its origin, so the rows'
provenance names the public repository, not the mirror.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import urllib.parse
from pathlib import Path

from curate.errors import UserError
from curate.recipe import SourceSpec
from curate.sources import git_reason

MIRROR_ENV = "CURATE_MIRROR"  # the mirror directory when --mirror is not given
GIT_TIMEOUT_S = 900


def owner_name(url: str) -> tuple[str, str] | None:
    """(owner, name) of a repository URL: https://host/owner/name(.git) or git@host:owner/name."""
    path = urllib.parse.urlparse(url).path if "://" in url else url.split(":", 1)[-1]
    parts = [p for p in path.split("/") if p]
    if len(parts) < 2:
        return None
    return parts[-2], parts[-1].removesuffix(".git")


def mirror_path(url: str, mirror: Path) -> Path | None:
    """The mirror's repository for `url` (`DIR/owner+name[/repo]`), or None when it has none."""
    found = owner_name(url)
    if found is None:
        return None
    base = mirror / f"{found[0]}+{found[1]}"
    for candidate in (base / "repo", base):
        if (candidate / "HEAD").is_file() or (candidate / ".git").exists():
            return candidate
    return None


def checkout_name(url: str, commit: str) -> str:
    """`owner+name@commit12`: the folder of one repository's checkout at one commit."""
    owner, name = owner_name(url) or ("repo", "repo")
    slug = re.sub(r"[^\w.+-]", "_", f"{owner}+{name}")
    return f"{slug}@{commit[:12]}"


def _git(args: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            ["git", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT_S,
            env={**os.environ, "GIT_TERMINAL_PROMPT": "0"},
        )
    except FileNotFoundError:
        raise UserError("git is not installed; install git or use local folders in the recipe") from None
    except subprocess.TimeoutExpired:
        raise UserError(f"git {args[0]} took more than {GIT_TIMEOUT_S} s") from None


def _head(checkout: Path) -> str:
    done = _git(["-C", str(checkout), "rev-parse", "HEAD"])
    return done.stdout.strip() if done.returncode == 0 else ""


def checkout(spec: SourceSpec, into: Path, mirror: Path | None) -> Path:
    """`spec`'s repository at its commit in `into` (reused when already there); a fetch that
    fails or is interrupted leaves no half checkout (it is made aside, then renamed)."""
    if into.is_dir() and _head(into) == spec.commit:
        return into
    remote = spec.git
    if mirror is not None:
        local = mirror_path(spec.git, mirror)
        if local is None:
            raise UserError(f"source {spec.name}: the mirror {mirror} has no copy of {spec.git}")
        remote = str(local)
    aside = into.with_name(into.name + ".part")
    shutil.rmtree(aside, ignore_errors=True)
    aside.mkdir(parents=True)
    steps = (
        ["init", "--quiet"],
        ["fetch", "--quiet", "--depth", "1", "--", remote, spec.commit],
        ["-c", "advice.detachedHead=false", "checkout", "--quiet", "FETCH_HEAD"],
        ["remote", "add", "origin", _without_credentials(spec.git)],
    )
    for args in steps:
        done = _git(args, cwd=aside)
        if done.returncode != 0:
            shutil.rmtree(aside, ignore_errors=True)
            where = f" (mirror {remote})" if mirror is not None else ""
            raise UserError(
                f"source {spec.name}: could not fetch {_without_credentials(spec.git)} at {spec.commit}"
                f"{where}: {git_reason(done.stderr)}"
            )
    shutil.rmtree(into, ignore_errors=True)
    aside.rename(into)
    return into


def _without_credentials(url: str) -> str:
    parsed = urllib.parse.urlparse(url)
    if parsed.username or parsed.password:
        host = parsed.hostname or ""
        return parsed._replace(netloc=host + (f":{parsed.port}" if parsed.port else "")).geturl()
    return url


def folder_digest(root: Path, exclude_dirs: list[str]) -> str:
    """The content of a folder: every file's relative path and bytes (excluded folders left out),
    so an unchanged folder has the same digest whatever its timestamps."""
    digest = hashlib.sha256()
    skip = set(exclude_dirs)
    for directory, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in skip)
        for name in sorted(files):
            path = Path(directory, name)
            if path.is_symlink() or not path.is_file():
                continue
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            with path.open("rb") as handle:
                digest.update(hashlib.file_digest(handle, "sha256").digest())
    return digest.hexdigest()


def file_digest(path: Path) -> str:
    """A table's bytes (absent: "")."""
    if not path.is_file():
        return ""
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()
