project_json_src='''
[
    {
        "op": "GroupStandardizeClipCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "gamma", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]},
            {"name": "beta", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "num_groups", "param_type": "required", "type": "int"},
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "0.00001"},
            {"name": "clip_min", "param_type": "optional", "type": "float", "default_value": "-1.0"},
            {"name": "clip_max", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GroupStandardizeClipTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, features);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, groupLen);      // features / groups
  TILING_DATA_FIELD_DEF(uint32_t, groupLenPad);   // groupLen rounded to 64 elements
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // rows of one group handled per tile
  TILING_DATA_FIELD_DEF(uint32_t, rowTiles);
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);    // rowTiles * groups
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, clipMin);
  TILING_DATA_FIELD_DEF(float, clipMax);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GroupStandardizeClipCustom, GroupStandardizeClipTilingData)
}
"""

host_operator_src="""
#include "group_standardize_clip_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MAX_ROWS_PER_TILE = 32;
constexpr uint64_t TILE_BYTES_BUDGET = 24 * 1024;   // one input tile; x2 for double buffering, plus fp32 work copies

uint32_t RowsPerTile(uint32_t groupLenPad, uint32_t rows)
{
    uint64_t r = TILE_BYTES_BUDGET / (static_cast<uint64_t>(groupLenPad) * sizeof(float));
    if (r == 0) {
        r = 1;
    }
    if (r > MAX_ROWS_PER_TILE) {
        r = MAX_ROWS_PER_TILE;
    }
    return static_cast<uint32_t>(r < rows ? r : rows);
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GroupStandardizeClipTilingData td;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    uint32_t rows = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t feats = static_cast<uint32_t>(xs.GetDim(xs.GetDimNum() - 1));
    for (size_t i = 1; i + 1 < xs.GetDimNum(); ++i) {
        rows *= static_cast<uint32_t>(xs.GetDim(i));
    }

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    uint32_t groups = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    if (groups == 0 || feats % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t gLen = feats / groups;
    uint32_t gLenPad = (gLen + 63) / 64 * 64;
    uint32_t rpt = RowsPerTile(gLenPad, rows);
    uint32_t rowTiles = (rows + rpt - 1) / rpt;

    td.set_rows(rows);
    td.set_features(feats);
    td.set_groups(groups);
    td.set_groupLen(gLen);
    td.set_groupLenPad(gLenPad);
    td.set_rowsPerTile(rpt);
    td.set_rowTiles(rowTiles);
    td.set_totalTiles(rowTiles * groups);
    td.set_eps(*attrs->GetAttrPointer<float>(1));
    td.set_clipMin(*attrs->GetAttrPointer<float>(2));
    td.set_clipMax(*attrs->GetAttrPointer<float>(3));

    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t total = rowTiles * groups;
    context->SetBlockDim(total < cores ? total : cores);
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 1);
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
class GroupStandardizeClipCustom : public OpDef {
public:
    explicit GroupStandardizeClipCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("num_groups").Int();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("clip_min").AttrType(OPTIONAL).Float(-1.0f);
        this->Attr("clip_max").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(GroupStandardizeClipCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t STAT_SLOTS = 64;   // per-tile mean / rstd vectors, >= MAX_ROWS_PER_TILE, 32B multiple

template <HardEvent evt>
__aicore__ inline void WaitPipe()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(evt));
    SetFlag<evt>(e);
    WaitFlag<evt>(e);
}

template <typename T>
class GroupStandardizeClip {
public:
    __aicore__ inline GroupStandardizeClip() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const GroupStandardizeClipTilingData& t)
    {
        cfg = t;
        uint64_t total = static_cast<uint64_t>(t.rows) * t.features;
        xGm.SetGlobalBuffer((__gm__ T*)x, total);
        yGm.SetGlobalBuffer((__gm__ T*)y, total);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma, t.features);
        betaGm.SetGlobalBuffer((__gm__ float*)beta, t.features);

        uint32_t tileElems = t.rowsPerTile * t.groupLenPad;
        pipe.InitBuffer(inQ, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(affineQ, 1, 2 * t.groupLenPad * sizeof(float));
        pipe.InitBuffer(workBuf, tileElems * sizeof(float));
        pipe.InitBuffer(sqBuf, t.groupLenPad * sizeof(float));
        pipe.InitBuffer(reduceBuf, t.groupLenPad * sizeof(float));
        pipe.InitBuffer(reduceWorkBuf, t.groupLenPad * sizeof(float));
        pipe.InitBuffer(statBuf, 2 * STAT_SLOTS * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t tile = GetBlockIdx(); tile < cfg.totalTiles; tile += GetBlockNum()) {
            uint32_t g = tile / cfg.rowTiles;            // group-major tile order
            uint32_t rt = tile % cfg.rowTiles;
            uint32_t r0 = rt * cfg.rowsPerTile;
            uint32_t nRows = (cfg.rows - r0) < cfg.rowsPerTile ? (cfg.rows - r0) : cfg.rowsPerTile;
            uint64_t base = static_cast<uint64_t>(r0) * cfg.features + g * cfg.groupLen;
            LoadAffine(g);
            LoadTile(base, nRows);
            Normalize(nRows);
            StoreTile(base, nRows);
        }
    }

private:
    __aicore__ inline void LoadAffine(uint32_t g)
    {
        LocalTensor<float> ab = affineQ.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cfg.groupLen * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(ab, gammaGm[g * cfg.groupLen], cp, pad);
        DataCopyPad(ab[cfg.groupLenPad], betaGm[g * cfg.groupLen], cp, pad);
        affineQ.EnQue(ab);
    }

    __aicore__ inline void LoadTile(uint64_t base, uint32_t nRows)
    {
        LocalTensor<T> xt = inQ.AllocTensor<T>();
        uint32_t segBytes = cfg.groupLen * sizeof(T);
        uint32_t padBlocks = (cfg.groupLenPad * sizeof(T) - (segBytes + 31) / 32 * 32) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(nRows), segBytes,
                             static_cast<uint32_t>((cfg.features - cfg.groupLen) * sizeof(T)), padBlocks, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        DataCopyPad(xt, xGm[base], cp, pad);
        inQ.EnQue(xt);
    }

    __aicore__ inline void Normalize(uint32_t nRows)
    {
        LocalTensor<T> xt = inQ.DeQue<T>();
        LocalTensor<float> ab = affineQ.DeQue<float>();
        LocalTensor<float> w = workBuf.Get<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> red = reduceBuf.Get<float>();
        LocalTensor<float> rw = reduceWorkBuf.Get<float>();
        LocalTensor<float> meanV = statBuf.Get<float>();
        LocalTensor<float> rstdV = meanV[STAT_SLOTS];
        uint32_t L = cfg.groupLen;
        uint32_t LP = cfg.groupLenPad;
        float invL = 1.0f / static_cast<float>(L);

        if constexpr (IsSameType<T, float>::value) {
            DataCopy(w, xt, nRows * LP);
        } else {
            Cast(w, xt, RoundMode::CAST_NONE, nRows * LP);
        }
        inQ.FreeTensor(xt);

        // two-pass statistics per row: mean, then E[(x - mean)^2]
        for (uint32_t r = 0; r < nRows; ++r) {
            LocalTensor<float> seg = w[r * LP];
            ReduceSum(red, seg, sq, L);
            WaitPipe<HardEvent::V_S>();
            float mean = red.GetValue(0) * invL;
            WaitPipe<HardEvent::S_V>();
            Adds(seg, seg, -mean, L);
            Mul(sq, seg, seg, L);
            ReduceSum(red, sq, rw, L);
            WaitPipe<HardEvent::V_S>();
            rstdV.SetValue(r, red.GetValue(0) * invL + cfg.eps);
            meanV.SetValue(r, mean);
        }
        WaitPipe<HardEvent::S_V>();
        Sqrt(rstdV, rstdV, STAT_SLOTS);
        Duplicate(meanV, 1.0f, STAT_SLOTS);
        Div(rstdV, meanV, rstdV, STAT_SLOTS);
        WaitPipe<HardEvent::V_S>();

        LocalTensor<T> yt = outQ.AllocTensor<T>();
        for (uint32_t r = 0; r < nRows; ++r) {
            LocalTensor<float> seg = w[r * LP];
            float rs = rstdV.GetValue(r);
            WaitPipe<HardEvent::S_V>();
            Muls(seg, seg, rs, L);
            Mul(seg, seg, ab, L);
            Add(seg, seg, ab[LP], L);
            Maxs(seg, seg, cfg.clipMin, L);
            Mins(seg, seg, cfg.clipMax, L);
        }
        affineQ.FreeTensor(ab);
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(yt, w, nRows * LP);
        } else {
            Cast(yt, w, RoundMode::CAST_ROUND, nRows * LP);
        }
        outQ.EnQue(yt);
    }

    __aicore__ inline void StoreTile(uint64_t base, uint32_t nRows)
    {
        LocalTensor<T> yt = outQ.DeQue<T>();
        uint32_t segBytes = cfg.groupLen * sizeof(T);
        uint32_t padBlocks = (cfg.groupLenPad * sizeof(T) - (segBytes + 31) / 32 * 32) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(nRows), segBytes, padBlocks,
                             static_cast<uint32_t>((cfg.features - cfg.groupLen) * sizeof(T)), 0};
        DataCopyPad(yGm[base], yt, cp);
        outQ.FreeTensor(yt);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECIN, 1> affineQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> workBuf, sqBuf, reduceBuf, reduceWorkBuf, statBuf;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<float> gammaGm, betaGm;
    GroupStandardizeClipTilingData cfg;
};

extern "C" __global__ __aicore__ void group_standardize_clip_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta,
                                                                    GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        GroupStandardizeClip<float> op;
        op.Init(x, gamma, beta, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        GroupStandardizeClip<half> op;
        op.Init(x, gamma, beta, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// GroupNorm over the feature axis of a [rows, features] matrix, affine, then clip.
at::Tensor group_standardize_clip_impl_npu(const at::Tensor& x, const at::Tensor& gamma, const at::Tensor& beta,
                                           int64_t numGroups, double eps, double clipMin, double clipMax)
{
    at::Tensor xc = x.contiguous();
    at::Tensor g = gamma.to(at::kFloat).contiguous();
    at::Tensor b = beta.to(at::kFloat).contiguous();
    at::Tensor result = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnGroupStandardizeClipCustom, xc, g, b, numGroups, eps, clipMin, clipMax, result);
    return result;
}

// Linear layer through the framework GEMM, then the fused normalization kernel.
at::Tensor linear_group_standardize_clip_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                             const at::Tensor& gamma, const at::Tensor& beta, int64_t numGroups,
                                             double clipMin, double clipMax)
{
    at::Tensor h = at::addmm(bias, x, weight.t());
    return group_standardize_clip_impl_npu(h, gamma, beta, numGroups, 1e-5, clipMin, clipMax);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("group_standardize_clip_custom", &group_standardize_clip_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("group_standardize_clip_custom", &group_standardize_clip_impl_npu, "group norm + affine + clip");
    m.def("linear_group_standardize_clip", &linear_group_standardize_clip_npu, "linear -> group norm -> hardtanh");
}
"""
