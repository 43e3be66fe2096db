"""Licences as facts: the ids we record, their names, where their text lives, and whether they
are permissive. Shared by ingest (detection), dedup (keep policy) and publishing (card, gate)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class License:
    id: str  # SPDX id where one exists; otherwise our own short id
    name: str
    url: str
    spdx: bool
    permissive: bool


KNOWN_LICENSES: dict[str, License] = {
    lic.id: lic
    for lic in (
        License(
            "Apache-2.0", "Apache License 2.0", "https://www.apache.org/licenses/LICENSE-2.0", True, True
        ),
        License("MIT", "MIT License", "https://opensource.org/license/mit", True, True),
        License(
            "BSD-3-Clause",
            'BSD 3-Clause "New" or "Revised" License',
            "https://opensource.org/license/bsd-3-clause",
            True,
            True,
        ),
        License(
            "BSD-2-Clause",
            'BSD 2-Clause "Simplified" License',
            "https://opensource.org/license/bsd-2-clause",
            True,
            True,
        ),
        License(
            "GPL-2.0",
            "GNU General Public License v2.0",
            "https://www.gnu.org/licenses/old-licenses/gpl-2.0.html",
            True,
            False,
        ),
        License(
            "GPL-3.0",
            "GNU General Public License v3.0",
            "https://www.gnu.org/licenses/gpl-3.0.html",
            True,
            False,
        ),
        License(
            "MulanPSL-2.0",
            "Mulan Permissive Software License, Version 2",
            "https://license.coscl.org.cn/MulanPSL2",
            True,
            True,
        ),
        # Not OSI-approved; restricts use to Huawei AI processors. Recorded by name, never as a SPDX id.
        License(
            "CANN-1.0",
            "CANN Open Software License Agreement Version 1.0",
            "https://gitcode.com/cann",
            False,
            False,
        ),
        License(
            "CANN-2.0",
            "CANN Open Software License Agreement Version 2.0",
            "https://gitcode.com/cann",
            False,
            False,
        ),
    )
}

UNKNOWN = "unknown"


# Other usual spellings of permissive licences, compared lowercase (tables and Hub datasets carry
# free-text licence names).
_PERMISSIVE_SPELLINGS = frozenset(
    {"apache-2.0", "apache 2.0", "apache license 2.0", "mit", "bsd-2-clause", "bsd-3-clause", "isc", "zlib"}
    | {"0bsd", "unlicense", "bsl-1.0", "cc0-1.0", "psf-2.0", "upl-1.0"}
)


def is_permissive(license_id: str) -> bool:
    """Ranked first when dedup chooses which copy to keep."""
    lic = KNOWN_LICENSES.get(license_id.strip())
    return bool(lic and lic.permissive) or license_id.strip().lower() in _PERMISSIVE_SPELLINGS
