"""The judge as the recall layer of task matching, and the structural facts that rank its
candidates. Semantics abstains where its evidence cannot tell two tasks apart (siblings that
differ in words the document does not say); with a judge configured, it keeps the best tasks as
candidates and the judge's first "yes" places the document. Without a judge nothing changes.
The judge is a real OpenAI-compatible server on loopback, scripted to answer from the reference
it is shown. Fixtures are written for these tests."""

from __future__ import annotations

import json
import socket
import time

from curate.judge import GIVE_UP_AFTER
from curate.tasklevel import JudgeSettings, judge_matches, task_index_for
from dedup.decide import task_counts
from dedup.tasks import JUDGE_CANDIDATES, candidate_facts, match_document, match_units
from tests.servers.openai_server import OpenAIServer, Reply
from tests.test_dedup_helpers import run_cli
from tests.test_tasklevel import CONV_MIN_TANH, NEUTRAL_FUSED, _items, _unit, _write
from tests.test_tasklevel_scoring import TIED_BODY, TIED_SIBLINGS, _conv_kernel, _index, _reference, _task

# Siblings: the same computation, told apart only by words of their names and docstrings.
SQUARE = _reference("").replace("class Model", "# square input\nclass Model")
ASYMMETRIC = _reference("").replace("class Model", "# asymmetric input\nclass Model")
SIBLINGS = {"conv_standard_2d_square_input": SQUARE, "conv_standard_2d_asymmetric_input": ASYMMETRIC}
# A renamed convolution that says neither word: semantics cannot choose between the siblings.
PLAIN_CONV = _conv_kernel(
    "  // stride and padding of the window; in and out channels, kernel size\n  Add(y, acc, b, n);"
)


def _says_yes_to(marker: str):
    """A judge that answers YES exactly when the reference it is shown holds `marker`."""
    return lambda request: Reply.ok("YES" if marker in request.last_user_text else "NO")


def test_without_a_judge_tied_siblings_are_not_placed() -> None:
    index = _index(SIBLINGS)
    match, _ = match_document(PLAIN_CONV, index)
    assert match is None, "semantics placed a document its evidence cannot place"


def _judged_index(tasks: dict[str, str]):
    """The benchmark's items and its task index, as the stages build them when a judge is given."""
    items = _items(tasks)
    index = task_index_for(items, judged=True)
    assert index is not None and index.judge_candidates == JUDGE_CANDIDATES
    return items, index


def test_the_judge_places_a_document_semantics_left_between_siblings(tmp_path) -> None:
    items, index = _judged_index(SIBLINGS)
    units = [_unit("conv.cpp", PLAIN_CONV)]
    with OpenAIServer() as server:
        server.script = _says_yes_to("# asymmetric input")
        settings = JudgeSettings(server.url, "judge", tmp_path / "judge.sqlite")
        matches = match_units(units, index)
        assert [m.layer for m in matches] == ["candidate"] and len(matches[0].alternatives) == 1
        assert task_counts(matches)["task_matches"] == 0, "an unconfirmed candidate was counted as a match"
        counts = judge_matches(matches, units, items, settings)
        assert [(items[m.item].task_name, m.layer, m.judge) for m in matches] == [
            ("conv_standard_2d_asymmetric_input", "judge", "yes")
        ]
        assert counts["task_matches_by_judge"] == 1 and counts["judge_requests"] == server.chat_count()
        asked = server.chat_count()
        again = match_units(units, index)
        judge_matches(again, units, items, settings)
        assert server.chat_count() == asked, "a re-run asked the endpoint again"
        assert items[again[0].item].task_name == "conv_standard_2d_asymmetric_input"


def test_a_candidate_no_task_of_which_the_judge_confirms_is_no_match(tmp_path) -> None:
    items, index = _judged_index(SIBLINGS)
    units = [_unit("conv.cpp", PLAIN_CONV)]
    with OpenAIServer() as server:
        server.script = lambda request: Reply.ok("NO")
        matches = match_units(units, index)
        counts = judge_matches(
            matches, units, items, JudgeSettings(server.url, "judge", tmp_path / "j.sqlite")
        )
        assert matches == [] and counts["judge_requests"] == 2 and counts["task_matches_by_judge"] == 0


def test_a_refused_placement_moves_to_the_alternative_the_judge_confirms(tmp_path) -> None:
    # Semantics places the renamed fused kernel on conv2d_min_tanh_tanh; the judge says that is
    # not it and confirms the next task, which the same words also fit.
    tasks = {
        "conv2d_min_tanh_tanh": CONV_MIN_TANH,
        # its words tie less than RUNNER_UP_MARGIN would need: semantics places the row alone
        "conv2d_tanh_scaling_bias": _reference("        x = torch.tanh(x) * 2.0 + 0.5"),
    }
    items = _items(tasks)
    index = _index(tasks)
    placed, _ = match_document(NEUTRAL_FUSED, index)
    assert placed is not None and (_task(index, placed), placed.alternatives) == ("conv2d_min_tanh_tanh", [])
    index.judge_candidates = JUDGE_CANDIDATES
    units = [_unit("fused.cpp", NEUTRAL_FUSED)]
    with OpenAIServer() as server:
        server.script = _says_yes_to("torch.tanh(x) * 2.0")
        matches = match_units(units, index)
        assert matches[0].layer == "semantics" and len(matches[0].alternatives) == 1
        judge_matches(matches, units, items, JudgeSettings(server.url, "judge", tmp_path / "j.sqlite"))
    assert [(items[m.item].task_name, m.layer, m.judge) for m in matches] == [
        ("conv2d_tanh_scaling_bias", "judge", "yes")
    ]


def test_audit_with_a_judge_reports_the_placement_and_without_one_reports_none(
    tmp_path, monkeypatch, capsys
) -> None:
    bench = _write(
        tmp_path / "reference" / "convolution", {f"{name}.py": text for name, text in SIBLINGS.items()}
    )
    train = _write(tmp_path / "train", {"conv.cpp": PLAIN_CONV})
    status, out, _ = run_cli(
        monkeypatch, capsys, "audit", train, bench.parent, "--report-dir", tmp_path / "a"
    )
    assert status == 0 and "0 solve a test task" in out
    with OpenAIServer() as server:
        server.script = _says_yes_to("# square input")
        args = ["--report-dir", tmp_path / "b", "--judge-url", server.url]
        status, out, err = run_cli(monkeypatch, capsys, "audit", train, bench.parent, *args)
    assert status == 1 and "1 solve a test task" in out, (out, err)
    report = json.loads((tmp_path / "b" / "leakage.json").read_text())
    assert report["counts"]["task_matches_by_judge"] == 1
    assert "1 placed by its yes" in (tmp_path / "b" / "leakage.md").read_text()
    assert "no judge was asked" in (tmp_path / "a" / "leakage.md").read_text()
    (match,) = report["task_matches"]
    assert (match["task_name"], match["layer"], match["judge"]) == (
        "conv_standard_2d_square_input",
        "judge",
        "yes",
    )


def test_the_binding_transposed_flag_and_rank_checks_are_read() -> None:
    plain = "bool transposed = false; const int64_t outputPaddingData[2] = {0, 0};\n" + PLAIN_CONV
    facts, _ = candidate_facts(plain)
    assert "conv" in facts.ops and "conv_transpose" not in facts.ops, "an output padding made it transposed"
    facts, _ = candidate_facts("bool transposed = true;\n" + PLAIN_CONV)
    assert "conv_transpose" in facts.ops
    facts, _ = candidate_facts(
        'TORCH_CHECK(x.dim() == 5, "x: NCDHW"); TORCH_CHECK(b.dim() == 1);\n' + PLAIN_CONV
    )
    assert facts.dims == [3], "the rank a binding checks was not read"


def test_a_kernel_of_another_rank_does_not_claim_the_task() -> None:
    conv3d = _reference("").replace("nn.Conv2d", "nn.Conv3d")
    index = _index(
        {"conv3d_gelu_tanh": conv3d.replace("x = self.conv(x)", "x = torch.tanh(F.gelu(self.conv(x)))")}
    )
    kernel = _conv_kernel("  // in and out channels, kernel size\n  Gelu(y, acc, n); Tanh(y, y, n);")
    match, _ = match_document(kernel, index)
    assert match is not None and _task(index, match) == "conv3d_gelu_tanh"  # no rank stated: placed
    match, _ = match_document('TORCH_CHECK(x.dim() == 4, "NCHW");\n' + kernel, index)
    assert match is None, "a 2-D kernel claimed a 3-D task"
    # the rank said before the op, as prose says it
    for said, rank in (("// 1-D max pooling along the last axis", 1), ("// a 2D convolution", 2)):
        assert candidate_facts(said)[0].dims == [rank], said
    assert match_document("// a 2D convolution\n" + kernel, index)[0] is None


def test_a_transposed_convolution_and_its_convolution_are_one_strong_op() -> None:
    # `conv_transpose3d_sum` needs a second computation beyond the transposed convolution; a
    # deconvolution whose tiling sums its rows shows only one (its words show conv and conv_transpose).
    reference = _reference("        x = torch.sum(x, dim=1, keepdim=True)").replace(
        "nn.Conv2d", "nn.ConvTranspose3d"
    )
    index = _index({"conv_transpose3d_sum": reference})
    kernel = _conv_kernel(
        "  // deconvolution; in and out channels, kernel size\n  uint32_t rowSum = tileRows + tail;"
    )
    facts, _ = candidate_facts(kernel)
    assert {"conv", "conv_transpose", "sum"} <= set(facts.ops)
    match, _ = match_document(kernel, index)
    assert match is None, "a transposed convolution alone claimed a fused task"


SUM_REDUCTION = """import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.sum(x, dim=self.dim, keepdim=True)

def get_inputs():
    return [torch.rand(16, 256, 256)]

def get_init_inputs():
    return [1]
"""


def test_with_a_judge_a_row_of_weak_ops_only_gets_candidates() -> None:
    # A weighted sum (products, then a sum along the row) shows no strong op and does more than
    # reduce: offline it is placed nowhere (every kernel sums something); with a judge, the sum
    # reduction is a candidate for the judge to decide. A kernel that only reduces is placed by
    # its form offline (`dedup.tasks._sole_form`).
    index = _index({"sum_reduction_over_a_dimension": SUM_REDUCTION})
    kernel = """extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x, GM_ADDR y) {
  // reduce each row along the chosen dim
  Mul(xLocal, xLocal, wLocal, rowLength);
  ReduceSum(yLocal, xLocal, work, rowLength);
}"""
    assert match_document(kernel, index)[0] is None
    index.judge_candidates = JUDGE_CANDIDATES
    match, _ = match_document(kernel, index)
    assert match is not None and (match.layer, _task(index, match)) == (
        "candidate",
        "sum_reduction_over_a_dimension",
    )
    index.judge_candidates = 0
    only = kernel.replace("  Mul(xLocal, xLocal, wLocal, rowLength);\n", "")
    match, _ = match_document(only, index)
    assert match is not None and (match.basis, _task(index, match)) == (
        "form",
        "sum_reduction_over_a_dimension",
    )


ADD_BIAS = """import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, bias_shape):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        return x + self.bias

def get_inputs():
    return [torch.rand(128, 4096)]

def get_init_inputs():
    return [(4096,)]
"""


def test_with_a_judge_a_task_that_requires_no_op_is_a_candidate_by_its_words() -> None:
    # A broadcast add requires no op (arithmetic is in every kernel): offline, a row that adds
    # and then scales is no arithmetic task's (`dedup.weak_tasks.arithmetic_op`); with a judge,
    # its words (bias, broadcast) rank the task among the candidates.
    index = _index({"add_bias_broadcast": ADD_BIAS})
    kernel = """extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x, GM_ADDR bias, GM_ADDR y) {
  // the bias row is broadcast over every row of x, then scaled
  Add(yLocal, xLocal, biasLocal, rowLength);
  Muls(yLocal, yLocal, scale, rowLength);
}"""
    assert match_document(kernel, index)[0] is None
    index.judge_candidates = JUDGE_CANDIDATES
    match, _ = match_document(kernel, index)
    assert match is not None and (match.layer, _task(index, match)) == ("candidate", "add_bias_broadcast")


def test_dedup_with_a_judge_drops_the_unit_it_places(tmp_path, monkeypatch, capsys) -> None:
    from schemas import Decision, read_records

    ws = tmp_path / "ws"
    train = _write(tmp_path / "train" / "op_zulu" / "op_kernel", {"op_zulu.cpp": PLAIN_CONV})
    bench = _write(tmp_path / "reference" / "convolution", {f"{n}.py": t for n, t in SIBLINGS.items()})
    for args in (
        ("ingest", train.parent.parent, "-w", ws),
        ("ingest", bench.parent, "--benchmark", "-w", ws),
    ):
        status, _, err = run_cli(monkeypatch, capsys, *args)
        assert status == 0, err
    status, out, err = run_cli(monkeypatch, capsys, "dedup", "-w", ws, "--task-leaks", "drop")
    assert status == 0 and [d.decision for d in read_records(ws / "decisions.parquet", Decision)] == ["keep"]
    with OpenAIServer() as server:
        server.script = _says_yes_to("# square input")
        args = ("dedup", "-w", ws, "--task-leaks", "drop", "--judge-url", server.url)
        status, out, err = run_cli(monkeypatch, capsys, *args)
        asked = server.chat_count()
    assert status == 0, (out, err)
    (decision,) = read_records(ws / "decisions.parquet", Decision)
    assert (decision.decision, decision.method) == ("leak", "task-judge")
    assert decision.match_path.endswith("conv_standard_2d_square_input.py") and asked >= 1
    report = json.loads((ws / "reports" / "leakage.json").read_text())
    assert report["counts"]["task_matches_by_judge"] == 1 and (ws / "reports" / "judge.sqlite").exists()


def _closed_port_url() -> str:
    """An endpoint nothing listens on: a port bound, then released."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def test_a_judge_that_keeps_failing_is_given_up_with_one_warning(tmp_path, monkeypatch, capsys) -> None:
    # Before, every pair waited for the client's retries against a dead endpoint (12 documents:
    # 17 s of a 21 s audit) and nothing on the terminal said why the judge placed nothing.
    items, index = _judged_index(SIBLINGS)
    units = [_unit(f"conv{k}.cpp", PLAIN_CONV + f"\n// copy {k}") for k in range(6)]
    matches = match_units(units, index)
    assert len(matches) == 6
    settings = JudgeSettings(_closed_port_url(), "judge", tmp_path / "j.sqlite", concurrency=1)
    counts = judge_matches(matches, units, items, settings)
    assert counts["judge_failed"] == GIVE_UP_AFTER and counts["judge_requests"] == 0
    assert counts["judge_not_asked"] == 2 * 6 - GIVE_UP_AFTER  # two options per document
    assert matches == [], "an unjudged candidate was kept as a match"
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning:" in line]
    assert len(warnings) == 1 and f"failed {GIVE_UP_AFTER} times in a row" in warnings[0]
    assert "Connection" in warnings[0], warnings[0]


def test_documents_are_judged_concurrently(tmp_path) -> None:
    items, index = _judged_index(SIBLINGS)
    units = [_unit(f"conv{k}.cpp", PLAIN_CONV + f"\n// copy {k}") for k in range(4)]
    arrivals: list[float] = []
    answer_after = 1.5  # seconds each answer is held back

    def slow_yes(request):
        arrivals.append(time.monotonic())
        return Reply(content="YES", delay_s=answer_after)

    with OpenAIServer() as server:
        server.script = slow_yes
        matches = match_units(units, index)
        settings = JudgeSettings(server.url, "judge", tmp_path / "j.sqlite", concurrency=4)
        counts = judge_matches(matches, units, items, settings)
    assert counts["judge_requests"] == 4 and counts["task_matches_by_judge"] == 4
    # Every request arrived before the first answer went out; one at a time, each would have
    # arrived after the previous answer.
    assert max(arrivals) < min(arrivals) + answer_after, arrivals


def test_the_judge_chooses_among_tied_tasks(tmp_path) -> None:
    items, index = _judged_index(TIED_SIBLINGS)
    units = [_unit("conv.cpp", _conv_kernel(TIED_BODY))]
    with OpenAIServer() as server:
        server.script = _says_yes_to("x * 3.5")  # the reference of conv2d_hardtanh_scale_shifted
        matches = match_units(units, index)
        assert len(matches) == 1 and matches[0].tied, "the tie was not flagged with its tasks"
        assert task_counts(matches)["task_matches_tied"] == 1
        judge_matches(matches, units, items, JudgeSettings(server.url, "judge", tmp_path / "j.sqlite"))
    match = matches[0]
    assert (items[match.item].task_name, match.layer, match.judge) == (
        "conv2d_hardtanh_scale_shifted",
        "judge",
        "yes",
    )
    assert match.tied == [] and task_counts(matches)["task_matches_tied"] == 0


def test_an_answer_that_is_neither_yes_nor_no_refuses_nothing(tmp_path) -> None:
    # Gemma 3 270M answered real pairs with code; read as "no", that took matches out of the leaks.
    from tests.test_tasklevel import GELU, GELU_NAMED, NEUTRAL_FUSED, SOFTMAX

    items = _items({"conv2d_min_tanh_tanh": CONV_MIN_TANH, "gelu": GELU, "softmax": SOFTMAX})
    index = task_index_for(items, judged=True)
    units = [_unit("a.cpp", NEUTRAL_FUSED), _unit("b.cpp", GELU_NAMED)]
    answers = {"gelu_custom": "<<SYS>>\n```python\nimport torch", "": "**Yes.** every step"}
    with OpenAIServer() as server:
        server.script = lambda request: Reply.ok(
            answers["gelu_custom" if "gelu_custom" in request.last_user_text else ""]
        )
        settings = JudgeSettings(server.url, "judge", tmp_path / "judge.sqlite")
        for run in ("first", "again"):
            matches = match_units(units, index)
            counts = judge_matches(matches, units, items, settings)
            assert [m.judge for m in matches] == ["yes", ""], run
            assert task_counts(matches)["task_matches"] == 2, f"{run}: an unclear answer refused a match"
            assert counts["judge_unclear"] == 1, run
        assert server.chat_count() == 2, "a re-run asked the endpoint again"
