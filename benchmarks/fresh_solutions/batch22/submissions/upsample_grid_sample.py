project_json_src='''
[
    {
        "op": "DoubledAffineResampleCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "theta",
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
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DoubledAffineResampleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, totalPlanes);
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, planeAlign);
  TILING_DATA_FIELD_DEF(uint32_t, rowAlign);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DoubledAffineResampleCustom, DoubledAffineResampleTilingData)
}
"""

host_operator_src="""
#include "doubled_affine_resample_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t SCALE = 2;
constexpr uint32_t ALIGN_ELEMS = 16;   // 32B for half, 64B for float: safe for both dtypes

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

struct ResampleTilingHelper {
    uint32_t planes;
    uint32_t cores;
    void Plan(uint32_t coreLimit)
    {
        cores = planes < coreLimit ? planes : coreLimit;
        if (cores == 0) {
            cores = 1;
        }
    }
    uint32_t PerCore() const { return (planes + cores - 1) / cores; }
};
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    DoubledAffineResampleTilingData tiling;
    const gert::Shape &xs = context->GetInputShape(0)->GetOriginShape();
    if (xs.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0);
    uint32_t c = xs.GetDim(1);
    uint32_t h = xs.GetDim(2);
    uint32_t w = xs.GetDim(3);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    ResampleTilingHelper helper{n * c, 1};
    helper.Plan(plat.GetCoreNumAiv());

    tiling.set_batch(n);
    tiling.set_channels(c);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_outH(h * SCALE);
    tiling.set_outW(w * SCALE);
    tiling.set_totalPlanes(n * c);
    tiling.set_planesPerCore(helper.PerCore());
    tiling.set_planeAlign(AlignUp(h * w, ALIGN_ELEMS));
    tiling.set_rowAlign(AlignUp(w * SCALE, ALIGN_ELEMS));

    context->SetBlockDim(helper.cores);
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, xs->GetDim(1));
    ys->SetDim(2, xs->GetDim(2) * 2);
    ys->SetDim(3, xs->GetDim(3) * 2);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class DoubledAffineResampleCustom : public OpDef {
public:
    explicit DoubledAffineResampleCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("theta")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(DoubledAffineResampleCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Bilinear helpers working on a float source plane held in UB.
struct PlaneSampler {
    AscendC::LocalTensor<float> plane;
    int32_t h;
    int32_t w;

    // value of the x2 bilinear upsample (align_corners=False) at integer position (u, v)
    __aicore__ inline float Upsampled(int32_t u, int32_t v) const
    {
        float sy = (static_cast<float>(u) + 0.5f) * 0.5f - 0.5f;
        float sx = (static_cast<float>(v) + 0.5f) * 0.5f - 0.5f;
        if (sy < 0.0f) sy = 0.0f;
        if (sx < 0.0f) sx = 0.0f;
        int32_t y0 = static_cast<int32_t>(sy);
        int32_t x0 = static_cast<int32_t>(sx);
        int32_t y1 = (y0 + 1 < h) ? y0 + 1 : h - 1;
        int32_t x1 = (x0 + 1 < w) ? x0 + 1 : w - 1;
        float ly = sy - static_cast<float>(y0);
        float lx = sx - static_cast<float>(x0);
        float top = plane.GetValue(y0 * w + x0) * (1.0f - lx) + plane.GetValue(y0 * w + x1) * lx;
        float bot = plane.GetValue(y1 * w + x0) * (1.0f - lx) + plane.GetValue(y1 * w + x1) * lx;
        return top * (1.0f - ly) + bot * ly;
    }

    // grid_sample tap on the upsampled image with zero padding
    __aicore__ inline float Tap(int32_t u, int32_t v, int32_t hu, int32_t wu) const
    {
        if (u < 0 || v < 0 || u >= hu || v >= wu) {
            return 0.0f;
        }
        return Upsampled(u, v);
    }
};

__aicore__ inline int32_t FloorToInt(float v)
{
    int32_t i = static_cast<int32_t>(v);
    return (static_cast<float>(i) > v) ? i - 1 : i;
}

template <typename T>
class DoubledAffineResample {
public:
    __aicore__ inline DoubledAffineResample() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR theta, GM_ADDR y, const DoubledAffineResampleTilingData &td)
    {
        batch = td.batch;
        channels = td.channels;
        inH = td.inH;
        inW = td.inW;
        outH = td.outH;
        outW = td.outW;
        planeAlign = td.planeAlign;
        rowAlign = td.rowAlign;
        uint32_t first = AscendC::GetBlockIdx() * td.planesPerCore;
        planeBegin = first;
        planeEnd = first + td.planesPerCore;
        if (planeEnd > td.totalPlanes) planeEnd = td.totalPlanes;

        xGm.SetGlobalBuffer((__gm__ T *)x);
        thetaGm.SetGlobalBuffer((__gm__ T *)theta);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        pipe.InitBuffer(planeQue, 1, planeAlign * sizeof(T));
        pipe.InitBuffer(planeF32, planeAlign * sizeof(float));
        pipe.InitBuffer(rowF32, rowAlign * sizeof(float));
        pipe.InitBuffer(outQue, BUFFER_NUM, rowAlign * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = planeBegin; p < planeEnd; ++p) {
            LoadPlane(p);
            uint32_t n = p / channels;
            float t[6];
            for (int32_t k = 0; k < 6; ++k) {
                t[k] = ToFloat(thetaGm.GetValue(n * 6 + k));
            }
            for (uint32_t r = 0; r < outH; ++r) {
                ComputeRow(r, t);
                StoreRow(p, r);
            }
        }
    }

private:
    __aicore__ inline float ToFloat(T v)
    {
        if constexpr (std::is_same<T, float>::value) {
            return v;
        } else {
            return static_cast<float>(v);
        }
    }

    __aicore__ inline void LoadPlane(uint32_t p)
    {
        uint32_t count = inH * inW;
        AscendC::LocalTensor<T> raw = planeQue.AllocTensor<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(raw, xGm[static_cast<uint64_t>(p) * count], cp, pad);
        planeQue.EnQue(raw);
        raw = planeQue.DeQue<T>();
        AscendC::LocalTensor<float> fp = planeF32.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::DataCopy(fp, raw, planeAlign);
        } else {
            AscendC::Cast(fp, raw, AscendC::RoundMode::CAST_NONE, planeAlign);
        }
        planeQue.FreeTensor(raw);
        // scalar unit reads the plane below
        AscendC::PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void ComputeRow(uint32_t r, const float *t)
    {
        PlaneSampler s{planeF32.Get<float>(), static_cast<int32_t>(inH), static_cast<int32_t>(inW)};
        AscendC::LocalTensor<float> row = rowF32.Get<float>();
        int32_t hu = static_cast<int32_t>(outH);
        int32_t wu = static_cast<int32_t>(outW);
        float ys = (2.0f * r + 1.0f) / static_cast<float>(outH) - 1.0f;
        for (uint32_t j = 0; j < outW; ++j) {
            float xs = (2.0f * j + 1.0f) / static_cast<float>(outW) - 1.0f;
            float gx = t[0] * xs + t[1] * ys + t[2];
            float gy = t[3] * xs + t[4] * ys + t[5];
            float ix = ((gx + 1.0f) * outW - 1.0f) * 0.5f;
            float iy = ((gy + 1.0f) * outH - 1.0f) * 0.5f;
            int32_t x0 = FloorToInt(ix);
            int32_t y0 = FloorToInt(iy);
            float wx1 = ix - static_cast<float>(x0);
            float wy1 = iy - static_cast<float>(y0);
            float wx0 = 1.0f - wx1;
            float wy0 = 1.0f - wy1;
            float v = s.Tap(y0, x0, hu, wu) * wy0 * wx0 + s.Tap(y0, x0 + 1, hu, wu) * wy0 * wx1 +
                      s.Tap(y0 + 1, x0, hu, wu) * wy1 * wx0 + s.Tap(y0 + 1, x0 + 1, hu, wu) * wy1 * wx1;
            row.SetValue(j, v);
        }
        AscendC::PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void StoreRow(uint32_t p, uint32_t r)
    {
        AscendC::LocalTensor<float> row = rowF32.Get<float>();
        AscendC::LocalTensor<T> out = outQue.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::DataCopy(out, row, rowAlign);
        } else {
            AscendC::Cast(out, row, AscendC::RoundMode::CAST_ROUND, rowAlign);
        }
        outQue.EnQue(out);
        out = outQue.DeQue<T>();
        uint64_t dst = (static_cast<uint64_t>(p) * outH + r) * outW;
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(outW * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[dst], out, cp);
        outQue.FreeTensor(out);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> planeQue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> planeF32;   // source plane promoted to fp32
    AscendC::TBuf<AscendC::TPosition::VECCALC> rowF32;     // one output row in fp32
    AscendC::GlobalTensor<T> xGm, thetaGm, yGm;
    uint32_t batch, channels, inH, inW, outH, outW;
    uint32_t planeAlign, rowAlign, planeBegin, planeEnd;
};

extern "C" __global__ __aicore__ void doubled_affine_resample_custom(GM_ADDR x, GM_ADDR theta, GM_ADDR y,
                                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        DoubledAffineResample<float> op;
        op.Init(x, theta, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        DoubledAffineResample<half> op;
        op.Init(x, theta, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor doubled_affine_resample_impl_npu(const at::Tensor& x, const at::Tensor& theta)
{
    TORCH_CHECK(x.dim() == 4, "x must be NCHW");
    TORCH_CHECK(theta.dim() == 3 && theta.size(1) == 2 && theta.size(2) == 3, "theta must be (N, 2, 3)");
    at::Tensor xc = x.contiguous();
    at::Tensor tc = theta.to(x.scalar_type()).contiguous();
    at::Tensor y = at::empty({x.size(0), x.size(1), x.size(2) * 2, x.size(3) * 2}, x.options());
    EXEC_NPU_CMD(aclnnDoubledAffineResampleCustom, xc, tc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("doubled_affine_resample_custom", &doubled_affine_resample_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("doubled_affine_resample_custom", &doubled_affine_resample_impl_npu,
          "bilinear x2 upsample followed by affine grid sampling");
}
"""
