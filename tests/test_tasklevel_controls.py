"""Kernels of no benchmark task whose words name ops in another sense: a communication library's
all-gather, AscendC's mask mode, an FFT's normalisation, an LLM server's token pool. Fixtures
are written for these tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from dedup.tasks import candidate_facts, match_document
from schemas.taskops import STRONG, strength
from tests.test_tasklevel_scoring import _index
from tests.test_tasklevel_structure import BYSTANDER, MATMUL_ROW, TRANSPOSED

GATHER = """import torch
class Model(torch.nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim
    def forward(self, x, index):
        return torch.gather(x, self.dim, index)
def get_inputs():
    return [torch.rand(128, 4096), torch.randint(0, 4096, (128, 64))]
"""
L2_NORM = """import torch
class Model(torch.nn.Module):
    def forward(self, x):
        return x / torch.norm(x, p=2, dim=1, keepdim=True)
def get_inputs():
    return [torch.rand(128, 4096)]
"""

RING = """
// Ring all-gather: each rank forwards the shard it received to its right neighbour.
__aicore__ inline void Step(uint32_t gatherQueIdx, uint32_t rank) {
    LocalTensor<half> shard = gatherQue.DeQue<half>();
    DataCopy(peerGm[rank * shardLen], shard, shardLen);
}
extern "C" __global__ __aicore__ void ring_all_gather(GM_ADDR in, GM_ADDR out) { Step(0, 0); }
"""
FFT = """
// Radix-2 stages; the result is scaled by the chosen norm (backward, forward or ortho).
__aicore__ inline void Stage(uint32_t norm) {
    SetMaskNorm();
    Mul(re, re, twiddle, len);
    Sub(im, im, tmp, len);
}
"""


@pytest.mark.parametrize(
    ("code", "absent"),
    [
        ("HcclAllGather(send, recv, count); ReduceScatterV2(buf, n);", {"gather", "scatter"}),
        (
            "SetMaskNorm(); SetAtomicAdd<float>(); TBufPool<TPosition::VECCALC> bufPool;",
            {"norm", "pool", "add"},
        ),
        ("uint32_t tokenPoolIdx = reqPoolIndices[i]; float m = Max(a, b);", {"pool", "max_pool"}),
        # A position encoding added to queries and keys is no embedding lookup.
        ("class RotaryPositionEmbeddingAB {};  // rotary_position_embedding of q, k; pos_emb", {"embedding"}),
        # A rounding mode is no upsample.
        ("// fp16 conversion: round-to-nearest-even; rounding to nearest", {"interpolate"}),
        # A header included as boilerplate is not a computation the file does.
        ('#include "kernel_operator.h"\n#include "lib/matmul_intf.h"\nAdd(y, x, b, n);', {"matmul"}),
        # A collective communication library's own arguments (HCCL, LCCL: `CCLGatherArgs`).
        (
            "struct CCLGatherArgs { GM_ADDR peer[8]; }; int LoadMTE(HcclDataType t, CCLGatherArgs &a);",
            {"gather"},
        ),
    ],
)
def test_phrases_of_other_trades_show_no_op(code: str, absent: set[str]) -> None:
    facts, _ = candidate_facts(code)
    assert not absent & facts.ops.keys(), facts.ops


def test_a_communication_kernel_is_no_gather() -> None:
    facts, _ = candidate_facts(RING)
    assert "gather" not in facts.ops, "a collective's step was read as a gather"
    assert match_document(RING, _index({"gather": GATHER}))[0] is None
    # The same queue without the collective, in a kernel given an index tensor, is a gather's
    # word again.
    local = RING.replace("all-gather", "copy").replace("all_gather", "copy")
    assert "gather" in candidate_facts(local.replace("GM_ADDR in", "GM_ADDR index"))[0].ops


def test_a_collective_named_after_a_task_is_not_that_task() -> None:
    # A communication library's gather op (the unit's op name, from its folder) is its
    # collective; the same name on host code of no collective is the task's.
    host = """
// Gather: every rank sends its shard to the root over HCCL.
int GatherOp::Run(HcclComm comm, void *send, void *recv, uint64_t count) { return Launch(comm); }
"""
    index = _index({"gather": GATHER})
    assert match_document(host, index, ("gather_op", ""))[0] is None
    local = host.replace("over HCCL", "along dim 1").replace("HcclComm comm", "int dim")
    match = match_document(local, index, ("gather_op", ""))[0]
    assert match is not None and match.layer == "identity"


def test_a_lane_shuffle_by_vector_gather_is_no_gather() -> None:
    # AscendC's `Gather` moves lanes by offsets the kernel computes (a transpose, a shift): a
    # renamed cumsum that shifts by Gather is not a solution of torch's gather, which reads an
    # index tensor it is given. Fresh rows: three cumsums and an upsample had tied with `gather`.
    scan = """
extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x, GM_ADDR y) {
  // strides 1, 2, 4: gather the shifted copy, then add it
  AscendC::Gather(g, a, offsets[k * tileLength], 0, len);
  AscendC::Add(a, a, g, len);
}
"""
    assert "gather" not in candidate_facts(scan)[0].ops
    assert match_document(scan, _index({"gather": GATHER}))[0] is None
    given = scan.replace("GM_ADDR x,", "GM_ADDR x, GM_ADDR index,")
    assert "gather" in candidate_facts(given)[0].ops
    # Its `Scatter` likewise: a solver writing frames back to offsets it computes.
    frames = scan.replace("gather the shifted copy", "scatter the frame back").replace(
        "Gather(g", "Scatter(g"
    )
    assert "scatter" not in candidate_facts(frames)[0].ops
    assert "scatter" in candidate_facts(frames.replace("GM_ADDR x,", "GM_ADDR x, GM_ADDR indices,"))[0].ops


def test_a_bare_norm_is_a_norm_only_beside_its_computation() -> None:
    index = _index({"l2_norm": L2_NORM})
    assert "norm" not in candidate_facts(FFT)[0].ops
    assert match_document(FFT, index)[0] is None
    computed = FFT.replace(
        "Mul(re, re, twiddle, len);", "Mul(sq, x, x, len); ReduceSum(s, sq, tmp, len); Sqrt(s, s, 1);"
    )
    assert "norm" in candidate_facts(computed)[0].ops


# A batched DFT as cube products: each batch of signals times the DFT matrix (written here).
DFT_AS_PRODUCTS = """
// Batched 1-D FFT of length n: every batch of rows is multiplied by the DFT matrix
// (real and imaginary twiddle planes) on the cube unit.
extern "C" __global__ __aicore__ void fft1d_batched(GM_ADDR x, GM_ADDR twiddle, GM_ADDR y) {
    for (uint32_t batch_id = 0; batch_id < batch_num; ++batch_id) {
        MmadParams mmadParams; mmadParams.m = rows; mmadParams.n = n; mmadParams.k = n;
        Mmad(cLocal, xLocal, twiddleLocal, mmadParams);  // batched matrix product
    }
}
"""
MATMUL = """import torch
class Model(torch.nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)
def get_inputs():
    return [torch.rand(8, 16, 256, 512), torch.rand(512, 768)]
"""
SCATTER = GATHER.replace("torch.gather(x, self.dim, index)", "torch.scatter(x, self.dim, index, x)")
CONTROLS = Path(__file__).parent / "fixtures" / "controls"


def test_kernels_of_no_benchmark_task_are_placed_on_none() -> None:
    # Block ciphers, hashes, a checksum, a random fill and collectives (written for this test):
    # "the linear transform L" of SM4 once placed every one of them on a matmul task, a ring
    # all-gather on `gather`. Read one file at a time and all together (as a unit with its folder).
    index = _index(
        {
            "gather": GATHER,
            "scatter": SCATTER,
            "l2_norm": L2_NORM,
            "four_dim_tensor_matrix_multiplication": MATMUL,
        }
    )
    kernels = sorted(CONTROLS.glob("*.cpp"))
    assert len(kernels) >= 7
    for path in kernels:
        match, _ = match_document(path.read_text(encoding="utf-8"), index)
        assert match is None, (path.name, index.signatures[match.item].task, match.matched_ops)
    folder = "\n".join(path.read_text(encoding="utf-8") for path in kernels)
    assert match_document(folder, index)[0] is None
    shown = candidate_facts(folder)[0].ops
    assert not {op for op in shown if strength(op) == STRONG} - {"collective"}, shown
    assert "matmul" in candidate_facts("self.proj = nn.Linear(d, d)")[0].ops, (
        "a Linear layer is still a matmul"
    )


def test_a_fourier_transform_s_matrix_products_solve_no_matmul_task() -> None:
    # ops-fft read as ingested units: 2 of 11 (batched DFT products on the cube) had been placed
    # on matrix-product tasks. The same products with no Fourier word are a matmul still.
    index = _index({"four_dim_tensor_matrix_multiplication": MATMUL, "batched_matrix_multiplication": MATMUL})
    assert "matmul" not in candidate_facts(DFT_AS_PRODUCTS)[0].ops
    assert match_document(DFT_AS_PRODUCTS, index)[0] is None
    plain = DFT_AS_PRODUCTS.replace("FFT", "product").replace("fft1d", "bmm").replace("DFT", "weight")
    plain = plain.replace("twiddle", "w")
    assert "matmul" in candidate_facts(plain)[0].ops
    # "offTile" holds the letters of an FFT: not a Fourier word.
    assert "matmul" in candidate_facts(plain.replace("rows;", "offTile;"))[0].ops


def test_collective_communication_is_extra_work_against_every_task() -> None:
    # A matmul fused with an all-gather (a compute-and-communicate kernel) does more than the
    # single-device matmul task; the same matmul alone does not.
    index = _index({**TRANSPOSED, **BYSTANDER})
    alone, facts = match_document(MATMUL_ROW, index)
    assert alone is not None and "collective" not in facts.ops
    gathered = MATMUL_ROW + "\n  HcclAllGather(sendBuf, recvBuf, count, HCCL_DATA_TYPE_FP32, comm);\n"
    fused, facts = match_document(gathered, index)
    assert "collective" in facts.ops
    assert fused is None or fused.score < alone.score, "the collective was not counted as extra work"
