"""`curate run RECIPE`: a bad recipe is one line before anything runs; a fixture recipe runs every
stage (real libclang, a real loopback teacher, real parquet tables); a second run skips every
step; a changed source re-runs its ingest only where it must; a killed run resumes; git sources
come from a mirror at their pinned commit."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from curate.recipe import RecipeError, load_recipe
from tests.conftest import EXAMPLES, REPO_ROOT, run_curate
from tests.servers.openai_server import OpenAIServer, Reply

GOOD_HEAD = """
[recipe]
name = "t"
workspace = "ws"

[[source]]
name = "corpus"
path = "corpus"
"""


def _recipe(tmp_path: Path, text: str) -> Path:
    (tmp_path / "corpus").mkdir(exist_ok=True)
    path = tmp_path / "r.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (GOOD_HEAD + "\n[dedup]\nthreshhold = 0.5\n", "r.toml:11: [dedup] threshhold: unknown key"),
        (GOOD_HEAD + '\n[dedup]\nthreshold = "high"\n', "r.toml:11: [dedup] threshold: expected a number"),
        (GOOD_HEAD + "\n[dedup]\nthreshold = 2.0\n", "[dedup] threshold: threshold must be in (0, 1]"),
        (GOOD_HEAD + "\n[annotate]\nlimit = true\n", "[annotate] limit: expected an integer, got True"),
        (GOOD_HEAD.replace('path = "corpus"', 'path = "nowhere"'), "r.toml:8: [[source]] corpus path:"),
        (
            GOOD_HEAD.replace('path = "corpus"', 'git = "https://example.org/a/b"'),
            "corpus commit: a git source",
        ),
        (GOOD_HEAD.replace('name = "corpus"\n', ""), "[[source]] #1 name: missing"),
        (GOOD_HEAD + '\n[[source]]\nname = "corpus"\npath = "corpus"\n', "two inputs of this kind"),
        (GOOD_HEAD.replace("[[source]]", "[[sources]]"), "sources: unknown table"),
        (GOOD_HEAD + "\n[push]\nprivate = true\n", "[push]: say where to publish"),
        (
            GOOD_HEAD + '\n[[source]]\nname = "x"\npath = "corpus"\nlicence = "MIT"\n',
            "x licence: unknown key",
        ),
        ("[recipe\n", "not valid TOML"),
    ],
)
def test_a_bad_recipe_is_named_by_its_key(tmp_path: Path, text: str, says: str) -> None:
    with pytest.raises(RecipeError) as err:
        load_recipe(_recipe(tmp_path, text))
    assert says in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        ("\n[verify]\nsoc = 5\n", "[verify] soc: expected a string, got 5"),
        ('\n[[benchmark]]\nname = "b"\npath = "missing-bench"\n', "[[benchmark]] b path"),
        ("\n[ingest]\njobs = -1\n", "[ingest] jobs: jobs must be >= 0"),
    ],
)
def test_the_cli_refuses_a_bad_recipe_in_one_line_before_anything_runs(
    tmp_path: Path, extra: str, says: str
) -> None:
    done = run_curate("run", str(_recipe(tmp_path, GOOD_HEAD + extra)), cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], done.stderr
    assert not (tmp_path / "ws").exists()  # nothing ran, not even the workspace was made


def _fixture_recipe(tmp_path: Path, url: str, limit: int = 2) -> Path:
    """Two sources (one a subfolder), the example benchmark and docs, a loopback teacher, a
    knowledge step and a folder to publish to."""
    shutil.copytree(EXAMPLES / "corpus" / "samples", tmp_path / "samples")
    text = f"""
[recipe]
name = "fixture"
workspace = "ws"

[[source]]
name = "samples"
path = "samples"
license = "Apache-2.0"

[[source]]
name = "vendor"
path = "{EXAMPLES / "corpus"}"
subdir = "vendor-ops"
license = "CANN-2.0"

[[benchmark]]
name = "bench"
path = "{EXAMPLES / "benchmark"}"

[[docs]]
name = "docs"
path = "{EXAMPLES / "docs"}"

[ingest]
jobs = 1

[annotate]
base_url = "{url}"
model = "scripted"
concurrency = 1
limit = {limit}
max_rounds = 0

[verify]
cann = false

[knowledge]
limit = 1

[push]
to_dir = "published"
"""
    path = tmp_path / "fixture.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _run_json(recipe: Path, *args: str) -> dict[str, str]:
    done = run_curate("run", str(recipe), "--json", *args, cwd=recipe.parent)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout.strip().splitlines()[-1])
    return {step["step"]: step["status"] for step in record["steps"]}


STEPS = [
    "ingest:samples",
    "ingest:vendor",
    "benchmark:bench",
    "docs:docs",
    "dedup",
    "annotate",
    "knowledge",
    "verify",
    "build",
    "figures",
    "push",
    "report",
]


def test_a_recipe_runs_every_stage_then_skips_what_is_up_to_date(tmp_path: Path) -> None:
    with OpenAIServer() as server:
        recipe = _fixture_recipe(tmp_path, server.url)
        first = _run_json(recipe)
        assert list(first) == STEPS and set(first.values()) == {"ran"}
        asked = server.chat_count()
        assert asked >= 2  # the teacher was asked for the two units and the knowledge chunk
        ws = tmp_path / "ws"
        for table in ("units", "benchmark", "docs", "decisions", "annotations", "knowledge", "dataset"):
            assert (ws / f"{table}.parquet").is_file(), table
        assert (tmp_path / "published" / "README.md").is_file() and (ws / "reports" / "report.html").is_file()
        units = pq.read_table(ws / "units.parquet", columns=["source"]).to_pylist()
        assert {u["source"] for u in units} == {"samples", "vendor"}

        second = _run_json(recipe)
        assert set(second.values()) == {"up to date"}, second
        assert server.chat_count() == asked  # the teacher was not asked again

        # A changed source: its ingest runs again, the other sources' do not.
        kernel = next((tmp_path / "samples").rglob("*.cpp"))
        kernel.write_text(kernel.read_text() + "\n// a changed line\n")
        third = _run_json(recipe)
        assert third["ingest:samples"] == "ran"
        assert third["ingest:vendor"] == third["benchmark:bench"] == third["docs:docs"] == "up to date"
        assert third["dedup"] == "ran" and third["report"] == "ran"

        # A table changed behind the recipe's back is rebuilt by the step that writes it.
        (ws / "dataset.parquet").unlink()
        fourth = _run_json(recipe)
        assert fourth["build"] == "ran" and fourth["dedup"] == "up to date"


def test_a_killed_run_resumes_at_the_step_it_was_in(tmp_path: Path) -> None:
    with OpenAIServer() as server:
        # the format probe and the first unit are answered, then the teacher hangs: the run is
        # killed inside annotate
        server.script = lambda request: Reply.hang(120) if request.index >= 2 else None
        recipe = _fixture_recipe(tmp_path, server.url, limit=3)
        env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
        proc = subprocess.Popen(
            [sys.executable, "-m", "curate.cli", "run", str(recipe), "--json"],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 240
        while server.chat_count() < 3 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
        assert server.chat_count() >= 3, proc.communicate(timeout=30)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 143 and "resumes after them" in err, err
        state = json.loads((tmp_path / "ws" / "recipe-run.json").read_text())
        assert "dedup" in state["steps"] and "annotate" not in state["steps"]

        server.script = None  # the teacher answers again
        done = run_curate("run", str(recipe), "--json", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        steps = {s["step"]: s for s in json.loads(done.stdout.strip().splitlines()[-1])["steps"]}
        assert steps["ingest:samples"]["status"] == steps["dedup"]["status"] == "up to date"
        assert steps["annotate"]["status"] == "ran"
        cached = int(steps["annotate"]["line"].split(" from the journal")[0].rsplit(" ", 1)[1])
        assert cached >= 1, steps["annotate"]["line"]  # the answer received before the kill


def _git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_a_git_source_is_read_from_a_mirror_at_its_commit(tmp_path: Path) -> None:
    repo = tmp_path / "upstream"
    shutil.copytree(EXAMPLES / "corpus" / "samples", repo)
    _git("init", "-q", cwd=repo)
    _git("-c", "user.name=t", "-c", "user.email=t@t", "add", ".", cwd=repo)
    _git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one", cwd=repo)
    commit = _git("rev-parse", "HEAD", cwd=repo)
    mirror = tmp_path / "mirror"
    subprocess.run(
        ["git", "clone", "-q", "--bare", str(repo), str(mirror / "acme+kernels" / "repo")], check=True
    )
    text = f"""
[recipe]
name = "git"
workspace = "ws"

[[source]]
name = "kernels"
git = "https://github.com/acme/kernels"
commit = "{commit}"
"""
    recipe = tmp_path / "git.toml"
    recipe.write_text(text, encoding="utf-8")
    done = run_curate("run", str(recipe), "--until", "ingest:kernels", "--mirror", str(mirror), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = pq.read_table(tmp_path / "ws" / "units.parquet", columns=["origin_url", "commit"]).to_pylist()
    assert rows and {(r["origin_url"], r["commit"]) for r in rows} == {
        ("https://github.com/acme/kernels", commit)
    }

    wrong = text.replace(commit, "0" * 40)
    recipe.write_text(wrong, encoding="utf-8")
    done = run_curate("run", str(recipe), "--until", "ingest:kernels", "--mirror", str(mirror), cwd=tmp_path)
    last = done.stderr.strip().splitlines()[-1]  # after the step's progress line
    assert done.returncode == 2 and last.startswith("error: source kernels: could not fetch"), done.stderr
    assert "https://github.com/acme/kernels" in last and "Traceback" not in done.stderr


def test_the_shipped_recipes_are_valid() -> None:
    demo = load_recipe(REPO_ROOT / "recipes" / "demo.toml")
    assert demo.annotate.teacher == "local" and demo.push is not None
    public = load_recipe(REPO_ROOT / "recipes" / "ascend-cot.toml")
    assert len(public.sources) >= 10 and all(s.git and s.commit for s in public.sources)
    assert public.benchmarks and all(s.git and s.commit for s in public.benchmarks)
