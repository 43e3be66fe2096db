"""The HTML page: one file, styles and the little script it needs inline, charts as inline SVG.

Nothing on the page refers to anything outside it (no CDN, no font, no image address), so it
opens from disk on a machine without network. The script only sorts tables and opens a leak's
side-by-side view; every figure is readable without it.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Any

from curate import __version__
from curate.report.charts import Chart
from curate.report.gather import FunnelStep, ReportData, Verification
from curate.report.leaks import LeakView, ShownLine

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d232b;background:#f6f7f9}
header{background:#1f3b63;color:#fff;padding:18px 28px}header h1{margin:0 0 4px;font-size:22px}
header p{margin:2px 0;opacity:.9}main{max-width:1180px;margin:0 auto;padding:8px 24px 40px}
nav{margin-top:8px}nav a{color:#cfe0ff;margin-right:14px;text-decoration:none}
section{background:#fff;border:1px solid #dde2e8;border-radius:6px;padding:14px 20px;margin:18px 0}
h2{margin:4px 0 10px;font-size:18px}h3{font-size:15px;margin:16px 0 6px}
.figure svg{max-width:100%;height:auto}
table{border-collapse:collapse;margin:6px 0 10px;font-size:13px}
th,td{border-bottom:1px solid #e3e6ea;padding:3px 9px;text-align:left;vertical-align:top}
th{background:#eef1f5}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
table.sortable th{cursor:pointer;user-select:none}table.sortable th:after{content:" \\2195";color:#99a}
tr.leak{cursor:pointer}tr.leak:hover{background:#f2f6ff}
.note{background:#fff8e1;border-left:4px solid #f0b400;padding:6px 10px;margin:6px 0}
.muted{color:#67707c}.example{font-family:ui-monospace,monospace;font-size:12px;color:#444;white-space:pre-wrap;overflow-wrap:anywhere}
details.view{border:1px solid #dde2e8;border-radius:5px;margin:10px 0;padding:6px 10px}
details.view summary{cursor:pointer;font-weight:600}
.sides{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:10px;margin-top:8px}
.side{min-width:0}.side h4{margin:2px 0 4px;font-size:13px;overflow-wrap:anywhere}
.side pre{margin:0;font:12px/1.35 ui-monospace,monospace;background:#fafbfc;border:1px solid #e3e6ea;
 overflow:auto;max-height:520px;padding:4px 0}
.side pre span{display:block;padding:0 6px;white-space:pre}.side pre i{color:#9aa3ad;font-style:normal;
 display:inline-block;width:4.5em;text-align:right;margin-right:8px}
.side pre mark{background:#ffd666;display:block}.side pre mark.common{background:#fff3cc}
.key mark{background:#ffd666;padding:0 4px}.key mark.common{background:#fff3cc}.side pre .fold{color:#8a94a0;background:#f0f2f5}
table.funnel td.step{min-width:190px}table.funnel td.reason{min-width:260px}
.figs{display:flex;flex-wrap:wrap;gap:8px 20px}.wide{overflow-x:auto}
"""

_SCRIPT = """
document.querySelectorAll('table.sortable').forEach(function(t){
 t.querySelectorAll('th').forEach(function(th,i){th.addEventListener('click',function(){
  var body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows),up=th.dataset.dir!=='asc';
  th.dataset.dir=up?'asc':'desc';
  rows.sort(function(a,b){var x=a.cells[i].dataset.v||a.cells[i].textContent,
   y=b.cells[i].dataset.v||b.cells[i].textContent,nx=parseFloat(x),ny=parseFloat(y);
   var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:x.localeCompare(y);return up?c:-c;});
  rows.forEach(function(r){body.appendChild(r);});});});});
document.querySelectorAll('tr.leak').forEach(function(tr){tr.addEventListener('click',function(){
 var v=document.getElementById(tr.dataset.view);if(v){v.open=true;v.scrollIntoView();}});});
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _num(value: Any) -> str:
    if isinstance(value, float):
        return f'<td class="n" data-v="{value}">{value:.3f}</td>'
    if isinstance(value, int):
        return f'<td class="n" data-v="{value}">{value:,}</td>'
    return f"<td>{_e(value)}</td>"


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]], cls: str = "") -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(_num(c) for c in row) + "</tr>" for row in rows)
    return f'<table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _figure(charts: dict[str, Chart], name: str) -> str:
    chart = charts.get(name)
    if chart is None:
        return ""
    return f'<div class="figure" id="fig-{name}" role="img" aria-label="{_e(chart.title)}">{chart.svg}</div>'


def _notes(notes: Iterable[str]) -> str:
    return "".join(f'<p class="note">{_e(n)}</p>' for n in notes)


def _funnel(data: ReportData, charts: dict[str, Chart]) -> str:
    rows: list[str] = []
    for step in data.funnel:
        rows.append(_step_rows(step))
    return (
        '<section id="funnel"><h2>Funnel</h2>'
        + _figure(charts, "funnel")
        + '<table class="funnel"><thead><tr><th>step</th><th class="n">units left</th><th>removed here</th>'
        '<th class="n">count</th><th>example</th></tr></thead><tbody>'
        + "".join(rows)
        + "</tbody></table></section>"
    )


def _step_rows(step: FunnelStep) -> str:
    left = "did not run" if step.remaining is None else f"{step.remaining:,}"
    note = f'<div class="muted">{_e(step.note)}</div>' if step.note else ""
    removed = step.removed or []
    span = max(1, len(removed))
    first = f'<td class="step" rowspan="{span}"><b>{_e(step.name)}</b>{note}</td><td class="n" rowspan="{span}">{left}</td>'
    if not removed:
        return f"<tr>{first}<td class='reason muted'>none</td><td></td><td></td></tr>"
    out = []
    for i, r in enumerate(removed):
        cells = (
            f"<td>{_e(r.reason)}</td><td class='n'>{r.count:,}</td><td class='example'>{_e(r.example)}</td>"
        )
        out.append(f"<tr>{first if i == 0 else ''}{cells}</tr>")
    return "".join(out)


def _composition(data: ReportData, charts: dict[str, Chart]) -> str:
    decisions = (
        "<h3>Dedup decisions</h3>" + _table(["decision", "method", "units"], data.decisions)
        if data.decisions
        else ""
    )
    return (
        '<section id="composition"><h2>Composition</h2>'
        + _figure(charts, "composition")
        + _figure(charts, "sizes")
        + decisions
        + "</section>"
    )


def _side(title: str, lines: list[ShownLine], total: int) -> str:
    body = []
    for line in lines:
        if line.number == 0:
            body.append(f'<span class="fold">{_e(line.text)}</span>')
            continue
        text = f"<i>{line.number}</i>{_e(line.text)}"
        if line.shared:
            body.append(f'<mark class="common">{text}</mark>' if line.common else f"<mark>{text}</mark>")
        else:
            body.append(f"<span>{text}</span>")
    empty = "" if lines else '<span class="fold">(code not in the workspace)</span>'
    return (
        f'<div class="side"><h4>{_e(title)} <span class="muted">({total:,} lines)</span></h4>'
        f"<pre>{''.join(body) or empty}</pre></div>"
    )


def _view(view: LeakView) -> str:
    r = view.record
    figures = (
        f"score {float(r.get('score', 0)):.3f} ({_e(r.get('method', ''))}), Jaccard {float(r.get('jaccard', 0)):.3f}, "
        f"containment {float(r.get('containment', 0)):.3f}, {int(r.get('shared_shingles', 0)):,} shared shingles, "
        f"{int(r.get('overlapping_line_count', 0)):,} shared lines in {int(r.get('range_count', 0)):,} ranges"
    )
    unit_title = f"unit {r.get('unit_source', '')}: {r.get('unit_path', '')} :: {r.get('kernel_name', '')}"
    bench_title = f"benchmark {r.get('benchmark', '')} / {r.get('task_name', '')}: {r.get('answer_path', '')}"
    return (
        f'<details class="view" id="leak-{view.index}"><summary>{_e(r.get("unit_path", ""))} ↔ '
        f"{_e(r.get('benchmark', ''))}/{_e(r.get('task_name', ''))} (score {float(r.get('score', 0)):.3f})</summary>"
        f'<p class="muted">{figures}</p><div class="sides">'
        + _side(unit_title, view.unit_lines, view.unit_total)
        + _side(bench_title, view.bench_lines, view.bench_total)
        + "</div></details>"
    )


_LEAK_HEADER = ("source", "unit path", "kernel", "benchmark", "task", "level", "method", "score", "Jaccard",
                "containment", "shared lines")  # fmt: skip


def _leaks(data: ReportData) -> str:
    check = data.leak_check
    if check is None or not check.ran:
        return ""
    shown = len(data.leak_rows)
    head = f"<p>Compared with {_e(check.named())}. {data.leak_total:,} unit-item pairs share code with a benchmark answer."
    if shown < data.leak_total:
        head += f" The strongest {shown:,} are listed."
    if data.leak_views:
        head += (
            f" The strongest {len(data.leak_views):,} open side by side (click a row): shared lines are"
            ' <span class="key"><mark>marked</mark></span>, shared lines most benchmark answers have'
            ' <span class="key"><mark class="common">lighter</mark></span>.'
        )
    head += "</p>"
    if task := check.task_sentence():
        head += f"<p>{_e(task.replace('`', ''))}</p>"
    rows = []
    for row in data.leak_rows:
        cells = "".join(_num(row[k]) for k in row if k != "view")
        attr = f' class="leak" data-view="leak-{row["view"]}"' if row["view"] >= 0 else ""
        rows.append(f"<tr{attr}>{cells}</tr>")
    header = "".join(f"<th>{_e(h)}</th>" for h in _LEAK_HEADER)
    table = (
        f'<div class="wide"><table class="sortable" id="leak-table"><thead><tr>{header}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'
        if rows
        else "<p>No unit shares code with a benchmark answer.</p>"
    )
    names = ""
    if data.name_match_total:
        listed = len(data.name_matches)
        more = f"; the first {listed:,} listed" if listed < data.name_match_total else ""
        names = f"<h3>Op-name matches ({data.name_match_total:,}{more})</h3>" + _table(
            ["unit path", "op", "benchmark", "task", "level", "code also matches"],
            [
                (
                    m.get("unit_path", ""),
                    m.get("op_name", ""),
                    m.get("benchmark", ""),
                    m.get("task_name", ""),
                    m.get("level", ""),
                    "yes" if m.get("code_also_matches") else "no",
                )
                for m in data.name_matches
            ],
            "sortable",
        )
    views = "".join(_view(v) for v in data.leak_views)
    return f'<section id="leaks"><h2>Leaks</h2>{head}{table}{views}{names}</section>'


def _verification(v: Verification | None, charts: dict[str, Chart]) -> str:
    if v is None:
        return ""
    t = v.teacher
    cost = f"{t.cost:.4f}" if t.cost is not None else "not priced (pass --price-in/--price-out to annotate)"
    teacher = _table(
        ["teacher model(s)", "responses", "prompt tokens", "completion tokens", "latency (s)", "cost"],
        [
            (
                ", ".join(t.models) or "unknown",
                t.responses,
                t.prompt_tokens,
                t.completion_tokens,
                round(t.latency_s, 1),
                cost,
            )
        ],
    )
    verdicts = _table(["verdict", "units"], sorted(v.verdicts.items(), key=lambda kv: -kv[1]))
    checks = (
        _table(
            ["check", "units rejected", "rejected attempts", "example unit", "example diagnostic"],
            [(c.check, c.units, c.attempts, c.example_unit, c.example) for c in v.checks],
            "sortable",
        )
        if v.checks
        else "<p>No verifier check rejected an answer.</p>"
    )
    failures = (
        "<h3>Teacher failures</h3>"
        + _table(["reason", "units", "example"], [(f.reason, f.count, f.example) for f in v.failures])
        if v.failures
        else ""
    )
    ran = f"<p class='muted'>checks that ran: {_e(', '.join(v.verifiers))}</p>" if v.verifiers else ""
    return (
        '<section id="verification"><h2>Verification</h2>'
        + verdicts
        + ran
        + "<h3>Rejections by check</h3>"
        + _figure(charts, "rejections")
        + checks
        + failures
        + '<div class="figs">'
        + _figure(charts, "acceptance")
        + _figure(charts, "rounds")
        + "</div><h3>Teacher cost and tokens</h3>"
        + teacher
        + "</section>"
    )


def render(data: ReportData, charts: dict[str, Chart]) -> str:
    summary = f"{data.units:,} units, {data.benchmark_items:,} benchmark items"
    if data.verification is not None:
        summary += f", {data.verification.verdicts.get('accepted', 0):,} accepted annotations"
    nav = "".join(
        f'<a href="#{anchor}">{label}</a>'
        for anchor, label in (
            ("funnel", "Funnel"),
            ("composition", "Composition"),
            ("leaks", "Leaks"),
            ("verification", "Verification"),
        )
    )
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>curate report: {_e(data.workspace)}</title><style>{_CSS}</style></head><body>"
        f"<header><h1>Ascend-CoT curation report</h1><p>{_e(data.workspace)}: {_e(summary)}</p>"
        f'<p class="muted" style="color:#cfd8e3">written {_e(data.generated_at)} by curate {__version__}</p>'
        f"<nav>{nav}</nav></header><main>"
        + _notes(data.notes)
        + _funnel(data, charts)
        + _composition(data, charts)
        + _leaks(data)
        + _verification(data.verification, charts)
        + f"</main><script>{_SCRIPT}</script></body></html>\n"
    )
