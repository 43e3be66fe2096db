"""Input nested deeper than Python's recursive readers can follow: `ast.parse` and `json.loads`
raise RecursionError (the parser also MemoryError) on it, and so does a recursive walk over a
tree that parsed. A benchmark reference, a submission file, a jsonl row, a teacher's HTTP body
or answer that deep is read like any input that cannot be read: as a description, as plain
code, as a one-line error naming the line, as a malformed answer. Never a traceback, and one
hostile file never stops the rest of a run.

Every hostile input is built here, in the test's own directory."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from annotate.config import AnnotateConfig
from annotate.context import ask_server
from annotate.run import annotate_units
from annotate.tasks.knowledge_qa import KnowledgeParseError, parse
from benchmarks.form_verifier import StructuralVerifier
from curate.sources import file_unit
from parsers.submission import read_submission
from parsers.torchref import read_reference
from tests.conftest import run_curate
from tests.servers.openai_server import OpenAIServer, Reply
from tests.test_annotate_task import make_unit

HEAD = "import torch\nimport torch.nn as nn\n\nclass Model(nn.Module):\n    def forward(self, x):\n"

SWISH = HEAD + "        return x * torch.sigmoid(x)\n\ndef get_inputs():\n    return [torch.rand(16, 64)]\n"

# Too deep to PARSE: a left-nested sum (RecursionError during ast construction) and a
# right-nested chain of unary minus (the parser's own stack: MemoryError).
DEEP_SUM = HEAD + "        return torch.relu(" + "+".join(["x"] * 200_000) + ")\n"
DEEP_NEGATION = HEAD + "        return torch.relu(" + "-" * 100_000 + "x)\n"
# Parse, but too deep to WALK: the `forward` visitor, the constant folder (`_number`) and
# `ast.unparse` of a keyword argument each recurse once per level.
WIDE_SUM = HEAD + "        return torch.relu(" + "+".join(["x"] * 2_000) + ")\n"
DEEP_CONSTANT = HEAD + "        return torch.relu(x) * " + "-" * 900 + "1\n"
DEEP_KEYWORD = HEAD + "        return torch.sum(x, dim=" + "+".join(["1"] * 1_500) + ")\n"

KERNEL = 'extern "C" __global__ __aicore__ void k(GM_ADDR x) { AscendC::Abs(x, x, 8); }\n'

# A MultiKernelBench-style submission that solves the swish task (its op named after it).
SWISH_SUBMISSION = '''project_json_src = """
[{"op": "SwishCustom", "input_desc": [{"name": "x"}], "output_desc": [{"name": "y"}]}]
"""
kernel_src = """
// y = x * sigmoid(x)
extern "C" __global__ __aicore__ void swish_custom(GM_ADDR x, GM_ADDR y) {
  AscendC::Muls(t, xLocal, -1.0f, n); AscendC::Exp(t, t, n); AscendC::Div(yLocal, xLocal, t, n);
}
"""
'''


def _deep_json(levels: int = 100_000) -> str:
    return "[" * levels + "]" * levels


def _one_line_error(done: Any) -> str:
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


# -- PyTorch references -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", [DEEP_SUM, DEEP_NEGATION, WIDE_SUM, DEEP_CONSTANT, DEEP_KEYWORD], ids=lambda t: str(len(t))
)
def test_a_reference_too_deep_to_parse_or_walk_is_read_as_a_description(text: str) -> None:
    sig = read_reference("swish_relu", text)
    assert sig.source == "text"
    assert {"swish", "relu"} <= set(sig.ops)  # what its name and words state is still read
    # The same reference, not hostile, is still read as Python.
    assert read_reference("swish", SWISH).source != "text"


def test_audit_goes_on_past_a_reference_too_deep_to_parse(tmp_path: Path) -> None:
    bench, train = tmp_path / "bench" / "activation", tmp_path / "train"
    bench.mkdir(parents=True)
    train.mkdir()
    (bench / "swish.py").write_text(SWISH, encoding="utf-8")
    (bench / "deep_sum.py").write_text(DEEP_SUM, encoding="utf-8")
    (bench / "deep_negation.py").write_text(DEEP_NEGATION, encoding="utf-8")
    (train / "swish.py").write_text(SWISH_SUBMISSION, encoding="utf-8")
    done = run_curate("audit", str(train), str(tmp_path / "bench"), "--report-dir", str(tmp_path / "r"))
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 1, done.stdout + done.stderr  # the swish leak is found and counted
    assert "of 3 test items" in done.stdout and "1 solve a test task" in done.stdout
    report = json.loads((tmp_path / "r" / "leakage.json").read_text(encoding="utf-8"))
    tasks = {m["task_name"] for m in report["task_matches"]}
    assert "swish" in tasks


def test_dedup_goes_on_past_a_benchmark_reference_too_deep_to_parse(tmp_path: Path) -> None:
    bench, corpus, ws = tmp_path / "bench", tmp_path / "corpus" / "op_kernel", str(tmp_path / "ws")
    bench.mkdir()
    corpus.mkdir(parents=True)
    (bench / "swish.py").write_text(SWISH, encoding="utf-8")
    (bench / "deep.py").write_text(DEEP_SUM, encoding="utf-8")
    (corpus / "swish_custom.cpp").write_text(
        KERNEL.replace("void k(", "void swish_custom("), encoding="utf-8"
    )
    for args in (("ingest", str(bench), "--benchmark", "--name", "b"), ("ingest", str(tmp_path / "corpus"))):
        assert run_curate(*args, "-w", ws).returncode == 0
    done = run_curate("dedup", "-w", ws)
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 0, done.stdout + done.stderr
    assert "dedup: 1 unit:" in done.stdout and "of 2 benchmark items" in done.stdout
    assert "1 name match;" in done.stdout  # the swish task, read from its good reference


# -- submissions ------------------------------------------------------------------------------


def test_a_submission_too_deep_to_parse_is_read_as_plain_code(tmp_path: Path) -> None:
    text = SWISH_SUBMISSION + "scale = " + "-" * 100_000 + "1\n"
    assert read_submission(text) is None
    path = tmp_path / "swish.py"
    path.write_text(text, encoding="utf-8")
    unit = file_unit("train", tmp_path, path)
    assert "swish_custom" in unit.code and unit.op_name == "swish"  # matched as code, named by its file


def test_an_op_definition_too_deep_costs_only_the_op_definition() -> None:
    text = SWISH_SUBMISSION.replace('[{"op"', _deep_json() + ', [{"op"', 1)
    sub = read_submission(text)
    assert sub is not None
    assert (sub.op_name, sub.inputs, sub.outputs) == ("", [], [])
    assert "swish_custom" in sub.fields["kernel_src"]  # the code is all still there


# -- jsonl rows ------------------------------------------------------------------------------


def _jsonl(path: Path) -> Path:
    good = json.dumps({"code": KERNEL, "id": "a"})
    path.write_text(f'{good}\n{{"code": {_deep_json()}, "id": "b"}}\n{good}\n', encoding="utf-8")
    return path


def test_a_training_row_too_deep_is_a_one_line_error_naming_its_line(tmp_path: Path) -> None:
    train = _jsonl(tmp_path / "train.jsonl")  # read shard by shard (the corpus reader)
    bench = tmp_path / "bench"
    bench.mkdir()
    (bench / "swish.py").write_text(SWISH, encoding="utf-8")
    line = _one_line_error(run_curate("audit", str(train), str(bench), "--report-dir", str(tmp_path / "r")))
    assert f"{train}:2: not valid JSON (nested too deep" in line and "one object per line" in line


def test_a_benchmark_row_too_deep_is_a_one_line_error_naming_its_line(tmp_path: Path) -> None:
    table = _jsonl(tmp_path / "test.jsonl")  # read whole (the table reader)
    args = ("ingest", str(table), "--benchmark", "--code-column", "code", "--name", "t")
    line = _one_line_error(run_curate(*args, "-w", str(tmp_path / "ws")))
    assert f"{table}:2: not valid JSON (nested too deep" in line and "one object per line" in line


# -- the teacher -----------------------------------------------------------------------------

FAST = {"backoff_base_s": 0.01, "backoff_max_s": 0.05, "timeout_s": 5.0, "retries": 3}


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    with OpenAIServer() as srv:
        yield srv


def _annotate(server: OpenAIServer, tmp_path: Path, units: int = 2) -> Any:
    config = AnnotateConfig(
        base_url=server.url, model="test-model", concurrency=1, response_format="json_schema", **FAST
    )
    units_ = [make_unit(i) for i in range(units)]
    return annotate_units(units_, config, [StructuralVerifier()], tmp_path / "annotate.sqlite", "k")


def test_a_teacher_body_too_deep_is_a_malformed_answer_and_the_run_goes_on(
    server: OpenAIServer, tmp_path: Path
) -> None:
    server.push(
        Reply(raw_body=_deep_json().encode()), Reply(raw_body=b'{"choices": ' + _deep_json().encode() + b"}")
    )
    summary = _annotate(server, tmp_path)
    assert (summary.accepted, summary.failed, summary.retries) == (2, 0, 2)
    assert server.chat_count() == 4  # each deep body was asked again, like any malformed body


def test_a_teacher_answer_too_deep_is_asked_again_and_the_run_goes_on(
    server: OpenAIServer, tmp_path: Path
) -> None:
    server.push(Reply.ok('{"analysis": ' + _deep_json() + "}"))
    summary = _annotate(server, tmp_path)
    assert (summary.accepted, summary.failed) == (2, 0)
    assert server.chat_count() == 3  # the deep answer failed its format check and was re-asked


def test_a_knowledge_answer_too_deep_is_a_parse_error() -> None:
    with pytest.raises(KnowledgeParseError, match="nested too deep"):
        parse('{"items": ' + _deep_json() + "}")


class _DeepModels(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = _deep_json().encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_a_context_lookup_too_deep_means_the_server_does_not_say() -> None:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _DeepModels)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        assert ask_server(f"http://127.0.0.1:{httpd.server_port}/v1", "k", "m") == (0, "")
    finally:
        httpd.shutdown()
        httpd.server_close()


# -- configuration files (TOML: tomllib recurses too) -----------------------------------------


def test_a_recipe_or_config_file_too_deep_is_a_one_line_error(tmp_path: Path) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text(f"x = {_deep_json()}\n", encoding="utf-8")
    line = _one_line_error(run_curate("run", str(deep)))
    assert f"{deep}: not valid TOML" in line
    args = (
        "annotate",
        "--config",
        str(deep),
        "-w",
        str(tmp_path / "ws"),
        "--base-url",
        "http://127.0.0.1:9/v1",
    )
    line = _one_line_error(run_curate(*args))
    assert f"{deep}: not valid TOML" in line


def test_a_workspace_meta_file_too_deep_is_a_one_line_error(tmp_path: Path) -> None:
    corpus, ws = tmp_path / "corpus" / "op_kernel", tmp_path / "ws"
    corpus.mkdir(parents=True)
    (corpus / "k.cpp").write_text(KERNEL, encoding="utf-8")
    assert run_curate("ingest", str(tmp_path / "corpus"), "-w", str(ws)).returncode == 0
    (ws / "meta.json").write_text(_deep_json(), encoding="utf-8")  # a workspace handed over, tampered
    line = _one_line_error(run_curate("dedup", "-w", str(ws)))
    assert "meta.json is unreadable (nested too deep" in line
