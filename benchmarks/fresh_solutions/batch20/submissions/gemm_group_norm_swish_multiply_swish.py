project_json_src='''
[
    {
        "op": "GroupedNormGatedSwishCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]},
            {"name": "gamma", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]},
            {"name": "beta", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]},
            {"name": "mul_weight", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "attr": [
            {"name": "num_groups", "param_type": "required", "type": "int"},
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GroupedNormGatedSwishTiling)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, groupSize);
  TILING_DATA_FIELD_DEF(uint32_t, groupsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerRow);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GroupedNormGatedSwishCustom, GroupedNormGatedSwishTiling)
}
"""

host_operator_src="""
#include "grouped_norm_gated_swish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_COLS_MAX = 2048;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GroupedNormGatedSwishTiling tiling;
    const gert::Shape& s = context->GetInputShape(0)->GetOriginShape();
    uint32_t rows = s.GetDim(0);
    uint32_t cols = s.GetDim(1);
    auto attrs = context->GetAttrs();
    uint32_t groups = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    float eps = *attrs->GetAttrPointer<float>(1);
    if (groups == 0 || cols % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t gs = cols / groups;
    // WholeReduceSum folds one group per repeat: at most 64 fp32 lanes, 32B aligned groups
    if (gs > 64 || gs % 16 != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t gpt = TILE_COLS_MAX / gs;
    if (gpt > groups) {
        gpt = groups;
    }
    while (groups % gpt != 0) {
        --gpt;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t perCore = (rows + coreNum - 1) / coreNum;
    uint32_t blockDim = (rows + perCore - 1) / perCore;

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_groupSize(gs);
    tiling.set_groupsPerTile(gpt);
    tiling.set_tilesPerRow(groups / gpt);
    tiling.set_rowsPerCore(perCore);
    tiling.set_eps(eps);
    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
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
class GroupedNormGatedSwishCustom : public OpDef {
public:
    explicit GroupedNormGatedSwishCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        const char* params[] = {"gamma", "beta", "mul_weight"};
        for (const char* p : params) {
            this->Input(p).ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("num_groups").Int();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GroupedNormGatedSwishCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct SwishOp {
    // v <- v * sigmoid(v); t is scratch of the same length
    __aicore__ static inline void Run(const LocalTensor<float>& v, const LocalTensor<float>& t, uint32_t n)
    {
        Muls(t, v, -1.0f, n);
        Exp(t, t, n);
        Adds(t, t, 1.0f, n);
        Div(v, v, t, n);
    }
};

template <typename T>
class GroupedNormGatedSwish {
public:
    __aicore__ inline GroupedNormGatedSwish() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR mw, GM_ADDR y,
                                const GroupedNormGatedSwishTiling& t)
    {
        tl = t;
        tileCols = tl.groupSize * tl.groupsPerTile;
        rowBegin = GetBlockIdx() * tl.rowsPerCore;
        rowEnd = rowBegin + tl.rowsPerCore;
        if (rowEnd > tl.rows) {
            rowEnd = tl.rows;
        }
        xGm.SetGlobalBuffer((__gm__ T*)x, (uint64_t)tl.rows * tl.cols);
        yGm.SetGlobalBuffer((__gm__ T*)y, (uint64_t)tl.rows * tl.cols);
        gGm.SetGlobalBuffer((__gm__ float*)gamma, tl.cols);
        bGm.SetGlobalBuffer((__gm__ float*)beta, tl.cols);
        wGm.SetGlobalBuffer((__gm__ float*)mw, tl.cols);

        pipe.InitBuffer(xQue, BUFFER_NUM, tileCols * sizeof(T));
        pipe.InitBuffer(yQue, BUFFER_NUM, tileCols * sizeof(T));
        pipe.InitBuffer(prmQue, BUFFER_NUM, 3 * tileCols * sizeof(float));   // gamma | beta | weight
        pipe.InitBuffer(valBuf, tileCols * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileCols * sizeof(float));
        uint32_t statLen = (tl.groupsPerTile + 7) / 8 * 8;
        pipe.InitBuffer(statBuf, 2 * statLen * sizeof(float));
        statStride = statLen;
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowBegin; r < rowEnd; ++r) {
            for (uint32_t tIdx = 0; tIdx < tl.tilesPerRow; ++tIdx) {
                uint32_t col0 = tIdx * tileCols;
                CopyIn(r, col0);
                Compute();
                CopyOut(r, col0);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r, uint32_t col0)
    {
        LocalTensor<T> xl = xQue.AllocTensor<T>();
        LocalTensor<float> pl = prmQue.AllocTensor<float>();
        DataCopy(xl, xGm[(uint64_t)r * tl.cols + col0], tileCols);
        DataCopy(pl, gGm[col0], tileCols);
        DataCopy(pl[tileCols], bGm[col0], tileCols);
        DataCopy(pl[2 * tileCols], wGm[col0], tileCols);
        xQue.EnQue(xl);
        prmQue.EnQue(pl);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<T> xl = xQue.DeQue<T>();
        LocalTensor<float> pl = prmQue.DeQue<float>();
        LocalTensor<float> v = valBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> st = statBuf.Get<float>();
        LocalTensor<float> mean = st;
        LocalTensor<float> rstd = st[statStride];
        uint32_t gs = tl.groupSize;
        uint32_t gpt = tl.groupsPerTile;

        if constexpr (IsSameType<T, float>::value) {
            Adds(v, xl, 0.0f, tileCols);
        } else {
            Cast(v, xl, RoundMode::CAST_NONE, tileCols);
        }
        xQue.FreeTensor(xl);

        // one repeat per group -> per-group sums, then sums of squares
        uint16_t repStride = static_cast<uint16_t>(gs * sizeof(float) / 32);
        WholeReduceSum<float>(mean, v, static_cast<int32_t>(gs), static_cast<int32_t>(gpt), 1, 1, repStride);
        Mul(tmp, v, v, tileCols);
        WholeReduceSum<float>(rstd, tmp, static_cast<int32_t>(gs), static_cast<int32_t>(gpt), 1, 1, repStride);
        float inv = 1.0f / static_cast<float>(gs);
        Muls(mean, mean, inv, gpt);
        Muls(rstd, rstd, inv, gpt);
        Mul(tmp, mean, mean, gpt);
        Sub(rstd, rstd, tmp, gpt);            // E[x^2] - E[x]^2
        Adds(rstd, rstd, tl.eps, gpt);
        Sqrt(rstd, rstd, gpt);
        Duplicate(tmp, 1.0f, gpt);
        Div(rstd, tmp, rstd, gpt);

        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        for (uint32_t g = 0; g < gpt; ++g) {
            float m = mean.GetValue(g);
            float rs = rstd.GetValue(g);
            Adds(v[g * gs], v[g * gs], -m, gs);
            Muls(v[g * gs], v[g * gs], rs, gs);
        }

        Mul(v, v, pl, tileCols);                       // * gamma
        Add(v, v, pl[tileCols], tileCols);             // + beta
        SwishOp::Run(v, tmp, tileCols);
        Mul(v, v, pl[2 * tileCols], tileCols);         // * multiply_weight
        SwishOp::Run(v, tmp, tileCols);
        prmQue.FreeTensor(pl);

        LocalTensor<T> yl = yQue.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            Adds(yl, v, 0.0f, tileCols);
        } else {
            Cast(yl, v, RoundMode::CAST_ROUND, tileCols);
        }
        yQue.EnQue(yl);
    }

    __aicore__ inline void CopyOut(uint32_t r, uint32_t col0)
    {
        LocalTensor<T> yl = yQue.DeQue<T>();
        DataCopy(yGm[(uint64_t)r * tl.cols + col0], yl, tileCols);
        yQue.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue, prmQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQue;
    TBuf<QuePosition::VECCALC> valBuf, tmpBuf, statBuf;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<float> gGm, bGm, wGm;
    GroupedNormGatedSwishTiling tl;
    uint32_t tileCols, rowBegin, rowEnd, statStride;
};

extern "C" __global__ __aicore__ void grouped_norm_gated_swish_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta,
                                                                      GM_ADDR mul_weight, GM_ADDR y,
                                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GroupedNormGatedSwish<DTYPE_X> op;
    op.Init(x, gamma, beta, mul_weight, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// GEMM through aten (cube), then GroupNorm -> swish -> * w -> swish fused in one vector kernel.
at::Tensor grouped_norm_gated_swish_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                        const at::Tensor& gamma, const at::Tensor& beta,
                                        const at::Tensor& mulWeight, int64_t numGroups, double eps)
{
    at::Tensor h = at::linear(x, weight, bias).contiguous();
    at::Tensor g = gamma.to(at::kFloat).contiguous();
    at::Tensor b = beta.to(at::kFloat).contiguous();
    at::Tensor w = mulWeight.to(at::kFloat).contiguous();
    at::Tensor y = at::empty_like(h);
    EXEC_NPU_CMD(aclnnGroupedNormGatedSwishCustom, h, g, b, w, numGroups, eps, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("grouped_norm_gated_swish", &grouped_norm_gated_swish_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("grouped_norm_gated_swish", &grouped_norm_gated_swish_npu,
          "swish(swish(groupnorm(linear(x))) * w)",
          pybind11::arg("x"), pybind11::arg("weight"), pybind11::arg("bias"), pybind11::arg("gamma"),
          pybind11::arg("beta"), pybind11::arg("mul_weight"), pybind11::arg("num_groups"),
          pybind11::arg("eps") = 1e-5);
}
"""
