"""Index tasks whose renamed rows keep no op word: an index copy, an index add, a scatter and a
scatter add all write through an index tensor. A row shows the write (its formula, its code),
whether it adds there, and the rank of the index it takes; those place it among the siblings.
References and rows are written for these tests."""

from __future__ import annotations

from dedup.idioms import handwritten_ops
from dedup.tasks import candidate_facts, match_document
from dedup.ties import adds_through_an_index, index_rank, structurally_apart
from schemas.tasks import CandidateFacts
from tests.test_tasklevel_scoring import _index, _task


def _indexed(call: str, index_shape: str) -> str:
    return f"""import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, idx, src):
        return {call}

def get_inputs():
    x = torch.zeros(64, 512)
    idx = torch.randint(0, 64, {index_shape})
    src = torch.rand(32, 512)
    return [x, idx, src]

def get_init_inputs():
    return []
"""


INDEX_TASKS = {
    "index_add": _indexed("x.index_add(0, idx, src)", "(32,)"),
    "index_copy": _indexed("x.index_copy(0, idx, src)", "(32,)"),
    "scatter": _indexed("x.scatter(1, idx, src)", "(32, 512)"),
    "scatter_add": _indexed("x.scatter_add(1, idx, src)", "(32, 512)"),
}

# A renamed row: no op word, an op definition of three tensor inputs, an index among them.
ROW = """
// y = x; then y[indices[i], :] {assign} values[i, :] for every i
class KernelZulu {{
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR indices, GM_ADDR values, GM_ADDR y) {{}}
  __aicore__ inline void Row(uint32_t i) {{
    int64_t r = idxLocal.GetValue(i);
    DataCopyPad(rowLocal, yGm[r * cols], params, pad);
    {step}
    DataCopyPad(yGm[r * cols], rowLocal, params);
  }}
}};
class OpZulu : public OpDef {{
  explicit OpZulu(const char* name) : OpDef(name) {{
    this->Input("x"); this->Input("indices"); this->Input("values"); this->Output("y");
  }}
}};
"""
ADDING = ROW.format(assign="+=", step="Add(rowLocal, rowLocal, valueLocal, cols);")
STORING = ROW.format(assign="=", step="DataCopy(rowLocal, valueLocal, cols);")


def test_a_write_or_a_read_through_an_index_tensor_shows_a_scatter_or_a_gather() -> None:
    given = " GM_ADDR indices "
    assert [op for op, _, _ in handwritten_ops("// y[indices[i], :] += v[i, :]" + given)] == ["scatter"]
    assert [op for op, _, _ in handwritten_ops("out[j] = table[indices[j]];" + given)] == ["gather"]
    # a comparison reads no index and writes none; nor does a row given no index tensor
    assert handwritten_ops("if (x[indices[i]] == 0) {}" + given) == []
    assert handwritten_ops("y[indices[i]] = v[i];") == []


def test_a_scatter_shown_claims_the_index_copy_and_add_a_renamed_row_does_with_it() -> None:
    facts, _ = candidate_facts(STORING)
    assert {"scatter", "index_copy", "index_add"} <= set(facts.ops)
    assert {"index_copy", "index_add"} <= set(facts.inferred)  # not extra work against a scatter


def test_whether_a_row_adds_through_its_index_keeps_the_siblings_that_add() -> None:
    assert adds_through_an_index(ADDING) is True
    assert adds_through_an_index(STORING) is False
    assert (
        adds_through_an_index(ADDING.replace("GM_ADDR indices", "GM_ADDR pos").replace('"indices"', '"pos"'))
        is None
    )
    index = _index(INDEX_TASKS)
    every = list(range(len(index.signatures)))

    def kept(row: str) -> set[str]:
        return {index.signatures[t].task for t in structurally_apart(index, every, row, CandidateFacts())}

    assert kept(ADDING) == {"index_add", "scatter_add"}
    assert kept(STORING) == {"index_copy", "scatter"}


def test_the_rank_a_row_checks_its_index_has_places_it_on_the_sibling_taking_that_index() -> None:
    assert index_rank("TORCH_CHECK(indices.dim() == 1);") == 1
    assert index_rank("int64_t n = index.size(1);") == 2
    assert index_rank("indices.dim() == 1; idx.size(1)") is None  # two answers: none
    index = _index(INDEX_TASKS)
    for rank, task in ((1, "index_add"), (2, "scatter_add")):
        match, _ = match_document(ADDING + f"\nTORCH_CHECK(indices.dim() == {rank});\n", index)
        assert match is not None and _task(index, match) == task and match.tied == []
