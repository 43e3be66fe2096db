project_json_src='''
[
    {
        "op": "RunningTotalCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RunningTotalTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // independent scan lines
  TILING_DATA_FIELD_DEF(uint32_t, length);        // scan length (innermost axis)
  TILING_DATA_FIELD_DEF(uint32_t, tileRows);      // R: lines handled together
  TILING_DATA_FIELD_DEF(uint32_t, tileCols);      // C: columns per step
  TILING_DATA_FIELD_DEF(uint32_t, groupNum);      // ceil(rows / R)
  TILING_DATA_FIELD_DEF(uint32_t, groupsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RunningTotalCustom, RunningTotalTilingData)
}
"""

host_operator_src="""
#include "running_total_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_R = 64;
constexpr uint32_t TILE_C = 64;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    // the binding moves the scan axis last, so the input is read as (rows, length)
    const gert::Shape& s = context->GetInputShape(0)->GetStorageShape();
    size_t nd = s.GetDimNum();
    uint32_t length = s.GetDim(nd - 1);
    uint32_t rows = 1;
    for (size_t i = 0; i + 1 < nd; ++i) rows *= s.GetDim(i);

    uint32_t groupNum = (rows + TILE_R - 1) / TILE_R;
    uint32_t cores = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    uint32_t per = (groupNum + cores - 1) / cores;

    RunningTotalTilingData td;
    td.set_rows(rows);
    td.set_length(length);
    td.set_tileRows(TILE_R);
    td.set_tileCols(TILE_C);
    td.set_groupNum(groupNum);
    td.set_groupsPerCore(per);

    context->SetBlockDim((groupNum + per - 1) / per);
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class RunningTotalCustom : public OpDef {
public:
    explicit RunningTotalCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RunningTotalCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Builds the byte-offset permutation tables used to transpose an R x C fp32 tile in UB,
// so the scan along C becomes C-1 vector adds of length R.
struct TransposeTables {
    __aicore__ static inline void Build(LocalTensor<uint32_t>& toColMajor, LocalTensor<uint32_t>& toRowMajor,
                                        uint32_t R, uint32_t C)
    {
        for (uint32_t c = 0; c < C; ++c) {
            for (uint32_t r = 0; r < R; ++r) {
                toColMajor.SetValue(c * R + r, (r * C + c) * sizeof(float));
                toRowMajor.SetValue(r * C + c, (c * R + r) * sizeof(float));
            }
        }
    }
};

template <typename T>
class RunningTotal {
public:
    __aicore__ inline RunningTotal() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RunningTotalTilingData& td)
    {
        td_ = td;
        R = td.tileRows;
        C = td.tileCols;
        xGm.SetGlobalBuffer((__gm__ T*)x, (uint64_t)td.rows * td.length);
        yGm.SetGlobalBuffer((__gm__ T*)y, (uint64_t)td.rows * td.length);
        pipe.InitBuffer(inQ, BUFFER_NUM, R * C * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, R * C * sizeof(T));
        pipe.InitBuffer(rowMajBuf, R * C * sizeof(float));
        pipe.InitBuffer(colMajBuf, R * C * sizeof(float));
        pipe.InitBuffer(carryBuf, R * sizeof(float));
        pipe.InitBuffer(tblCBuf, R * C * sizeof(uint32_t));
        pipe.InitBuffer(tblRBuf, R * C * sizeof(uint32_t));
        LocalTensor<uint32_t> tc = tblCBuf.Get<uint32_t>();
        LocalTensor<uint32_t> tr = tblRBuf.Get<uint32_t>();
        TransposeTables::Build(tc, tr, R, C);
    }

    __aicore__ inline void Process()
    {
        uint32_t g0 = GetBlockIdx() * td_.groupsPerCore;
        uint32_t g1 = g0 + td_.groupsPerCore;
        if (g1 > td_.groupNum) g1 = td_.groupNum;
        for (uint32_t g = g0; g < g1; ++g) {
            uint32_t row0 = g * R;
            uint32_t rLen = td_.rows - row0 < R ? td_.rows - row0 : R;
            LocalTensor<float> carry = carryBuf.Get<float>();
            Duplicate(carry, 0.0f, R);
            for (uint32_t col0 = 0; col0 < td_.length; col0 += C) {
                uint32_t cLen = td_.length - col0 < C ? td_.length - col0 : C;
                CopyIn(row0, rLen, col0, cLen);
                ScanTile(cLen);
                CopyOut(row0, rLen, col0, cLen);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row0, uint32_t rLen, uint32_t col0, uint32_t cLen)
    {
        LocalTensor<T> t = inQ.AllocTensor<T>();
        // rLen bursts of cLen elements; UB rows are C wide (C*sizeof(T) is a multiple of 32B)
        uint32_t blk = 32 / sizeof(T);
        uint32_t cUp = (cLen + blk - 1) / blk * blk;
        DataCopyExtParams cp{static_cast<uint16_t>(rLen), static_cast<uint32_t>(cLen * sizeof(T)),
                             static_cast<uint32_t>((td_.length - cLen) * sizeof(T)),
                             static_cast<uint32_t>((C - cUp) / blk), 0};
        DataCopyPadExtParams<T> pad{true, 0, static_cast<uint8_t>(cUp - cLen), static_cast<T>(0)};
        DataCopyPad(t, xGm[(uint64_t)row0 * td_.length + col0], cp, pad);
        inQ.EnQue(t);
    }

    __aicore__ inline void ScanTile(uint32_t cLen)
    {
        LocalTensor<T> t = inQ.DeQue<T>();
        LocalTensor<float> rm = rowMajBuf.Get<float>();
        LocalTensor<float> cm = colMajBuf.Get<float>();
        LocalTensor<float> carry = carryBuf.Get<float>();
        if constexpr (IsSameType<T, float>::value) {
            Adds(rm, t, 0.0f, R * C);
        } else {
            Cast(rm, t, RoundMode::CAST_NONE, R * C);
        }
        inQ.FreeTensor(t);

        // cm[c][r] = rm[r][c]
        Gather(cm, rm, tblCBuf.Get<uint32_t>(), 0U, R * C);
        Add(cm, cm, carry, R);
        for (uint32_t c = 1; c < cLen; ++c) {
            Add(cm[c * R], cm[c * R], cm[(c - 1) * R], R);
        }
        Adds(carry, cm[(cLen - 1) * R], 0.0f, R);
        // back to row-major for a contiguous store
        Gather(rm, cm, tblRBuf.Get<uint32_t>(), 0U, R * C);

        LocalTensor<T> o = outQ.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            Adds(o, rm, 0.0f, R * C);
        } else {
            Cast(o, rm, RoundMode::CAST_ROUND, R * C);
        }
        outQ.EnQue(o);
    }

    __aicore__ inline void CopyOut(uint32_t row0, uint32_t rLen, uint32_t col0, uint32_t cLen)
    {
        LocalTensor<T> o = outQ.DeQue<T>();
        uint32_t blk = 32 / sizeof(T);
        uint32_t cUp = (cLen + blk - 1) / blk * blk;
        DataCopyExtParams cp{static_cast<uint16_t>(rLen), static_cast<uint32_t>(cLen * sizeof(T)),
                             static_cast<uint32_t>((C - cUp) / blk),
                             static_cast<uint32_t>((td_.length - cLen) * sizeof(T)), 0};
        DataCopyPad(yGm[(uint64_t)row0 * td_.length + col0], o, cp);
        outQ.FreeTensor(o);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> rowMajBuf, colMajBuf, carryBuf, tblCBuf, tblRBuf;
    GlobalTensor<T> xGm, yGm;
    RunningTotalTilingData td_;
    uint32_t R, C;
};

extern "C" __global__ __aicore__ void running_total_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        RunningTotal<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        RunningTotal<half> op;
        op.Init(x, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor running_total_npu(const at::Tensor& x, int64_t dim)
{
    int64_t nd = x.dim();
    TORCH_CHECK(nd > 0, "cumsum needs at least one dimension");
    if (dim < 0) dim += nd;
    // kernel scans the innermost axis; move the requested axis there
    bool moved = dim != nd - 1;
    at::Tensor src = moved ? x.movedim(dim, -1).contiguous() : x.contiguous();
    at::Tensor out = at::empty_like(src);
    EXEC_NPU_CMD(aclnnRunningTotalCustom, src, out);
    return moved ? out.movedim(-1, dim).contiguous() : out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("running_total_custom", &running_total_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("running_total_custom", &running_total_npu, "inclusive prefix sum along dim");
}
"""
