project_json_src='''
[
    {
        "op": "ClampedMishGroupNormCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "h", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "shift", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "gamma", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "beta", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
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
BEGIN_TILING_DATA_DEF(ClampedMishGroupNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, features);
  TILING_DATA_FIELD_DEF(uint32_t, groupSize);
  TILING_DATA_FIELD_DEF(uint32_t, groupsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerRow);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ClampedMishGroupNormCustom, ClampedMishGroupNormTilingData)
}
"""

host_operator_src="""
#include "clamped_mish_group_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MAX_TILE_ELEMS = 2048;   // keeps 4 double-buffered inputs + output + fp32 scratch inside UB

struct GroupTileHelper {
    uint32_t features;
    uint32_t groups;
    uint32_t groupSize = 0;
    uint32_t groupsPerTile = 0;
    uint32_t tilesPerRow = 0;

    bool Build()
    {
        if (groups == 0 || features % groups != 0) return false;
        groupSize = features / groups;
        if (groupSize > MAX_TILE_ELEMS) return false;
        groupsPerTile = MAX_TILE_ELEMS / groupSize;
        if (groupsPerTile > groups) groupsPerTile = groups;
        tilesPerRow = (groups + groupsPerTile - 1) / groupsPerTile;
        return true;
    }
};
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ClampedMishGroupNormTilingData td;
    const gert::Shape &hs = context->GetInputShape(0)->GetOriginShape();
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const int64_t *groups = attrs->GetAttrPointer<int64_t>(0);
    const float *eps = attrs->GetAttrPointer<float>(1);
    if (hs.GetDimNum() != 2 || groups == nullptr) return ge::GRAPH_FAILED;

    uint32_t rows = hs.GetDim(0);
    GroupTileHelper helper{static_cast<uint32_t>(hs.GetDim(1)), static_cast<uint32_t>(*groups)};
    if (!helper.Build()) return ge::GRAPH_FAILED;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > rows) cores = rows;
    uint32_t perCore = (rows + cores - 1) / cores;
    cores = (rows + perCore - 1) / perCore;

    td.set_rows(rows);
    td.set_features(helper.features);
    td.set_groupSize(helper.groupSize);
    td.set_groupsPerTile(helper.groupsPerTile);
    td.set_tilesPerRow(helper.tilesPerRow);
    td.set_tileLen(helper.groupsPerTile * helper.groupSize);
    td.set_rowsPerCore(perCore);
    td.set_eps(eps == nullptr ? 1e-5f : *eps);

    context->SetBlockDim(cores);
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
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
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ClampedMishGroupNormCustom : public OpDef {
public:
    explicit ClampedMishGroupNormCustom(const char* name) : OpDef(name)
    {
        this->Input("h").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("num_groups").Int();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ClampedMishGroupNormCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Elementwise part on fp32 data:  v = clamp(h + shift, -1, 1);  mish(v) = v * tanh(softplus(v))
// with tanh(log(1+e^v)) = ((1+e^v)^2 - 1) / ((1+e^v)^2 + 1); |v| <= 1 so no overflow.
struct ClampMish {
    __aicore__ static inline void Run(const AscendC::LocalTensor<float> &v, const AscendC::LocalTensor<float> &s,
                                      const AscendC::LocalTensor<float> &tmp, uint32_t n)
    {
        AscendC::Add(v, v, s, n);
        AscendC::Maxs(v, v, -1.0f, n);
        AscendC::Mins(v, v, 1.0f, n);
        AscendC::Exp(tmp, v, n);
        AscendC::Adds(tmp, tmp, 1.0f, n);
        AscendC::Mul(tmp, tmp, tmp, n);
        AscendC::Adds(s, tmp, 1.0f, n);          // s is free now: denominator
        AscendC::Adds(tmp, tmp, -1.0f, n);       // numerator
        AscendC::Div(tmp, tmp, s, n);
        AscendC::Mul(v, v, tmp, n);
    }
};

template <typename T>
class ClampedMishGroupNorm {
public:
    __aicore__ inline ClampedMishGroupNorm() {}
    __aicore__ inline void Init(GM_ADDR h, GM_ADDR shift, GM_ADDR gamma, GM_ADDR beta, GM_ADDR out,
                                const ClampedMishGroupNormTilingData &td)
    {
        features = td.features;
        groupSize = td.groupSize;
        groupsPerTile = td.groupsPerTile;
        tilesPerRow = td.tilesPerRow;
        tileLen = td.tileLen;
        eps = td.eps;
        rowStart = AscendC::GetBlockIdx() * td.rowsPerCore;
        rowStop = rowStart + td.rowsPerCore;
        if (rowStop > td.rows) rowStop = td.rows;

        hGm.SetGlobalBuffer((__gm__ T *)h);
        sGm.SetGlobalBuffer((__gm__ T *)shift);
        gGm.SetGlobalBuffer((__gm__ T *)gamma);
        bGm.SetGlobalBuffer((__gm__ T *)beta);
        oGm.SetGlobalBuffer((__gm__ T *)out);

        pipe.InitBuffer(hQue, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(pQue, BUFFER_NUM, 3 * tileLen * sizeof(T));   // shift | gamma | beta slices
        pipe.InitBuffer(oQue, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(work, 5 * tileLen * sizeof(float));           // v | shift | gamma | beta | tmp
        pipe.InitBuffer(reduceBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowStart; r < rowStop; ++r) {
            for (uint32_t t = 0; t < tilesPerRow; ++t) {
                uint32_t col = t * tileLen;
                uint32_t len = (features - col) < tileLen ? (features - col) : tileLen;
                CopyIn(r, col, len);
                Compute(len);
                CopyOut(r, col, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r, uint32_t col, uint32_t len)
    {
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        AscendC::LocalTensor<T> hl = hQue.AllocTensor<T>();
        AscendC::LocalTensor<T> pl = pQue.AllocTensor<T>();
        AscendC::DataCopyPad(hl, hGm[static_cast<uint64_t>(r) * features + col], cp, pad);
        AscendC::DataCopyPad(pl, sGm[col], cp, pad);
        AscendC::DataCopyPad(pl[tileLen], gGm[col], cp, pad);
        AscendC::DataCopyPad(pl[2 * tileLen], bGm[col], cp, pad);
        hQue.EnQue(hl);
        pQue.EnQue(pl);
    }

    __aicore__ inline void Widen(const AscendC::LocalTensor<float> &dst, const AscendC::LocalTensor<T> &src, uint32_t n)
    {
        if constexpr (std::is_same<T, float>::value) {
            AscendC::DataCopy(dst, src, n);
        } else {
            AscendC::Cast(dst, src, AscendC::RoundMode::CAST_NONE, n);
        }
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<T> hl = hQue.DeQue<T>();
        AscendC::LocalTensor<T> pl = pQue.DeQue<T>();
        AscendC::LocalTensor<float> w = work.Get<float>();
        AscendC::LocalTensor<float> v = w;
        AscendC::LocalTensor<float> s = w[tileLen];
        AscendC::LocalTensor<float> gm = w[2 * tileLen];
        AscendC::LocalTensor<float> bt = w[3 * tileLen];
        AscendC::LocalTensor<float> tmp = w[4 * tileLen];
        Widen(v, hl, tileLen);
        Widen(s, pl, tileLen);
        Widen(gm, pl[tileLen], tileLen);
        Widen(bt, pl[2 * tileLen], tileLen);
        hQue.FreeTensor(hl);
        pQue.FreeTensor(pl);

        ClampMish::Run(v, s, tmp, len);

        AscendC::LocalTensor<float> red = reduceBuf.Get<float>();
        float inv = 1.0f / static_cast<float>(groupSize);
        uint32_t groups = len / groupSize;
        for (uint32_t gi = 0; gi < groups; ++gi) {
            AscendC::LocalTensor<float> seg = v[gi * groupSize];
            AscendC::LocalTensor<float> sq = tmp[gi * groupSize];
            AscendC::ReduceSum(red, seg, sq, groupSize);
            float mean = WaitScalar(red) * inv;
            AscendC::Adds(seg, seg, -mean, groupSize);
            AscendC::Mul(sq, seg, seg, groupSize);
            AscendC::ReduceSum(red, sq, s[gi * groupSize], groupSize);
            float var = WaitScalar(red) * inv;
            float rstd = 1.0f / sqrt(var + eps);
            AscendC::Muls(seg, seg, rstd, groupSize);
        }
        AscendC::Mul(v, v, gm, len);
        AscendC::Add(v, v, bt, len);

        AscendC::LocalTensor<T> ol = oQue.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::DataCopy(ol, v, tileLen);
        } else {
            AscendC::Cast(ol, v, AscendC::RoundMode::CAST_ROUND, tileLen);
        }
        oQue.EnQue(ol);
    }

    __aicore__ inline float WaitScalar(const AscendC::LocalTensor<float> &red)
    {
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
        float val = red.GetValue(0);
        event_t back = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(back);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(back);
        return val;
    }

    __aicore__ inline void CopyOut(uint32_t r, uint32_t col, uint32_t len)
    {
        AscendC::LocalTensor<T> ol = oQue.DeQue<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(oGm[static_cast<uint64_t>(r) * features + col], ol, cp);
        oQue.FreeTensor(ol);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> hQue, pQue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> oQue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> work, reduceBuf;
    AscendC::GlobalTensor<T> hGm, sGm, gGm, bGm, oGm;
    uint32_t features, groupSize, groupsPerTile, tilesPerRow, tileLen, rowStart, rowStop;
    float eps;
};

extern "C" __global__ __aicore__ void clamped_mish_group_norm_custom(GM_ADDR h, GM_ADDR shift, GM_ADDR gamma,
                                                                     GM_ADDR beta, GM_ADDR out,
                                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        ClampedMishGroupNorm<float> op;
        op.Init(h, shift, gamma, beta, out, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        ClampedMishGroupNorm<half> op;
        op.Init(h, shift, gamma, beta, out, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Linear layer runs on the cube through at::linear; the extra bias, hardtanh, mish and
// GroupNorm are fused into one vector pass.
at::Tensor clamped_mish_group_norm_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& linear_bias,
                                            const at::Tensor& extra_bias, const at::Tensor& gamma,
                                            const at::Tensor& beta, int64_t num_groups, double eps)
{
    at::Tensor h = at::linear(x, weight, linear_bias).contiguous();
    TORCH_CHECK(h.size(1) % num_groups == 0, "features must divide into groups");
    at::Tensor s = extra_bias.to(h.scalar_type()).contiguous();
    at::Tensor g = gamma.to(h.scalar_type()).contiguous();
    at::Tensor b = beta.to(h.scalar_type()).contiguous();
    at::Tensor out = at::empty_like(h);
    EXEC_NPU_CMD(aclnnClampedMishGroupNormCustom, h, s, g, b, num_groups, eps, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("clamped_mish_group_norm_custom", &clamped_mish_group_norm_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("clamped_mish_group_norm_custom", &clamped_mish_group_norm_impl_npu,
          "linear -> +bias -> hardtanh -> mish -> group norm",
          py::arg("x"), py::arg("weight"), py::arg("linear_bias"), py::arg("extra_bias"),
          py::arg("gamma"), py::arg("beta"), py::arg("num_groups"), py::arg("eps") = 1e-5);
}
"""
