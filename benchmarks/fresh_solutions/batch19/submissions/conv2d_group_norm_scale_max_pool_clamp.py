project_json_src='''
[
    {
        "op": "Conv2dGroupNormScaleMaxPoolClampCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "gamma",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "beta",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "scale",
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
        ],
        "attr": [
            {
                "name": "num_groups",
                "param_type": "required",
                "type": "int"
            },
            {
                "name": "pool_kernel",
                "param_type": "required",
                "type": "int"
            },
            {
                "name": "clamp_min",
                "param_type": "required",
                "type": "float"
            },
            {
                "name": "clamp_max",
                "param_type": "required",
                "type": "float"
            },
            {
                "name": "eps",
                "param_type": "optional",
                "type": "float",
                "default_value": "1e-5"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dGroupNormScaleMaxPoolClampCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, widthAlign);      // width rounded up to 8 floats (32B)
  TILING_DATA_FIELD_DEF(uint32_t, numGroups);
  TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, poolK);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);      // batch * numGroups
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailUnits);       // first tailUnits cores get one more unit
  TILING_DATA_FIELD_DEF(uint32_t, statTile);        // elements per tile in the statistics pass
  TILING_DATA_FIELD_DEF(float, clampMin);
  TILING_DATA_FIELD_DEF(float, clampMax);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dGroupNormScaleMaxPoolClampCustom, Conv2dGroupNormScaleMaxPoolClampCustomTilingData)
}
"""

host_operator_src="""
#include "conv2d_group_norm_scale_max_pool_clamp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t STAT_TILE = 4096;

static inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv2dGroupNormScaleMaxPoolClampCustomTilingData tiling;
    const gert::Shape& xShape = context->GetInputShape(0)->GetStorageShape();
    if (xShape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = static_cast<uint32_t>(xShape.GetDim(0));
    uint32_t c = static_cast<uint32_t>(xShape.GetDim(1));
    uint32_t h = static_cast<uint32_t>(xShape.GetDim(2));
    uint32_t w = static_cast<uint32_t>(xShape.GetDim(3));

    auto attrs = context->GetAttrs();
    uint32_t groups = static_cast<uint32_t>(*attrs->GetInt(0));
    uint32_t k = static_cast<uint32_t>(*attrs->GetInt(1));
    float cmin = *attrs->GetFloat(2);
    float cmax = *attrs->GetFloat(3);
    const float* epsPtr = attrs->GetFloat(4);
    float eps = (epsPtr == nullptr) ? 1e-5f : *epsPtr;
    if (groups == 0 || c % groups != 0 || k == 0) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t units = n * groups;
    uint32_t usedCores = units < coreNum ? units : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }

    tiling.set_batch(n);
    tiling.set_channels(c);
    tiling.set_height(h);
    tiling.set_width(w);
    tiling.set_widthAlign(AlignUp(w, 8));
    tiling.set_numGroups(groups);
    tiling.set_chPerGroup(c / groups);
    tiling.set_poolK(k);
    tiling.set_outH(h / k);
    tiling.set_outW(w / k);
    tiling.set_outWAlign(AlignUp(w / k, 8));
    tiling.set_totalUnits(units);
    tiling.set_unitsPerCore(units / usedCores);
    tiling.set_tailUnits(units % usedCores);
    tiling.set_statTile(STAT_TILE);
    tiling.set_clampMin(cmin);
    tiling.set_clampMax(cmax);
    tiling.set_eps(eps);

    context->SetBlockDim(usedCores);
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
    const gert::Shape* xShape = context->GetInputShape(0);
    const int64_t* k = context->GetAttrs()->GetInt(1);
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(4);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, xShape->GetDim(1));
    yShape->SetDim(2, xShape->GetDim(2) / *k);
    yShape->SetDim(3, xShape->GetDim(3) / *k);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv2dGroupNormScaleMaxPoolClampCustom : public OpDef {
public:
    explicit Conv2dGroupNormScaleMaxPoolClampCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_groups").Int();
        this->Attr("pool_kernel").Int();
        this->Attr("clamp_min").Float();
        this->Attr("clamp_max").Float();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Conv2dGroupNormScaleMaxPoolClampCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// One work unit = one (batch, group) pair.
//   pass 1: stream the (contiguous) group through UB and accumulate sum / sum of squares
//   pass 2: for each channel of the group and each pooled output row, load poolK input rows,
//           apply the fused GroupNorm affine * scale, reduce rows with Max, reduce columns with
//           Gather + Max, clamp and write out one pooled row.
class KernelGnScalePoolClamp {
public:
    __aicore__ inline KernelGnScalePoolClamp() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR scale, GM_ADDR y,
                                const Conv2dGroupNormScaleMaxPoolClampCustomTilingData& td)
    {
        n_ = td.batch; c_ = td.channels; h_ = td.height; w_ = td.width;
        wAlign_ = td.widthAlign; groups_ = td.numGroups; cpg_ = td.chPerGroup; k_ = td.poolK;
        oh_ = td.outH; ow_ = td.outW; owAlign_ = td.outWAlign;
        statTile_ = td.statTile;
        cmin_ = td.clampMin; cmax_ = td.clampMax; eps_ = td.eps;

        uint32_t blk = GetBlockIdx();
        unitCount_ = td.unitsPerCore + (blk < td.tailUnits ? 1 : 0);
        unitStart_ = blk * td.unitsPerCore + (blk < td.tailUnits ? blk : td.tailUnits);

        xGm_.SetGlobalBuffer((__gm__ float*)x);
        gammaGm_.SetGlobalBuffer((__gm__ float*)gamma);
        betaGm_.SetGlobalBuffer((__gm__ float*)beta);
        scaleGm_.SetGlobalBuffer((__gm__ float*)scale);
        yGm_.SetGlobalBuffer((__gm__ float*)y);

        uint32_t rowsElems = k_ * wAlign_;
        uint32_t inElems = statTile_ > rowsElems ? statTile_ : rowsElems;
        pipe_.InitBuffer(inQ_, BUFFER_NUM, inElems * sizeof(float));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, owAlign_ * sizeof(float));
        pipe_.InitBuffer(sumBuf_, statTile_ * sizeof(float));
        pipe_.InitBuffer(sqBuf_, statTile_ * sizeof(float));
        pipe_.InitBuffer(tmpBuf_, inElems * sizeof(float));
        pipe_.InitBuffer(redBuf_, 64 * sizeof(float));
        pipe_.InitBuffer(rowBuf_, wAlign_ * sizeof(float));
        pipe_.InitBuffer(gathBuf_, owAlign_ * sizeof(float));
        pipe_.InitBuffer(idxBuf_, k_ * owAlign_ * sizeof(uint32_t));

        // byte offsets of the j-th element of every pooling window inside one row
        LocalTensor<uint32_t> idx = idxBuf_.Get<uint32_t>();
        for (uint32_t j = 0; j < k_; ++j) {
            for (uint32_t o = 0; o < owAlign_; ++o) {
                uint32_t col = o < ow_ ? o * k_ + j : 0;
                idx.SetValue(j * owAlign_ + o, col * static_cast<uint32_t>(sizeof(float)));
            }
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = 0; u < unitCount_; ++u) {
            uint32_t unit = unitStart_ + u;
            uint32_t b = unit / groups_;
            uint32_t g = unit % groups_;
            float mean = 0.0f;
            float rstd = 0.0f;
            GroupStats(b, g, mean, rstd);
            for (uint32_t ci = 0; ci < cpg_; ++ci) {
                uint32_t ch = g * cpg_ + ci;
                float gm = gammaGm_.GetValue(ch);
                float bt = betaGm_.GetValue(ch);
                float sc = scaleGm_.GetValue(ch);
                float mul = gm * rstd * sc;
                float add = (bt - mean * gm * rstd) * sc;
                uint64_t planeIn = (static_cast<uint64_t>(b) * c_ + ch) * h_ * w_;
                uint64_t planeOut = (static_cast<uint64_t>(b) * c_ + ch) * oh_ * ow_;
                for (uint32_t r = 0; r < oh_; ++r) {
                    LoadRows(planeIn + static_cast<uint64_t>(r) * k_ * w_);
                    PoolRow(mul, add);
                    StoreRow(planeOut + static_cast<uint64_t>(r) * ow_);
                }
            }
        }
    }

private:
    __aicore__ inline void GroupStats(uint32_t b, uint32_t g, float& mean, float& rstd)
    {
        uint64_t base = (static_cast<uint64_t>(b) * c_ + g * cpg_) * h_ * w_;
        uint32_t groupLen = cpg_ * h_ * w_;
        LocalTensor<float> accSum = sumBuf_.Get<float>();
        LocalTensor<float> accSq = sqBuf_.Get<float>();
        LocalTensor<float> tmp = tmpBuf_.Get<float>();
        Duplicate(accSum, 0.0f, statTile_);
        Duplicate(accSq, 0.0f, statTile_);

        for (uint32_t off = 0; off < groupLen; off += statTile_) {
            uint32_t len = (groupLen - off) < statTile_ ? (groupLen - off) : statTile_;
            LocalTensor<float> xin = inQ_.AllocTensor<float>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(xin, xGm_[base + off], cp, pad);
            inQ_.EnQue(xin);
            xin = inQ_.DeQue<float>();
            Add(accSum, accSum, xin, len);
            Mul(tmp, xin, xin, len);
            Add(accSq, accSq, tmp, len);
            inQ_.FreeTensor(xin);
        }

        LocalTensor<float> red = redBuf_.Get<float>();
        ReduceSum<float>(red, accSum, tmp, statTile_);
        ReduceSum<float>(red[8], accSq, tmp, statTile_);
        event_t evt = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evt);
        WaitFlag<HardEvent::V_S>(evt);
        float inv = 1.0f / static_cast<float>(groupLen);
        float s = red.GetValue(0);
        float sq = red.GetValue(8);
        mean = s * inv;
        float var = sq * inv - mean * mean;
        if (var < 0.0f) {
            var = 0.0f;
        }
        // rstd = 1/sqrt(var + eps), computed on a vector lane to use the hardware Sqrt
        red.SetValue(16, var + eps_);
        event_t evs = static_cast<event_t>(pipe_.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evs);
        WaitFlag<HardEvent::S_V>(evs);
        Sqrt(red[16], red[16], 8);
        SetFlag<HardEvent::V_S>(evt);
        WaitFlag<HardEvent::V_S>(evt);
        rstd = 1.0f / red.GetValue(16);
    }

    __aicore__ inline void LoadRows(uint64_t gmOff)
    {
        LocalTensor<float> rows = inQ_.AllocTensor<float>();
        // k rows of w floats; each row lands 32B-aligned in UB (stride wAlign_)
        DataCopyExtParams cp{static_cast<uint16_t>(k_), static_cast<uint32_t>(w_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(rows, xGm_[gmOff], cp, pad);
        inQ_.EnQue(rows);
    }

    __aicore__ inline void PoolRow(float mul, float add)
    {
        LocalTensor<float> rows = inQ_.DeQue<float>();
        LocalTensor<float> outRow = outQ_.AllocTensor<float>();
        LocalTensor<float> rmax = rowBuf_.Get<float>();
        LocalTensor<float> g = gathBuf_.Get<float>();
        LocalTensor<uint32_t> idx = idxBuf_.Get<uint32_t>();

        uint32_t cnt = k_ * wAlign_;
        Muls(rows, rows, mul, cnt);
        Adds(rows, rows, add, cnt);

        // vertical max over the k rows
        DataCopy(rmax, rows, wAlign_);
        for (uint32_t r = 1; r < k_; ++r) {
            Max(rmax, rmax, rows[r * wAlign_], wAlign_);
        }
        // horizontal max: gather the j-th column of each window and fold it in
        Gather(outRow, rmax, idx, 0, owAlign_);
        for (uint32_t j = 1; j < k_; ++j) {
            Gather(g, rmax, idx[j * owAlign_], 0, owAlign_);
            Max(outRow, outRow, g, owAlign_);
        }
        Maxs(outRow, outRow, cmin_, owAlign_);
        Mins(outRow, outRow, cmax_, owAlign_);

        outQ_.EnQue(outRow);
        inQ_.FreeTensor(rows);
    }

    __aicore__ inline void StoreRow(uint64_t gmOff)
    {
        LocalTensor<float> outRow = outQ_.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(ow_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm_[gmOff], outRow, cp);
        outQ_.FreeTensor(outRow);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
    TBuf<QuePosition::VECCALC> sumBuf_, sqBuf_, tmpBuf_, redBuf_, rowBuf_, gathBuf_, idxBuf_;
    GlobalTensor<float> xGm_, gammaGm_, betaGm_, scaleGm_, yGm_;
    uint32_t n_, c_, h_, w_, wAlign_, groups_, cpg_, k_, oh_, ow_, owAlign_, statTile_;
    uint32_t unitStart_, unitCount_;
    float cmin_, cmax_, eps_;
};

extern "C" __global__ __aicore__ void conv2d_group_norm_scale_max_pool_clamp_custom(
    GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR scale, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelGnScalePoolClamp op;
    op.Init(x, gamma, beta, scale, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv2d runs through the stock NPU convolution; GroupNorm + scale + MaxPool + clamp is fused
at::Tensor conv2d_group_norm_scale_max_pool_clamp_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& conv_weight, const at::Tensor& conv_bias,
    const at::Tensor& gn_weight, const at::Tensor& gn_bias, const at::Tensor& scale,
    int64_t num_groups, int64_t pool_kernel, double clamp_min, double clamp_max)
{
    at::Tensor conv = at::conv2d(x, conv_weight, conv_bias).contiguous();
    at::Tensor scaleFlat = scale.reshape({-1}).contiguous();
    auto sizes = conv.sizes();
    at::Tensor result = at::empty({sizes[0], sizes[1], sizes[2] / pool_kernel, sizes[3] / pool_kernel},
                                  conv.options());
    double eps = 1e-5;
    EXEC_NPU_CMD(aclnnConv2dGroupNormScaleMaxPoolClampCustom, conv, gn_weight, gn_bias, scaleFlat,
                 num_groups, pool_kernel, clamp_min, clamp_max, eps, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_group_norm_scale_max_pool_clamp_custom", &conv2d_group_norm_scale_max_pool_clamp_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_group_norm_scale_max_pool_clamp_custom", &conv2d_group_norm_scale_max_pool_clamp_custom_impl_npu,
          "conv2d -> group_norm -> scale -> maxpool2d -> clamp");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, num_groups, scale_shape, maxpool_kernel_size, clamp_min, clamp_max):
        super().__init__()
        self.conv = torch.nn.Conv2d(in_channels, out_channels, kernel_size)
        self.group_norm = torch.nn.GroupNorm(num_groups, out_channels)
        self.scale = torch.nn.Parameter(torch.ones(scale_shape))
        self.num_groups = num_groups
        self.pool_k = maxpool_kernel_size
        self.clamp_min = clamp_min
        self.clamp_max = clamp_max

    def forward(self, x):
        return custom_ops_lib.conv2d_group_norm_scale_max_pool_clamp_custom(
            x, self.conv.weight, self.conv.bias, self.group_norm.weight, self.group_norm.bias,
            self.scale, self.num_groups, self.pool_k, self.clamp_min, self.clamp_max)
'''
