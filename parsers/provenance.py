"""Where a source came from: its git origin (credentials removed) and commit."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

_URL_RE = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|[\w.-]+@[\w.-]+:)", re.IGNORECASE)
_CREDENTIALS_RE = re.compile(r"^([a-z][a-z0-9+.-]*://)[^/@]*@", re.IGNORECASE)
# A URL's `user:password@` in free text, tried once per run of scheme characters (a scheme may
# start at any letter of the run that starts a word, e.g. `1.git://`): tried from every such
# letter, runs like `a.a.a.a...` took quadratic time. `_scheme_or_unchanged` then says whether the
# run holds a start the old `\b[a-z][a-z0-9+.-]*://` form would have taken.
_CREDENTIALS_IN_TEXT_RE = re.compile(r"(?<![a-z0-9+.-])([a-z0-9+.-]++://)[^/@\s'\"]*+@", re.IGNORECASE)
_SCHEME_START_RE = re.compile(r"(?:^|(?<=[+.-]))[a-z]", re.IGNORECASE)
_WORD_CHAR_RE = re.compile(r"\w")


@dataclass(slots=True)
class Provenance:
    repo_root: Path  # paths of units are relative to this
    origin_url: str
    commit: str


def _git(root: Path, *args: str) -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def without_credentials(text: str) -> str:
    """`text` (a URL, or a message quoting one) with every `user:password@` of a URL removed."""
    return _CREDENTIALS_IN_TEXT_RE.sub(_scheme_or_unchanged, text)


def _scheme_or_unchanged(match: re.Match[str]) -> str:
    """The scheme alone when the run holds a scheme start at a word boundary, else the match."""
    run = match.group(1)
    start = match.start()
    at_word_start = start == 0 or not _WORD_CHAR_RE.match(match.string, start - 1)
    for letter in _SCHEME_START_RE.finditer(run):
        if letter.start() > 0 or at_word_start:
            return run
    return match.group(0)


def public_url(url: str) -> str:
    """A remote URL fit to publish: credentials dropped; local paths (not URLs) dropped."""
    url = url.strip()
    if not _URL_RE.match(url) or url.lower().startswith("file://"):
        return ""
    return _CREDENTIALS_RE.sub(r"\1", url)


def provenance(source_dir: Path) -> Provenance:
    """Git facts of `source_dir`; paths stay relative to the git top level when it is a repository."""
    top = _git(source_dir, "rev-parse", "--show-toplevel")
    if not top:
        return Provenance(source_dir.resolve(), "", "")
    return Provenance(
        repo_root=Path(top).resolve(),
        origin_url=public_url(_git(source_dir, "remote", "get-url", "origin")),
        commit=_git(source_dir, "rev-parse", "HEAD"),
    )
