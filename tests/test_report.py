"""`curate report` as a user runs it: a workspace built from examples/ by the installed command
(ingest, benchmark, dedup, annotate against the scripted loopback teacher), the page and its
figures written, the page opened in Debian's chromium through Playwright: charts drawn, a leak
shown side by side with its shared lines marked, and no request leaving the file."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from curate.report.leaks import common_lines, window
from tests.report_workspace import build_workspace, curate

FIGURES = ("funnel", "composition", "sizes", "rejections", "acceptance", "rounds")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_workspace(tmp_path_factory.mktemp("report") / "ws")


@pytest.fixture(scope="module")
def report(workspace: Path) -> dict[str, Any]:
    done = curate("report", "-w", str(workspace), "--json")
    assert done.returncode == 0, done.stderr
    written: dict[str, Any] = json.loads(done.stdout)
    return written


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return next((p for p in ("/usr/bin/chromium", "/usr/lib/chromium/chromium") if Path(p).exists()), None)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the [dev] extra")
    executable = _chromium()
    if executable is None:
        pytest.skip("chromium is not installed (`make install-dev` installs it as root with apt-get)")
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield launched
        launched.close()


def _open(browser: Any, html: Path) -> tuple[Any, list[str]]:
    """The page loaded from disk, with every request it made; any request for something other
    than the file itself is aborted and recorded."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    outside: list[str] = []
    own = html.resolve().as_uri()

    def route(r: Any) -> None:
        if r.request.url.split("#")[0] == own:
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.on("request", lambda req: None if req.url.split("#")[0] == own else outside.append(req.url))
    page.goto(own)
    page.wait_for_load_state("load")
    return page, outside


def test_the_report_and_its_figures_are_written(workspace: Path, report: dict[str, Any]) -> None:
    html = Path(report["html"])
    assert html == workspace / "reports" / "report.html"
    text = html.read_text(encoding="utf-8")
    assert report["bytes"] == len(text.encode()) < 3_000_000
    figures = workspace / "reports" / "figures"
    for name in FIGURES:
        assert (figures / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
        assert "<svg" in (figures / f"{name}.svg").read_text(encoding="utf-8")
        assert f'id="fig-{name}"' in text
    # Nothing on the page points outside it: no script, style, image or font address.
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", text)
    assert "@import" not in text and not re.search(r"url\((?!#)", text)  # url(#clip) is in-page


def test_the_funnel_counts_match_the_tables(workspace: Path, report: dict[str, Any]) -> None:
    import polars as pl

    text = Path(report["html"]).read_text(encoding="utf-8")
    decisions = pl.read_parquet(workspace / "decisions.parquet")
    kept = decisions.filter(pl.col("decision") == "keep").height
    leaks = decisions.filter(pl.col("decision") == "leak").height
    verdicts = pl.read_parquet(workspace / "annotations.parquet")["verdict"].value_counts()
    counts = dict(verdicts.iter_rows())
    assert counts.get("accepted") and counts.get("rejected") and counts.get("failed")
    assert re.search(rf"<b>kept by dedup</b>.*?<td class=\"n\"[^>]*>{kept}</td>", text)
    assert re.search(rf"<b>accepted</b>.*?<td class=\"n\"[^>]*>{counts['accepted']}</td>", text)
    pairs = json.loads((workspace / "reports" / "leakage.json").read_text())["leaks"]
    assert len({p["unit_id"] for p in pairs}) == leaks  # every leaked unit has its pairs
    assert f"{len(pairs):,} unit-item pairs share code" in text
    assert text.count('<tr class="leak"') == len(pairs)  # the table lists what the sentence counts
    assert "teacher failed: context window exceeded" in text
    assert "grounding.api_exists" in text and "FrobnicateTensorX" in text  # the example diagnostic


def test_the_page_renders_in_chromium_without_any_request_leaving_it(
    browser: Any, report: dict[str, Any]
) -> None:
    page, outside = _open(browser, Path(report["html"]))
    try:
        for name in FIGURES:
            box = page.locator(f"#fig-{name} svg").bounding_box()
            assert box is not None and box["width"] > 100 and box["height"] > 50, name
            assert page.locator(f"#fig-{name} svg rect, #fig-{name} svg path").count() > 5, name
        # Click the strongest leak in the table: its view opens with both sides and marked lines.
        view = page.locator("details#leak-0")
        assert not view.evaluate("d => d.open")
        page.locator("#leak-table tbody tr.leak").first.click()
        assert view.evaluate("d => d.open")
        sides = view.locator(".side")
        assert sides.count() == 2
        for i in range(2):
            marks = sides.nth(i).locator("mark")
            assert marks.count() >= 3, f"side {i} has no shared lines marked"
            box = marks.first.bounding_box()
            assert box is not None and box["width"] > 50 and box["height"] > 5
        unit_text, bench_text = sides.nth(0).inner_text(), sides.nth(1).inner_text()
        assert "unit " in unit_text and "benchmark " in bench_text
        shared = set(sides.nth(0).locator("mark").all_inner_texts()[0].split()[1:])
        assert shared & set(" ".join(sides.nth(1).locator("mark").all_inner_texts()).split())
    finally:
        page.close()
    assert outside == []


def test_the_leak_table_sorts_by_a_clicked_column(browser: Any, report: dict[str, Any]) -> None:
    page, _ = _open(browser, Path(report["html"]))
    try:
        header = page.locator("#leak-table th", has_text="shared lines")
        column = page.locator("#leak-table th").all_inner_texts().index(header.inner_text())
        values = f"Array.from(document.querySelectorAll('#leak-table tbody tr')).map(r => +r.cells[{column}].dataset.v)"
        header.click()
        ascending = page.evaluate(values)
        header.click()
        descending = page.evaluate(values)
    finally:
        page.close()
    assert len(ascending) >= 2 and ascending == sorted(ascending) and descending == sorted(ascending)[::-1]


def test_the_request_check_catches_a_page_that_reaches_out(browser: Any, tmp_path: Path) -> None:
    """The interception above can fail: a page loading an image from an address is caught."""
    html = tmp_path / "leaky.html"
    html.write_text('<html><body><img src="https://example.invalid/x.png"></body></html>', encoding="utf-8")
    page, outside = _open(browser, html)
    page.close()
    assert outside and outside[0].startswith("https://example.invalid/")


def test_without_a_benchmark_the_report_claims_no_leakage_check(tmp_path: Path) -> None:
    ws = build_workspace(tmp_path / "ws", benchmark=False, annotate=False)
    out = tmp_path / "elsewhere" / "page.html"
    done = curate("report", "-w", str(ws), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert str(out) in done.stdout
    text = out.read_text(encoding="utf-8")
    assert "no benchmark ingested: no leakage check ran" in text
    assert 'id="leaks"' not in text and "not annotated yet" in text
    assert (ws / "reports" / "figures" / "funnel.png").exists()
    assert not (ws / "reports" / "figures" / "rejections.png").exists()  # nothing was verified


def test_a_workspace_without_tables_is_one_line_and_exit_2(tmp_path: Path) -> None:
    for ws in (tmp_path / "missing", tmp_path):
        done = curate("report", "-w", str(ws), check=False)
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")
        assert "curate ingest" in done.stderr


def test_the_cli_does_not_import_the_plotting_library() -> None:
    import subprocess
    import sys

    code = "import sys, curate.cli; print(sorted(m for m in sys.modules if m.split('.')[0] in ('matplotlib', 'PIL')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_lines_most_answers_have_are_marked_common_not_evidence() -> None:
    boiler = '#include "kernel_operator.h"\nusing namespace AscendC;\n'
    answers = [boiler + f"void k{i}() {{ Add(x, y, {i}); }}" for i in range(5)]
    common = common_lines(answers)
    assert '#include "kernel_operator.h"' in common and "using namespace AscendC;" in common
    assert "void k1() { Add(x, y, 1); }" not in common
    shown = window(answers[1].split("\n"), [(1, 3)], common=common)
    assert [(s.number, s.shared, s.common) for s in shown] == [
        (1, True, True),
        (2, True, True),
        (3, True, False),
    ]
    assert common_lines(answers[:3]) == frozenset()  # too few answers to call anything common


def test_the_view_shows_shared_ranges_with_context_and_folds_the_rest() -> None:
    lines = [f"line {n}" for n in range(1, 101)]
    shown = window(lines, [(10, 12), (50, 50)])
    numbers = [s.number for s in shown]
    assert numbers[:1] == [0] and shown[0].text == "... 7 lines ..."
    assert [s.number for s in shown if s.shared] == [10, 11, 12, 50]
    assert 8 in numbers and 14 in numbers and 15 not in numbers  # two lines of context
    assert shown[-1].text == "... 48 lines ..."
    assert len(window(lines, [(1, 100)], limit=30)) == 31  # bounded, then one fold


def test_push_uploads_the_figures_and_the_card_shows_them(workspace: Path, tmp_path: Path) -> None:
    """Last in this module: it builds and pushes the shared workspace."""
    import polars as pl

    accepted = pl.read_parquet(workspace / "annotations.parquet").filter(pl.col("verdict") == "accepted")
    units = pl.read_parquet(workspace / "units.parquet", columns=["unit_id", "license"])
    allowed = sorted(
        set(units.filter(pl.col("unit_id").is_in(accepted["unit_id"].to_list()))["license"].to_list())
    )
    assert curate("build", "-w", str(workspace)).returncode == 0
    assert curate("report", "-w", str(workspace)).returncode == 0
    out = tmp_path / "dataset"
    allow = [arg for lic in allowed for arg in ("--allow-license", lic)]
    pushed = curate("push", "-w", str(workspace), "--to-dir", str(out), *allow, check=False)
    assert pushed.returncode == 0, pushed.stderr
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "## Figures" in card
    for name in ("funnel", "composition", "sizes", "rejections"):
        assert f"![{name}](reports/figures/{name}.png)" in card
        assert (out / "reports" / "figures" / f"{name}.png").read_bytes() == (
            workspace / "reports" / "figures" / f"{name}.png"
        ).read_bytes()
    # After the push, the report's licence step shows the gate that ran.
    curate("report", "-w", str(workspace))
    text = (workspace / "reports" / "report.html").read_text(encoding="utf-8")
    assert "allowed at the last push: " + ", ".join(allowed) in text


def test_the_command_prints_the_path_it_wrote_in_one_line(workspace: Path, report: dict[str, Any]) -> None:
    done = curate("report", "-w", str(workspace))
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.strip().splitlines()
    assert line.startswith(f"report: {workspace / 'reports' / 'report.html'} (")
