"""Licence detection: from the file's own header first, then the nearest LICENSE file between the
file and the ingested root. What cannot be recognised stays `unknown`; nothing is guessed."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from parsers.files import read_inside
from schemas.licenses import UNKNOWN

_SPDX_RE = re.compile(r"SPDX-License-Identifier:\s*([A-Za-z0-9.+-]+)")
# (id, patterns that must all occur), most specific first. Matched on whitespace-folded lowercase text.
_PHRASES: list[tuple[str, tuple[str, ...]]] = [
    ("CANN-2.0", ("cann open software license agreement version 2.0",)),
    ("CANN-1.0", ("cann open software license agreement version 1.0",)),
    ("Apache-2.0", ("apache license", "version 2.0")),
    ("MulanPSL-2.0", ("mulan permissive software license", "version 2")),
    ("GPL-3.0", ("gnu general public license", "version 3")),
    ("GPL-2.0", ("gnu general public license", "version 2")),
    ("MIT", ("permission is hereby granted, free of charge",)),
    ("BSD-3-Clause", ("redistribution and use in source and binary forms", "neither the name")),
    ("BSD-2-Clause", ("redistribution and use in source and binary forms",)),
]
LICENSE_FILE_NAMES = ("LICENSE", "LICENSE.txt", "LICENSE.md", "LICENCE", "COPYING", "License.txt")
HEADER_CHARS = 4000


def license_from_text(text: str) -> str:
    spdx = _SPDX_RE.search(text)
    if spdx:
        return spdx.group(1)
    folded = " ".join(text.lower().split())
    for license_id, needles in _PHRASES:
        if all(n in folded for n in needles):
            return license_id
    return UNKNOWN


def license_from_header(source: str) -> str:
    """The licence the file's leading comment block names."""
    return license_from_text(_leading_comments(source[:HEADER_CHARS]))


def _leading_comments(text: str) -> str:
    out: list[str] = []
    rest = text.lstrip()
    while rest.startswith(("//", "/*")):
        if rest.startswith("//"):
            line, _, rest = rest.partition("\n")
            out.append(line)
        else:
            end = rest.find("*/")
            out.append(rest[: end if end >= 0 else len(rest)])
            rest = rest[end + 2 :] if end >= 0 else ""
        rest = rest.lstrip()
    return "\n".join(out)


class LicenseFiles:
    """Nearest LICENSE file at or above a directory, up to the ingested root (memoised per directory)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._by_dir: dict[str, str] = {}

    def license_for(self, rel_dir: str) -> str:
        if rel_dir in self._by_dir:
            return self._by_dir[rel_dir]
        found = UNKNOWN
        for name in LICENSE_FILE_NAMES:
            text = read_inside(self.root, posixpath.join(rel_dir, name))
            if text is not None:
                found = license_from_text(text[:20000])
                break
        else:
            if rel_dir not in ("", "."):
                parent = str(Path(rel_dir).parent)
                found = self.license_for("" if parent == "." else parent)
        self._by_dir[rel_dir] = found
        return found


def unit_license(entry_text: str, rel_dir: str, files: LicenseFiles) -> str:
    header = license_from_header(entry_text)
    return header if header != UNKNOWN else files.license_for(rel_dir)
