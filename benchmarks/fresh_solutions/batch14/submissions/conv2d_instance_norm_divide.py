project_json_src='''
[
    {
        "op": "PlaneStandardizeScaleCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
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
            {
                "name": "divisor",
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
BEGIN_TILING_DATA_DEF(PlaneStandardizeTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);        // N * C
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);     // H * W
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, planesTail);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements streamed per tile (multiple of 64)
  TILING_DATA_FIELD_DEF(float, invPlaneSize);
  TILING_DATA_FIELD_DEF(float, invDivisor);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PlaneStandardizeScaleCustom, PlaneStandardizeTilingData)
}
"""

host_operator_src="""
#include "plane_standardize_scale_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 8192;

static uint32_t ChooseTile(uint32_t planeSize)
{
    uint32_t t = (planeSize + 63) / 64 * 64;
    return t < MAX_TILE ? t : MAX_TILE;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    PlaneStandardizeTilingData td;
    const gert::Shape& shp = context->GetInputShape(0)->GetStorageShape();
    if (shp.GetDimNum() < 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t planes = static_cast<uint32_t>(shp.GetDim(0) * shp.GetDim(1));
    uint32_t planeSize = static_cast<uint32_t>(shp.GetShapeSize() / (shp.GetDim(0) * shp.GetDim(1)));

    auto attrs = context->GetAttrs();
    float divisor = *attrs->GetAttrPointer<float>(0);
    const float* epsPtr = attrs->GetAttrPointer<float>(1);

    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = ascendc.GetCoreNumAiv();
    uint32_t used = planes < cores ? planes : cores;
    if (used == 0) {
        used = 1;
    }

    td.set_planes(planes);
    td.set_planeSize(planeSize);
    td.set_planesPerCore(planes / used);
    td.set_planesTail(planes % used);
    td.set_tileLength(ChooseTile(planeSize));
    td.set_invPlaneSize(1.0f / static_cast<float>(planeSize));
    td.set_invDivisor(1.0f / divisor);
    td.set_eps(epsPtr ? *epsPtr : 1e-5f);

    context->SetBlockDim(used);
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
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
    return GRAPH_SUCCESS;
}
}

namespace ops {
class PlaneStandardizeScaleCustom : public OpDef {
public:
    explicit PlaneStandardizeScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("divisor").Float();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PlaneStandardizeScaleCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <HardEvent E>
__aicore__ inline void WaitPipe()
{
    event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
    SetFlag<E>(ev);
    WaitFlag<E>(ev);
}

// Per (n, c) plane: y = (x - mean) / sqrt(var + eps) / divisor.
// Pass 1 streams the plane for sum / sum of squares, pass 2 streams it again to normalise.
template <typename T>
class PlaneStandardizeKernel {
public:
    __aicore__ inline PlaneStandardizeKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const PlaneStandardizeTilingData& td)
    {
        hw = td.planeSize;
        tile = td.tileLength;
        invHw = td.invPlaneSize;
        invDiv = td.invDivisor;
        eps = td.eps;
        uint32_t bid = GetBlockIdx();
        myPlanes = td.planesPerCore + (bid < td.planesTail ? 1 : 0);
        uint64_t first = (uint64_t)bid * td.planesPerCore + (bid < td.planesTail ? bid : td.planesTail);

        xGm.SetGlobalBuffer((__gm__ T*)x + first * hw, (uint64_t)myPlanes * hw);
        yGm.SetGlobalBuffer((__gm__ T*)y + first * hw, (uint64_t)myPlanes * hw);

        pipe.InitBuffer(inQ, BUFFER_NUM, tile * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tile * sizeof(T));
        pipe.InitBuffer(sumAcc, tile * sizeof(float));
        pipe.InitBuffer(sqAcc, tile * sizeof(float));
        pipe.InitBuffer(fbuf, tile * sizeof(float));     // fp32 view of the current tile
        pipe.InitBuffer(scratch, tile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = 0; p < myPlanes; ++p) {
            uint64_t base = (uint64_t)p * hw;
            float mean, scale;
            Statistics(base, mean, scale);
            Normalise(base, mean, scale);
        }
    }

private:
    __aicore__ inline uint32_t TileCount(uint32_t off) const
    {
        return (hw - off) < tile ? (hw - off) : tile;
    }

    __aicore__ inline void Load(uint64_t off, uint32_t n)
    {
        LocalTensor<T> t = inQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(t, xGm[off], cp, pad);
        inQ.EnQue(t);
    }

    // dequeued tile as fp32 (copy or widen)
    __aicore__ inline LocalTensor<float> TakeFloat(uint32_t n)
    {
        LocalTensor<T> t = inQ.DeQue<T>();
        LocalTensor<float> f = fbuf.Get<float>();
        if constexpr (sizeof(T) == 2) {
            Cast(f, t, RoundMode::CAST_NONE, n);
        } else {
            Adds(f, t, 0.0f, n);
        }
        inQ.FreeTensor(t);
        return f;
    }

    __aicore__ inline void Statistics(uint64_t base, float& mean, float& scale)
    {
        LocalTensor<float> s = sumAcc.Get<float>();
        LocalTensor<float> q = sqAcc.Get<float>();
        LocalTensor<float> tmp = scratch.Get<float>();
        Duplicate(s, 0.0f, tile);
        Duplicate(q, 0.0f, tile);
        for (uint32_t off = 0; off < hw; off += tile) {
            uint32_t n = TileCount(off);
            Load(base + off, n);
            LocalTensor<float> f = TakeFloat(n);
            Add(s, s, f, n);
            Mul(tmp, f, f, n);
            Add(q, q, tmp, n);
        }
        ReduceSum(s, s, tmp, tile);
        ReduceSum(q, q, tmp, tile);
        WaitPipe<HardEvent::V_S>();
        mean = s.GetValue(0) * invHw;
        float var = q.GetValue(0) * invHw - mean * mean;
        if (var < 0.0f) {
            var = 0.0f;
        }
        // sqrt on the vector unit
        tmp.SetValue(0, var + eps);
        WaitPipe<HardEvent::S_V>();
        Sqrt(tmp, tmp, 1);
        WaitPipe<HardEvent::V_S>();
        scale = invDiv / tmp.GetValue(0);
        WaitPipe<HardEvent::S_V>();
    }

    __aicore__ inline void Normalise(uint64_t base, float mean, float scale)
    {
        float shift = -mean * scale;
        for (uint32_t off = 0; off < hw; off += tile) {
            uint32_t n = TileCount(off);
            Load(base + off, n);
            LocalTensor<float> f = TakeFloat(n);
            LocalTensor<T> o = outQ.AllocTensor<T>();
            if constexpr (sizeof(T) == 2) {
                Muls(f, f, scale, n);
                Adds(f, f, shift, n);
                Cast(o, f, RoundMode::CAST_ROUND, n);
            } else {
                Muls(o, f, scale, n);
                Adds(o, o, shift, n);
            }
            outQ.EnQue(o);
            o = outQ.DeQue<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm[base + off], o, cp);
            outQ.FreeTensor(o);
        }
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> sumAcc, sqAcc, fbuf, scratch;
    GlobalTensor<T> xGm, yGm;
    uint32_t hw = 0, tile = 0, myPlanes = 0;
    float invHw = 0.0f, invDiv = 1.0f, eps = 1e-5f;
};

extern "C" __global__ __aicore__ void plane_standardize_scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                     GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        PlaneStandardizeKernel<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        PlaneStandardizeKernel<half> op;
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

at::Tensor plane_standardize_scale_npu(const at::Tensor& x, double divisor)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    float d = static_cast<float>(divisor);
    float eps = 1e-5f;
    EXEC_NPU_CMD(aclnnPlaneStandardizeScaleCustom, xc, d, eps, y);
    return y;
}

// Conv2d through ATen, then the fused instance-norm (no affine) and division.
at::Tensor conv2d_plane_standardize_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                        double divisor)
{
    at::Tensor c = at::conv2d(x, weight, bias);
    return plane_standardize_scale_npu(c, divisor);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("plane_standardize_scale_custom", &plane_standardize_scale_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("plane_standardize_scale_custom", &plane_standardize_scale_npu, "instance norm / divisor");
    m.def("conv2d_plane_standardize", &conv2d_plane_standardize_npu, "conv2d + instance norm + divide");
}
"""
