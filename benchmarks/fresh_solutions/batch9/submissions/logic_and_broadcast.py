project_json_src='''
[
    {
        "op": "BroadcastConjunctionCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "a",
                "param_type": "required",
                "format": ["ND", "ND", "ND"],
                "type": ["bool", "int8", "uint8"]
            },
            {
                "name": "b",
                "param_type": "required",
                "format": ["ND", "ND", "ND"],
                "type": ["bool", "int8", "uint8"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND", "ND"],
                "type": ["bool", "int8", "uint8"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BroadcastConjunctionTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);        // product of dims before b's span
  TILING_DATA_FIELD_DEF(uint32_t, mid);          // number of elements in b
  TILING_DATA_FIELD_DEF(uint32_t, inner);        // contiguous run sharing one b value
  TILING_DATA_FIELD_DEF(uint32_t, innerPitch);   // inner rounded up to 32 bytes
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraRows);
  TILING_DATA_FIELD_DEF(uint32_t, bInUb);        // 1: whole b staged in UB
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BroadcastConjunctionCustom, BroadcastConjunctionTilingData)
}
"""

host_operator_src="""
#include "broadcast_conjunction_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BLOCK = 32;
constexpr uint32_t B_UB_LIMIT = 32 * 1024;

struct Span3 {
    uint64_t outer = 1;
    uint64_t mid = 1;
    uint64_t inner = 1;
};

// y has a's shape; b (right-aligned) must be 1 everywhere outside one contiguous run of dims
bool Decompose(const gert::Shape &as, const gert::Shape &bs, Span3 &sp)
{
    size_t ra = as.GetDimNum();
    size_t rb = bs.GetDimNum();
    if (rb > ra) {
        return false;
    }
    int64_t first = -1;
    int64_t last = -1;
    for (size_t i = 0; i < ra; ++i) {
        int64_t bd = (i + rb >= ra) ? bs.GetDim(i + rb - ra) : 1;
        if (bd != 1) {
            if (bd != as.GetDim(i)) {
                return false;
            }
            if (first < 0) {
                first = static_cast<int64_t>(i);
            }
            last = static_cast<int64_t>(i);
        }
    }
    if (first < 0) {
        first = static_cast<int64_t>(ra);
        last = static_cast<int64_t>(ra) - 1;
    }
    for (int64_t i = 0; i < static_cast<int64_t>(ra); ++i) {
        int64_t d = as.GetDim(i);
        if (i < first) {
            sp.outer *= d;
        } else if (i <= last) {
            int64_t bd = (i + static_cast<int64_t>(rb) >= static_cast<int64_t>(ra)) ? bs.GetDim(i + rb - ra) : 1;
            if (bd != d) {
                return false;      // b has a 1 inside its span: not a single run
            }
            sp.mid *= d;
        } else {
            sp.inner *= d;
        }
    }
    return true;
}
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    Span3 sp;
    if (!Decompose(context->GetInputShape(0)->GetStorageShape(), context->GetInputShape(1)->GetStorageShape(), sp)) {
        return ge::GRAPH_FAILED;
    }
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();

    uint32_t pitch = static_cast<uint32_t>((sp.inner + BLOCK - 1) / BLOCK * BLOCK);
    bool bInUb = sp.mid <= B_UB_LIMIT;
    uint64_t avail = ub - 8 * 1024 - (bInUb ? (sp.mid + BLOCK) : 0);
    // a queue x2, y queue x2, mask tile x1 (all 1 byte per element)
    uint64_t rowsFit = avail / (5ULL * pitch);
    uint64_t rows = sp.outer * sp.mid;
    uint32_t used = rows < cores ? static_cast<uint32_t>(rows) : cores;
    used = used == 0 ? 1 : used;
    uint64_t perCore = (rows + used - 1) / used;
    uint64_t rowsPerTile = rowsFit < perCore ? rowsFit : perCore;
    if (rowsPerTile > 4095) {
        rowsPerTile = 4095;          // DataCopyPad blockCount limit
    }
    if (rowsPerTile == 0) {
        return ge::GRAPH_FAILED;     // a single row larger than UB is not supported here
    }

    BroadcastConjunctionTilingData td;
    td.set_outer(static_cast<uint32_t>(sp.outer));
    td.set_mid(static_cast<uint32_t>(sp.mid));
    td.set_inner(static_cast<uint32_t>(sp.inner));
    td.set_innerPitch(pitch);
    td.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    td.set_rowsPerCore(static_cast<uint32_t>(rows / used));
    td.set_extraRows(static_cast<uint32_t>(rows % used));
    td.set_bInUb(bInUb ? 1 : 0);

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    context->SetTilingKey(dt == ge::DT_INT8 ? 1 : 0);
    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class BroadcastConjunctionCustom : public OpDef {
public:
    explicit BroadcastConjunctionCustom(const char *name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL, ge::DT_INT8, ge::DT_UINT8})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL, ge::DT_INT8, ge::DT_UINT8})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL, ge::DT_INT8, ge::DT_UINT8})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BroadcastConjunctionCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Source of the per-row broadcast byte: staged in UB, or read from GM when b is large.
template <typename T>
class RowMaskSource {
public:
    __aicore__ inline void Init(TPipe *pipe, GM_ADDR b, uint32_t mid, bool inUb)
    {
        staged = inUb;
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(b), mid);
        if (staged) {
            pipe->InitBuffer(bBuf, (mid + 31) / 32 * 32);
            LocalTensor<T> bl = bBuf.Get<T>();
            DataCopyExtParams cp{1, mid * static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
            DataCopyPad(bl, bGm, cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
            event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(ev);
            WaitFlag<HardEvent::MTE2_S>(ev);
        }
    }
    // byte replicated into both halves of a 16-bit lane
    __aicore__ inline uint16_t Lane(uint32_t j)
    {
        uint8_t v = staged ? static_cast<uint8_t>(bBuf.Get<T>().GetValue(j)) : static_cast<uint8_t>(bGm.GetValue(j));
        return static_cast<uint16_t>((static_cast<uint16_t>(v) << 8) | v);
    }

private:
    TBuf<TPosition::VECCALC> bBuf;
    GlobalTensor<T> bGm;
    bool staged = false;
};

template <typename T>
class BroadcastConjunction {
public:
    __aicore__ inline BroadcastConjunction() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR y, const BroadcastConjunctionTilingData &td)
    {
        mid = td.mid;
        inner = td.inner;
        pitch = td.innerPitch;
        rowsPerTile = td.rowsPerTile;
        uint32_t idx = GetBlockIdx();
        rowCount = td.rowsPerCore + (idx < td.extraRows ? 1 : 0);
        rowFirst = (uint64_t)idx * td.rowsPerCore + (idx < td.extraRows ? idx : td.extraRows);

        uint64_t total = (uint64_t)td.outer * mid * inner;
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(a), total);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y), total);
        pipe.InitBuffer(aQue, BUFFER_NUM, rowsPerTile * pitch);
        pipe.InitBuffer(yQue, BUFFER_NUM, rowsPerTile * pitch);
        pipe.InitBuffer(maskBuf, rowsPerTile * pitch);
        src.Init(&pipe, b, mid, td.bInUb != 0);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < rowCount; done += rowsPerTile) {
            uint32_t rows = (rowCount - done) < rowsPerTile ? (rowCount - done) : rowsPerTile;
            uint64_t row0 = rowFirst + done;
            CopyIn(row0, rows);
            Compute(row0, rows);
            CopyOut(row0, rows);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t row0, uint32_t rows)
    {
        LocalTensor<T> al = aQue.AllocTensor<T>();
        // rows land at a 32B pitch in UB
        DataCopyExtParams cp{static_cast<uint16_t>(rows), inner, 0, 0, 0};
        DataCopyPad(al, aGm[row0 * inner], cp, DataCopyPadExtParams<T>{true, 0, 0, 0});
        aQue.EnQue(al);
    }

    __aicore__ inline void Compute(uint64_t row0, uint32_t rows)
    {
        LocalTensor<T> al = aQue.DeQue<T>();
        LocalTensor<T> yl = yQue.AllocTensor<T>();
        LocalTensor<uint16_t> m16 = maskBuf.Get<uint16_t>();
        uint32_t lanesPerRow = pitch / 2;
        for (uint32_t r = 0; r < rows; ++r) {
            uint16_t lane = src.Lane(static_cast<uint32_t>((row0 + r) % mid));
            Duplicate(m16[r * lanesPerRow], lane, lanesPerRow);
        }
        PipeBarrier<PIPE_V>();
        // bitwise AND on 16-bit lanes == bytewise AND; for bool inputs this is logical AND
        LocalTensor<uint16_t> a16 = al.template ReinterpretCast<uint16_t>();
        LocalTensor<uint16_t> y16 = yl.template ReinterpretCast<uint16_t>();
        And(y16, a16, m16, rows * lanesPerRow);
        yQue.EnQue(yl);
        aQue.FreeTensor(al);
    }

    __aicore__ inline void CopyOut(uint64_t row0, uint32_t rows)
    {
        LocalTensor<T> yl = yQue.DeQue<T>();
        DataCopyExtParams cp{static_cast<uint16_t>(rows), inner, 0, 0, 0};
        DataCopyPad(yGm[row0 * inner], yl, cp);
        yQue.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> aQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQue;
    TBuf<TPosition::VECCALC> maskBuf;
    GlobalTensor<T> aGm, yGm;
    RowMaskSource<T> src;
    uint32_t mid, inner, pitch, rowsPerTile, rowCount;
    uint64_t rowFirst;
};

extern "C" __global__ __aicore__ void broadcast_conjunction_custom(GM_ADDR a, GM_ADDR b, GM_ADDR y,
                                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        BroadcastConjunction<uint8_t> op;     // bool / uint8
        op.Init(a, b, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        BroadcastConjunction<int8_t> op;
        op.Init(a, b, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// a & b with b broadcast into a's shape
at::Tensor broadcast_conjunction_impl_npu(const at::Tensor &a, const at::Tensor &b)
{
    std::vector<int64_t> outShape = at::infer_size(a.sizes(), b.sizes());
    at::Tensor ac = a;
    if (ac.sizes().vec() != outShape) {
        ac = a.expand(outShape);      // kernel only broadcasts the second operand
    }
    ac = ac.contiguous();
    at::Tensor bc = b.contiguous();
    at::Tensor y = at::empty(outShape, a.options());
    EXEC_NPU_CMD(aclnnBroadcastConjunctionCustom, ac, bc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("broadcast_conjunction_custom", &broadcast_conjunction_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("broadcast_conjunction_custom", &broadcast_conjunction_impl_npu, "a & b (broadcast b)");
}
"""
