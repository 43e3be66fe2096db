"""The audit's fast paths give exactly what the plain computations give.

A 1M-row audit runs these on every row, so each replaced a simpler computation; each test here
holds the fast path to the simple one on inputs chosen to reach its edges."""

from __future__ import annotations

import random

import numpy as np

from curate.code_blocks import extract_blocks
from dedup.leakage import match_benchmark
from dedup.shingles import build_shingle_sets, vocabulary_of
from dedup.tasks import _may_match, substring_screen, task_index
from parsers.torchref import read_reference
from schemas.cpp import mask_comments
from tests.test_dedup_helpers import elementwise_kernel, unrelated_kernel


def _documents(rng: random.Random, n: int) -> list[str]:
    lines = [
        "AscendC::LocalTensor<half> x = inQueue.DeQue<half>();",
        "AscendC::Add(z, x, y, tileLength);",
        "for (int32_t i = 0; i < loopCount; i++) {",
        "CopyIn(i); Compute(i); CopyOut(i);",
        "}",
        "pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(half));",
        "uint32_t blockIdx = AscendC::GetBlockIdx();",
    ]
    return ["\n".join(rng.choice(lines) for _ in range(rng.randint(0, 12))) for _ in range(n)]


def test_a_probe_against_the_benchmark_vocabulary_scores_every_pair_as_the_full_sets_do() -> None:
    rng = random.Random(5)
    bench = [elementwise_kernel("Add"), unrelated_kernel(), *_documents(rng, 6), ""]
    corpus = [
        *_documents(rng, 300),
        elementwise_kernel("Add") + "\nint tail = 1;",
        bench[2][: len(bench[2]) // 2],
    ]
    bench_sets = build_shingle_sets(bench)
    full = build_shingle_sets(corpus)
    probe = build_shingle_sets(corpus, vocabulary=vocabulary_of(bench))

    assert len(probe.fps) < len(full.fps)  # it keeps only the benchmark's shingles ...
    assert np.array_equal(probe.sizes(), full.sizes())  # ... and counts every distinct one
    assert probe.text_hashes == full.text_hashes

    def scored(corpus_sets):  # type: ignore[no-untyped-def]
        pairs = match_benchmark(corpus_sets, bench_sets, 0.5, 0.6)
        return sorted((p.corpus, p.bench, p.overlap, p.jaccard, p.containment) for p in pairs)

    expected = scored(full)
    assert expected and scored(probe) == expected


def test_substring_screen_finds_a_word_exactly_when_the_text_holds_one() -> None:
    rng = random.Random(11)
    words = ["ab", "abc", "b", "relu", "re", "round", "x", "a.b"]  # prefixes of each other, a regex char
    screen = substring_screen(words)
    for _ in range(5000):
        text = "".join(rng.choice("abcrelundox.") for _ in range(rng.randint(0, 14)))
        assert (screen.search(text) is not None) == any(w in text for w in words), text
    assert substring_screen([]).search("anything") is None


def test_the_name_screen_lets_every_spelling_of_a_task_name_through() -> None:
    reference = "import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return torch.tanh(x)\n"
    index = task_index([read_reference("conv2d_min_tanh", reference)])
    body = "x = 1;"  # no strong op word: only a name can let the row through
    for name in ("Conv2dMinTanhCustom", "conv2d_min_tanh_custom", "Conv2dMinTanhV2", "conv2dMinTanhKernel"):
        assert _may_match(body, index, ("", name)), name
    assert not _may_match(body, index, ("", "Conv2dMaxTanhCustom"))
    assert not _may_match(body, index, ("", "k17"))


def test_fenced_blocks_at_their_edges() -> None:
    text = (
        "intro\n"
        "   ```cpp\nint a;\n  ```  \r\n"  # indented opening; closing with spaces and a CR
        "````\n```\nnested fence text\n`````\n"  # a shorter fence inside; a longer one closes
        "    ```\nindented four: not a fence\n"
        "~~~\n~~~\n"  # an empty block
        "```python\nunclosed = True\n"  # runs to the end
    )
    assert extract_blocks(text, "fenced") == ["int a;", "```\nnested fence text", "unclosed = True\n"]
    assert extract_blocks("no fence at all", "auto") == ["no fence at all"]


def test_text_without_a_slash_is_its_own_comment_free_form() -> None:
    code = 'char s[] = "a \\" quote"; int x = 1\'000;'
    assert mask_comments(code) is code
    assert mask_comments(code + " // note") == code + "        "
