"""Licences on the publishing side: recognising the names people type, the licence gate, the card
metadata (`license`, and `license_name`/`license_link` for non-SPDX licences such as the CANN Open
Software License), and what each licence asks of the people who use the rows.

The obligations are our own short reading, not legal advice: the licence texts are authoritative,
and the card says so.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from schemas.licenses import KNOWN_LICENSES, UNKNOWN

LICENSES_FILE = "LICENSES.md"  # the license_link of the card: per-licence counts, sources, obligations

# SPDX id -> the Hub's licence identifier (the Hub knows a fixed list; others are `other`).
_HUB_IDS = {
    "apache-2.0": "apache-2.0",
    "mit": "mit",
    "bsd-2-clause": "bsd-2-clause",
    "bsd-3-clause": "bsd-3-clause",
    "gpl-2.0": "gpl-2.0",
    "gpl-3.0": "gpl-3.0",
    "lgpl-2.1": "lgpl-2.1",
    "lgpl-3.0": "lgpl-3.0",
    "agpl-3.0": "agpl-3.0",
    "mpl-2.0": "mpl-2.0",
    "bsl-1.0": "bsl-1.0",
    "epl-2.0": "epl-2.0",
    "isc": "isc",
    "zlib": "zlib",
    "unlicense": "unlicense",
    "cc0-1.0": "cc0-1.0",
    "cc-by-4.0": "cc-by-4.0",
    "cc-by-sa-4.0": "cc-by-sa-4.0",
}

_OBLIGATIONS = {
    "Apache-2.0": "Keep the copyright, licence and NOTICE texts with copies and state significant changes. "
    "Grants a patent licence, which ends for anyone who sues over patents in the work.",
    "MIT": "Keep the copyright notice and the permission text with copies or substantial portions.",
    "BSD-2-Clause": "Keep the copyright notice, the conditions and the disclaimer with copies.",
    "BSD-3-Clause": "Keep the copyright notice, the conditions and the disclaimer; do not use the authors' "
    "names to promote derived products without permission.",
    "MulanPSL-2.0": "Keep the copyright and licence notices with copies; grants a patent licence.",
    "GPL-2.0": "Copyleft: a distributed work that includes this code must be distributed under the same "
    "licence, with its source. Consider what that means for anything you publish that contains it.",
    "GPL-3.0": "Copyleft: a distributed work that includes this code must be distributed under the same "
    "licence, with its source. Consider what that means for anything you publish that contains it.",
    "CANN": "Not an OSI-approved open-source licence. In our reading it allows use, modification and "
    "distribution of the software only in connection with Huawei Ascend AI processors, asks that its "
    "notices stay with copies, and grants nothing beyond its terms. Whether training a model on these "
    "rows, and using or sharing that model, is within those terms is for you to decide with the full "
    "agreement, which ships with the source repositories listed in LICENSES.md.",
    UNKNOWN: "No licence could be recognised for these files: treat them as all rights reserved unless "
    "you establish otherwise.",
}


@dataclass(frozen=True, slots=True)
class LicenseCount:
    license: str  # the id recorded on the rows (SPDX id, CANN-1.0/CANN-2.0, or unknown)
    rows: int
    allowed: bool


class LicenseGateError(Exception):
    def __init__(self, counts: list[LicenseCount]) -> None:
        super().__init__("licences not allowed")
        self.counts = counts


def _family(license_id: str) -> str:
    return "CANN" if license_id.startswith("CANN") else license_id


# "v2", "version 2.0", "-1": one `\s*` after the word (two in a row, `version\s*` then `\s*`,
# split a run of spaces every way before failing: quadratic on text that was not normalised).
_CANN_VERSION_RE = re.compile(r"(?:v|version|-)\s*([12])(?:\.0)?\b")


def canonical(name: str) -> str:
    """The recorded id for a licence name or id as a user types it: `apache-2.0` -> `Apache-2.0`,
    `CANN Open Software License Agreement Version 2.0` -> `CANN-2.0`, `CANN` -> `CANN` (every
    version). Unrecognised names come back unchanged."""
    text = " ".join(name.strip().split())
    lowered = text.lower()
    if lowered == UNKNOWN:
        return UNKNOWN
    for lic in KNOWN_LICENSES.values():
        if lowered in (lic.id.lower(), lic.name.lower()):
            return lic.id
    if re.search(r"\bcann\b", lowered.replace("-", " ")):
        version = _CANN_VERSION_RE.search(lowered)
        return f"CANN-{version.group(1)}.0" if version else "CANN"
    return re.sub(r"-(only|or-later)$", "", text)


def display_name(license_id: str) -> str:
    lic = KNOWN_LICENSES.get(license_id)
    if lic is not None:
        return lic.name
    return "unknown licence" if license_id == UNKNOWN else license_id


def is_allowed(license_id: str, allow: Iterable[str]) -> bool:
    wanted = {canonical(a) for a in allow}
    recorded = canonical(license_id)
    return recorded in wanted or (_family(recorded) in wanted and _family(recorded) != recorded)


def check_licenses(row_licenses: Iterable[str], allow: Iterable[str]) -> list[LicenseCount]:
    """Count rows per licence; raise `LicenseGateError` (with the counts) unless every licence
    present is allowed."""
    allow = list(allow)
    counts = Counter(row_licenses)
    result = [LicenseCount(lic, n, is_allowed(lic, allow)) for lic, n in sorted(counts.items())]
    if any(not c.allowed for c in result):
        raise LicenseGateError(result)
    return result


def gate_report(counts: list[LicenseCount]) -> str:
    lines = ["what would be published, per licence:"]
    for c in counts:
        mark = "allowed" if c.allowed else "NOT allowed"
        lines.append(f"  {c.rows:>7} rows  {c.license:<16} {display_name(c.license)}  [{mark}]")
    missing = [c.license for c in counts if not c.allowed]
    lines.append("to publish them, re-run with " + " ".join(f"--allow-license {lic}" for lic in missing))
    return "\n".join(lines)


def hub_id(license_id: str) -> str | None:
    """The Hub's identifier for a licence, or None when the Hub has none (then: `other`)."""
    if license_id == UNKNOWN:
        return "unknown"
    return _HUB_IDS.get(re.sub(r"-(only|or-later)$", "", license_id.lower()))


def slug(license_id: str) -> str:
    lic = KNOWN_LICENSES.get(license_id)
    name = lic.name if lic and _family(license_id) == "CANN" else license_id
    name = name.replace("Agreement ", "").replace("Version ", "")
    return re.sub(r"[^a-z0-9.]+", "-", name.lower()).strip("-")


def card_metadata(license_ids: Iterable[str]) -> dict[str, Any]:
    """`license` (one id or a list), plus `license_name`/`license_link` when a licence has no Hub
    identifier: the link points to LICENSES.md in the dataset repository."""
    ids = sorted(set(license_ids))
    hub = sorted({hub_id(i) or "other" for i in ids})
    meta: dict[str, Any] = {"license": hub[0] if len(hub) == 1 else hub}
    others = [i for i in ids if hub_id(i) is None]
    if others:
        if len(others) == 1:
            meta["license_name"] = slug(others[0])
        elif all(_family(o) == "CANN" for o in others):
            meta["license_name"] = "cann-open-software-license"
        else:
            meta["license_name"] = "multiple-licenses"
        meta["license_link"] = LICENSES_FILE
    return meta


def obligations(license_id: str) -> str:
    text = _OBLIGATIONS.get(_family(license_id))
    if text is not None:
        return text
    return f"See the licence text: https://spdx.org/licenses/{license_id}.html"


def url(license_id: str) -> str:
    lic = KNOWN_LICENSES.get(license_id)
    if lic is not None:
        return lic.url
    return "" if license_id == UNKNOWN else f"https://spdx.org/licenses/{license_id}.html"
