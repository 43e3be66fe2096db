project_json_src='''
[
    {
        "op": "CumsumReverseCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CumsumReverseCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // everything before the scan axis
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);      // scan axis length (last dim)
  TILING_DATA_FIELD_DEF(uint32_t, lanes);       // W: segments scanned in parallel
  TILING_DATA_FIELD_DEF(uint32_t, segLen);      // L: elements per segment
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsRemain);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CumsumReverseCustom, CumsumReverseCustomTilingData)
}
"""

host_operator_src="""
#include "cumsum_reverse_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// tile = LANES * SEG_LEN elements; LANES = 64 floats fills one vector repeat
constexpr uint32_t LANES = 64;
constexpr uint32_t SEG_LEN = 64;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    CumsumReverseCustomTilingData td;
    auto shape = context->GetInputShape(0)->GetStorageShape();
    size_t nd = shape.GetDimNum();
    uint32_t rowLen = static_cast<uint32_t>(shape.GetDim(nd - 1));
    uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / rowLen);

    uint32_t segLen = SEG_LEN;
    // short rows: shrink the segment so a tile is not mostly padding
    while (segLen > 8 && LANES * (segLen / 2) >= rowLen) {
        segLen /= 2;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > rows) cores = rows;
    if (cores == 0) cores = 1;

    td.set_rows(rows);
    td.set_rowLen(rowLen);
    td.set_lanes(LANES);
    td.set_segLen(segLen);
    td.set_rowsPerCore(rows / cores);
    td.set_rowsRemain(rows % cores);
    context->SetBlockDim(cores);

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class CumsumReverseCustom : public OpDef {
public:
    explicit CumsumReverseCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(CumsumReverseCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

/*
 * Reverse (suffix) cumulative sum along the last axis.
 *
 * A row is walked from its end in tiles of W*L elements. Inside a tile the data is
 * viewed as W segments of L consecutive elements. A Gather transposes it to [L][W]
 * so that lane j holds segment j; a backward sweep of L vector adds then gives the
 * in-segment suffix sums for all segments at once. The suffix sums of later segments
 * (and of the tiles already processed to the right) form a per-lane carry that is
 * added with one repeated Add, and a second Gather restores the original order.
 */
class KernelCumsumReverse {
public:
    __aicore__ inline KernelCumsumReverse() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t rowLen, uint32_t lanes,
                                uint32_t segLen, uint32_t rowsPerCore, uint32_t rowsRemain)
    {
        rowLen_ = rowLen;
        W = lanes;
        L = segLen;
        tile = W * L;

        uint32_t bid = GetBlockIdx();
        myRows = rowsPerCore + (bid < rowsRemain ? 1 : 0);
        rowStart = bid * rowsPerCore + (bid < rowsRemain ? bid : rowsRemain);

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(inQ, BUFFER_NUM, tile * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tile * sizeof(float));
        pipe.InitBuffer(trBuf, tile * sizeof(float));
        pipe.InitBuffer(fwdOffBuf, tile * sizeof(uint32_t));
        pipe.InitBuffer(invOffBuf, tile * sizeof(uint32_t));
        pipe.InitBuffer(carryBuf, W * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        BuildOffsets();
        uint32_t tiles = (rowLen_ + tile - 1) / tile;
        for (uint32_t r = 0; r < myRows; ++r) {
            uint64_t rowBase = static_cast<uint64_t>(rowStart + r) * rowLen_;
            float carryIn = 0.0f;
            // right-most tile first
            for (uint32_t t = 0; t < tiles; ++t) {
                int64_t end = static_cast<int64_t>(rowLen_) - static_cast<int64_t>(t) * tile;
                int64_t begin = end - tile;
                if (begin < 0) begin = 0;
                uint32_t len = static_cast<uint32_t>(end - begin);
                uint64_t off = rowBase + static_cast<uint64_t>(begin);
                CopyIn(off, len);
                carryIn = Compute(len, carryIn);
                CopyOut(off, len);
            }
        }
    }

private:
    __aicore__ inline void BuildOffsets()
    {
        LocalTensor<uint32_t> fwd = fwdOffBuf.Get<uint32_t>();
        LocalTensor<uint32_t> inv = invOffBuf.Get<uint32_t>();
        for (uint32_t j = 0; j < W; ++j) {
            for (uint32_t i = 0; i < L; ++i) {
                // transposed[i][j] <- x[j*L + i]
                fwd.SetValue(i * W + j, (j * L + i) * sizeof(float));
                // out[j*L + i] <- transposed[i][j]
                inv.SetValue(j * L + i, (i * W + j) * sizeof(float));
            }
        }
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<float> xl = inQ.AllocTensor<float>();
        uint32_t lenAlign = (len + 7) / 8 * 8;
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(lenAlign - len), 0.0f};
        DataCopyPad(xl, xGm[off], cp, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline float Compute(uint32_t len, float carryIn)
    {
        LocalTensor<float> xl = inQ.DeQue<float>();
        LocalTensor<float> tr = trBuf.Get<float>();
        LocalTensor<float> carry = carryBuf.Get<float>();
        LocalTensor<uint32_t> fwd = fwdOffBuf.Get<uint32_t>();
        LocalTensor<uint32_t> inv = invOffBuf.Get<uint32_t>();

        // a partial tile (row head) is zero padded at its end: zeros do not change
        // any suffix sum of the real elements in front of them
        uint32_t lenAlign = (len + 7) / 8 * 8;
        if (lenAlign < tile) {
            Duplicate(xl[lenAlign], 0.0f, tile - lenAlign);
        }

        Gather(tr, xl, fwd, (uint32_t)0, tile);
        inQ.FreeTensor(xl);

        // in-segment suffix sums, all W lanes at once
        for (int32_t i = static_cast<int32_t>(L) - 2; i >= 0; --i) {
            Add(tr[i * W], tr[i * W], tr[(i + 1) * W], W);
        }

        // tr[0..W) now holds the total of each segment -> exclusive suffix over lanes
        event_t vToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);
        float running = carryIn;
        for (int32_t j = static_cast<int32_t>(W) - 1; j >= 0; --j) {
            carry.SetValue(j, running);
            running += tr.GetValue(j);
        }
        event_t sToV = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sToV);
        WaitFlag<HardEvent::S_V>(sToV);

        // tr[i][:] += carry[:] for every row i: one instruction, src1 repeat stride 0
        BinaryRepeatParams rp(1, 1, 1, 8, 8, 0);
        Add(tr, tr, carry, static_cast<uint64_t>(W), static_cast<uint8_t>(L), rp);

        LocalTensor<float> yl = outQ.AllocTensor<float>();
        Gather(yl, tr, inv, (uint32_t)0, tile);
        outQ.EnQue(yl);
        return running;
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        LocalTensor<float> yl = outQ.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[off], yl, cp);
        outQ.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<QuePosition::VECCALC> trBuf, fwdOffBuf, invOffBuf, carryBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t rowLen_, W, L, tile;
    uint32_t myRows, rowStart;
};

extern "C" __global__ __aicore__ void cumsum_reverse_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelCumsumReverse op;
    op.Init(x, y, td.rows, td.rowLen, td.lanes, td.segLen, td.rowsPerCore, td.rowsRemain);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// flip -> cumsum -> flip along `dim`; the kernel scans the last axis, so other
// dims are moved there first
at::Tensor cumsum_reverse_custom_impl_npu(const at::Tensor& x, int64_t dim)
{
    int64_t nd = x.dim();
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim >= 0 && dim < nd, "dim out of range");
    bool moved = dim != nd - 1;
    at::Tensor src = moved ? x.movedim(dim, -1).contiguous() : x.contiguous();
    at::Tensor result = at::empty_like(src);
    EXEC_NPU_CMD(aclnnCumsumReverseCustom, src, result);
    if (moved) {
        result = result.movedim(-1, dim).contiguous();
    }
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("cumsum_reverse_custom", &cumsum_reverse_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("cumsum_reverse_custom", &cumsum_reverse_custom_impl_npu, "reverse cumulative sum");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return custom_ops_lib.cumsum_reverse_custom(x, self.dim)
'''
