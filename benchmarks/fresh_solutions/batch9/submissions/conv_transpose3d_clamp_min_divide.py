project_json_src='''
[
    {
        "op": "ChannelBiasFloorScaleCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "bias",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "attr": [
            {"name": "floor_value", "param_type": "optional", "type": "float", "default_value": "-1.0"},
            {"name": "divisor", "param_type": "optional", "type": "float", "default_value": "2.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelBiasFloorScaleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);        // N * C
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint64_t, planeLen);      // prod of spatial dims
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraPlanes);   // first extraPlanes cores own one more plane
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(float, floorValue);
  TILING_DATA_FIELD_DEF(float, invDivisor);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelBiasFloorScaleCustom, ChannelBiasFloorScaleTilingData)
}
"""

host_operator_src="""
#include "channel_bias_floor_scale_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t DB = 2;
constexpr uint32_t MAX_TILE = 16 * 1024;

uint32_t TileFor(uint64_t planeLen, uint32_t typeSize, uint64_t ub)
{
    uint64_t fit = (ub - 8 * 1024) / (DB * 2 * typeSize);
    uint64_t tile = fit < MAX_TILE ? fit : MAX_TILE;
    uint64_t alignElems = 32 / typeSize;
    if (planeLen < tile) {
        tile = (planeLen + alignElems - 1) / alignElems * alignElems;
    }
    return static_cast<uint32_t>(tile / alignElems * alignElems);
}
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() < 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t c = static_cast<uint32_t>(xs.GetDim(1));
    uint64_t planeLen = 1;
    for (size_t i = 2; i < xs.GetDimNum(); ++i) {
        planeLen *= static_cast<uint64_t>(xs.GetDim(i));
    }

    auto attrs = context->GetAttrs();
    const float *floorPtr = attrs->GetAttrPointer<float>(0);
    const float *divPtr = attrs->GetAttrPointer<float>(1);
    float divisor = divPtr ? *divPtr : 2.0f;
    if (divisor == 0.0f) {
        return ge::GRAPH_FAILED;
    }

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = dt == ge::DT_FLOAT16 ? 2 : 4;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();

    uint32_t planes = n * c;
    uint32_t used = planes < cores ? planes : cores;
    used = used == 0 ? 1 : used;

    ChannelBiasFloorScaleTilingData td;
    td.set_planes(planes);
    td.set_channels(c);
    td.set_planeLen(planeLen);
    td.set_planesPerCore(planes / used);
    td.set_extraPlanes(planes % used);
    td.set_tileLen(TileFor(planeLen, typeSize, ub));
    td.set_floorValue(floorPtr ? *floorPtr : -1.0f);
    td.set_invDivisor(1.0f / divisor);

    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
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
class ChannelBiasFloorScaleCustom : public OpDef {
public:
    explicit ChannelBiasFloorScaleCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("floor_value").AttrType(OPTIONAL).Float(-1.0f);
        this->Attr("divisor").AttrType(OPTIONAL).Float(2.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ChannelBiasFloorScaleCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Range of [N*C] planes owned by one core.
struct PlaneRange {
    uint32_t first;
    uint32_t count;
};

__aicore__ inline PlaneRange OwnedPlanes(uint32_t per, uint32_t extra, uint32_t idx)
{
    PlaneRange r;
    r.count = per + (idx < extra ? 1 : 0);
    r.first = idx * per + (idx < extra ? idx : extra);
    return r;
}

template <typename T>
class ChannelBiasFloorScale {
public:
    __aicore__ inline ChannelBiasFloorScale() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, const ChannelBiasFloorScaleTilingData &td)
    {
        channels = td.channels;
        planeLen = td.planeLen;
        tileLen = td.tileLen;
        floorV = td.floorValue;
        invDiv = td.invDivisor;
        range = OwnedPlanes(td.planesPerCore, td.extraPlanes, GetBlockIdx());

        uint64_t total = static_cast<uint64_t>(td.planes) * planeLen;
        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x), total);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y), total);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(bias), channels);
        pipe.InitBuffer(inQ, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLen * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = 0; p < range.count; ++p) {
            uint32_t plane = range.first + p;
            // bias is folded before the clamp: max(v + b, lo) / d
            T b = bGm.GetValue(plane % channels);
            uint64_t base = static_cast<uint64_t>(plane) * planeLen;
            for (uint64_t off = 0; off < planeLen; off += tileLen) {
                uint32_t n = static_cast<uint32_t>((planeLen - off) < tileLen ? (planeLen - off) : tileLen);
                CopyIn(base + off, n);
                Compute(b, n);
                CopyOut(base + off, n);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        LocalTensor<T> xl = inQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(xl, xGm[off], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(T b, uint32_t n)
    {
        LocalTensor<T> xl = inQ.DeQue<T>();
        LocalTensor<T> yl = outQ.AllocTensor<T>();
        Adds(yl, xl, b, n);
        PipeBarrier<PIPE_V>();
        Maxs(yl, yl, static_cast<T>(floorV), n);
        PipeBarrier<PIPE_V>();
        Muls(yl, yl, static_cast<T>(invDiv), n);
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t n)
    {
        LocalTensor<T> yl = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], yl, cp);
        outQ.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    GlobalTensor<T> xGm, yGm, bGm;
    PlaneRange range;
    uint32_t channels, tileLen;
    uint64_t planeLen;
    float floorV, invDiv;
};

extern "C" __global__ __aicore__ void channel_bias_floor_scale_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        ChannelBiasFloorScale<float> op;
        op.Init(x, bias, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        ChannelBiasFloorScale<half> op;
        op.Init(x, bias, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// y[n, c, ...] = max(x[n, c, ...] + bias[c], floor_value) / divisor
at::Tensor channel_bias_floor_scale_impl_npu(const at::Tensor &x, const at::Tensor &bias,
                                             double floor_value, double divisor)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    float lo = static_cast<float>(floor_value);
    float dv = static_cast<float>(divisor);
    EXEC_NPU_CMD(aclnnChannelBiasFloorScaleCustom, xc, bias, lo, dv, y);
    return y;
}

// transposed 3-D conv without bias on the cube, bias/clamp/divide fused in the vector kernel
at::Tensor deconv3d_bias_floor_scale_npu(const at::Tensor &x, const at::Tensor &weight, const at::Tensor &bias,
                                         int64_t stride, int64_t padding, double floor_value, double divisor)
{
    at::Tensor h = at::conv_transpose3d(x, weight, c10::nullopt, {stride, stride, stride},
                                        {padding, padding, padding});
    return channel_bias_floor_scale_impl_npu(h, bias, floor_value, divisor);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("channel_bias_floor_scale_custom", &channel_bias_floor_scale_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("channel_bias_floor_scale_custom", &channel_bias_floor_scale_impl_npu,
          "max(x + b[c], lo) / d");
    m.def("deconv3d_bias_floor_scale", &deconv3d_bias_floor_scale_npu,
          "conv_transpose3d + clamp(min) + divide");
}
"""
