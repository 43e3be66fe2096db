project_json_src='''
[
    {
        "op": "ChannelMinDoubleTanhCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelMinDoubleTanhTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, spatial);      // H * W of one plane
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // elements of one spatial tile
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerPlane);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore); // (batch, tile) units, ceil-split across cores
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelMinDoubleTanhCustom, ChannelMinDoubleTanhTilingData)
}
"""

host_operator_src="""
#include "channel_min_double_tanh_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t TILE_ELEMS = 4096;   // fp32 working set per tile; keeps 2x in/out + scratch < UB
constexpr uint32_t ALIGN_ELEMS = 16;    // 32 B for half, 64 B for float

struct MinTanhPlan {
    uint32_t tileLen;
    uint32_t tilesPerPlane;
    uint32_t totalUnits;
    uint32_t unitsPerCore;
    uint32_t coreNum;
};

MinTanhPlan MakePlan(uint32_t batch, uint32_t spatial, uint32_t maxCores)
{
    MinTanhPlan p;
    p.tileLen = spatial < TILE_ELEMS ? ((spatial + ALIGN_ELEMS - 1) / ALIGN_ELEMS) * ALIGN_ELEMS : TILE_ELEMS;
    p.tilesPerPlane = (spatial + p.tileLen - 1) / p.tileLen;
    p.totalUnits = batch * p.tilesPerPlane;
    p.coreNum = p.totalUnits < maxCores ? p.totalUnits : maxCores;
    if (p.coreNum == 0) {
        p.coreNum = 1;
    }
    p.unitsPerCore = (p.totalUnits + p.coreNum - 1) / p.coreNum;
    p.coreNum = (p.totalUnits + p.unitsPerCore - 1) / p.unitsPerCore;
    return p;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& shp = context->GetInputShape(0)->GetOriginShape();
    if (shp.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = shp.GetDim(0);
    uint32_t c = shp.GetDim(1);
    uint32_t hw = shp.GetDim(2) * shp.GetDim(3);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    MinTanhPlan plan = MakePlan(n, hw, plat.GetCoreNumAiv());

    ChannelMinDoubleTanhTilingData tiling;
    tiling.set_batch(n);
    tiling.set_channels(c);
    tiling.set_spatial(hw);
    tiling.set_tileLen(plan.tileLen);
    tiling.set_tilesPerPlane(plan.tilesPerPlane);
    tiling.set_unitsPerCore(plan.unitsPerCore);
    tiling.set_totalUnits(plan.totalUnits);

    // key 0: half, key 1: float
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 0 : 1);
    context->SetBlockDim(plan.coreNum);
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
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    *ys = *xs;
    ys->SetDim(1, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ChannelMinDoubleTanhCustom : public OpDef {
public:
    explicit ChannelMinDoubleTanhCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ChannelMinDoubleTanhCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// tanh(x) = (e^{2x} - 1) / (e^{2x} + 1); input clamped so e^{2x} stays finite in fp32
__aicore__ inline void TanhFp32(const LocalTensor<float>& dst, const LocalTensor<float>& src,
                                const LocalTensor<float>& tmp, uint32_t n)
{
    Maxs(dst, src, -10.0f, n);
    Mins(dst, dst, 10.0f, n);
    Muls(dst, dst, 2.0f, n);
    Exp(dst, dst, n);
    Adds(tmp, dst, 1.0f, n);
    Adds(dst, dst, -1.0f, n);
    Div(dst, dst, tmp, n);
}

template <typename T>
class ChannelMinDoubleTanh {
public:
    __aicore__ inline ChannelMinDoubleTanh() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ChannelMinDoubleTanhTilingData& td)
    {
        channels = td.channels;
        spatial = td.spatial;
        tileLen = td.tileLen;
        tilesPerPlane = td.tilesPerPlane;
        unitBegin = GetBlockIdx() * td.unitsPerCore;
        unitEnd = unitBegin + td.unitsPerCore;
        if (unitEnd > td.totalUnits) {
            unitEnd = td.totalUnits;
        }

        xGm.SetGlobalBuffer((__gm__ T*)x, (uint64_t)td.batch * channels * spatial);
        yGm.SetGlobalBuffer((__gm__ T*)y, (uint64_t)td.batch * spatial);

        pipe.InitBuffer(inQ, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(minBuf, tileLen * sizeof(float));   // running channel minimum
        pipe.InitBuffer(castBuf, tileLen * sizeof(float));  // fp32 view of the current channel slice
        pipe.InitBuffer(tmpBuf, tileLen * sizeof(float));   // tanh denominator
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = unitBegin; u < unitEnd; ++u) {
            uint32_t b = u / tilesPerPlane;
            uint32_t t = u % tilesPerPlane;
            uint32_t off = t * tileLen;
            uint32_t len = (off + tileLen <= spatial) ? tileLen : (spatial - off);
            uint64_t planeBase = (uint64_t)b * channels * spatial + off;

            LocalTensor<float> acc = minBuf.Get<float>();
            for (uint32_t c = 0; c < channels; ++c) {
                CopyIn(planeBase + (uint64_t)c * spatial, len);
                Accumulate(acc, c, len);
            }
            Finish(acc, len);
            CopyOut((uint64_t)b * spatial + off, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t gmOff, uint32_t len)
    {
        LocalTensor<T> xl = inQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm[gmOff], cp, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Accumulate(LocalTensor<float>& acc, uint32_t c, uint32_t len)
    {
        LocalTensor<T> xl = inQ.DeQue<T>();
        if constexpr (std::is_same<T, float>::value) {
            if (c == 0) {
                DataCopy(acc, xl, AlignLen(len));
            } else {
                Min(acc, acc, xl, len);
            }
        } else {
            LocalTensor<float> xf = castBuf.Get<float>();
            Cast(xf, xl, RoundMode::CAST_NONE, len);
            if (c == 0) {
                DataCopy(acc, xf, AlignLen(len));
            } else {
                Min(acc, acc, xf, len);
            }
        }
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void Finish(LocalTensor<float>& acc, uint32_t len)
    {
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> work = castBuf.Get<float>();
        TanhFp32(work, acc, tmp, len);
        TanhFp32(acc, work, tmp, len);

        LocalTensor<T> yl = outQ.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(yl, acc, AlignLen(len));
        } else {
            Cast(yl, acc, RoundMode::CAST_ROUND, len);
        }
        outQ.EnQue(yl);
    }

    __aicore__ inline void CopyOut(uint64_t gmOff, uint32_t len)
    {
        LocalTensor<T> yl = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[gmOff], yl, cp);
        outQ.FreeTensor(yl);
    }

    __aicore__ inline uint32_t AlignLen(uint32_t len) const
    {
        return (len + 15) / 16 * 16;   // local copies operate on whole 32 B blocks
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<QuePosition::VECCALC> minBuf, castBuf, tmpBuf;
    GlobalTensor<T> xGm, yGm;
    uint32_t channels = 0, spatial = 0, tileLen = 0, tilesPerPlane = 0;
    uint32_t unitBegin = 0, unitEnd = 0;
};

extern "C" __global__ __aicore__ void channel_min_double_tanh_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        ChannelMinDoubleTanh<half> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        ChannelMinDoubleTanh<float> op;
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

// min over dim 1 (keepdim) followed by tanh(tanh(.))
at::Tensor channel_min_double_tanh_impl_npu(const at::Tensor& x)
{
    TORCH_CHECK(x.dim() == 4, "expected NCHW input");
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty({xc.size(0), 1, xc.size(2), xc.size(3)}, xc.options());
    EXEC_NPU_CMD(aclnnChannelMinDoubleTanhCustom, xc, y);
    return y;
}

// conv2d on the NPU, then the fused reduction/activation kernel
at::Tensor conv_channel_min_double_tanh_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias)
{
    at::Tensor feat = at::conv2d(x, weight, bias);
    return channel_min_double_tanh_impl_npu(feat);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("channel_min_double_tanh_custom", &channel_min_double_tanh_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("channel_min_double_tanh_custom", &channel_min_double_tanh_impl_npu, "tanh(tanh(min_c x))");
    m.def("conv_channel_min_double_tanh", &conv_channel_min_double_tanh_npu, "conv2d + channel min + double tanh");
}
"""
