"""Files written whole (`schemas.atomic`) get the mode a plain `open()` would give them."""

from __future__ import annotations

import os

import pytest

from schemas import atomic


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_file_written_whole_follows_the_umask(tmp_path, monkeypatch, umask: int, mode: int) -> None:
    monkeypatch.setattr(atomic, "_UMASK", umask)
    target = tmp_path / "reports" / "leakage.md"
    atomic.write_text_atomic(target, "# leakage\n")
    assert target.read_text(encoding="utf-8") == "# leakage\n"
    assert target.stat().st_mode & 0o777 == mode


def test_the_umask_is_the_processs() -> None:
    current = os.umask(0o022)
    os.umask(current)
    assert current == atomic._UMASK


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path) -> None:
    target = tmp_path / "meta.json"
    atomic.write_text_atomic(target, "old")
    with pytest.raises(RuntimeError), atomic.atomic_path(target) as tmp:
        open(tmp, "w").write("half")  # noqa: SIM115
        raise RuntimeError("crash")
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["meta.json"]
