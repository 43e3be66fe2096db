project_json_src='''
[
    {
        "op": "UpsampleGridSampleCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "theta",
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
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(UpsampleGridSampleCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, inWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, planesRemain);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(UpsampleGridSampleCustom, UpsampleGridSampleCustomTilingData)
}
"""

host_operator_src="""
#include "upsample_grid_sample_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    UpsampleGridSampleCustomTilingData tiling;
    auto xs = context->GetInputShape(0)->GetStorageShape();
    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t oh = h * 2, ow = w * 2;              // scale_factor = 2
    uint32_t wAlign = (w + 7) / 8 * 8;
    uint32_t owAlign = (ow + 7) / 8 * 8;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    // resident buffers: source plane, horizontally upsampled plane, full upsampled plane
    uint64_t resident = (uint64_t)h * wAlign * 4 + (uint64_t)h * owAlign * 4 + (uint64_t)oh * owAlign * 4;
    if (resident + owAlign * 4 * 2 + 4096 > ubSize) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = static_cast<uint32_t>((ubSize - resident - 4096) / (2 * owAlign * 4));
    if (rows > 16) rows = 16;
    if (rows > oh) rows = oh;

    uint32_t planes = n * c;
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > planes) cores = planes;
    if (cores == 0) cores = 1;

    tiling.set_channels(c);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_inWAlign(wAlign);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_outWAlign(owAlign);
    tiling.set_rowsPerTile(rows);
    tiling.set_planesPerCore(planes / cores);
    tiling.set_planesRemain(planes % cores);

    context->SetBlockDim(cores);
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
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, x->GetDim(1));
    y->SetDim(2, x->GetDim(2) * 2);
    y->SetDim(3, x->GetDim(3) * 2);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class UpsampleGridSampleCustom : public OpDef {
public:
    explicit UpsampleGridSampleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("theta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(UpsampleGridSampleCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

// y = grid_sample(interpolate(x, 2x, bilinear), affine_grid(theta)), all align_corners=False,
// padding_mode = zeros.
//
// Per (n, c) plane:
//   1. load the source plane into UB
//   2. horizontal 2x bilinear (scalar gather)      -> hBuf  [H,  OW]
//   3. vertical 2x bilinear (vector, row blends)   -> upBuf [OH, OW]
//   4. affine grid + bilinear sample (scalar)      -> output rows, streamed to GM
class KernelUpsampleGridSample {
public:
    __aicore__ inline KernelUpsampleGridSample() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR theta, GM_ADDR y,
                                const UpsampleGridSampleCustomTilingData& t)
    {
        C = t.channels; H = t.inH; W = t.inW; WA = t.inWAlign;
        OH = t.outH; OW = t.outW; OWA = t.outWAlign; rowsPerTile = t.rowsPerTile;

        uint32_t id = GetBlockIdx();
        planeCnt = t.planesPerCore + (id < t.planesRemain ? 1 : 0);
        planeBeg = id * t.planesPerCore + (id < t.planesRemain ? id : t.planesRemain);

        xGm.SetGlobalBuffer((__gm__ float*)x);
        thetaGm.SetGlobalBuffer((__gm__ float*)theta);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(inQ, 1, H * WA * sizeof(float));
        pipe.InitBuffer(hBuf, H * OWA * sizeof(float));
        pipe.InitBuffer(upBuf, OH * OWA * sizeof(float));
        pipe.InitBuffer(outQ, 2, rowsPerTile * OWA * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = 0; p < planeCnt; ++p) {
            uint32_t plane = planeBeg + p;
            uint32_t n = plane / C;
            for (int i = 0; i < 6; ++i) {
                th[i] = thetaGm.GetValue(n * 6 + i);
            }
            LoadPlane(plane);
            Upsample();
            for (uint32_t r0 = 0; r0 < OH; r0 += rowsPerTile) {
                uint32_t rows = (OH - r0 < rowsPerTile) ? (OH - r0) : rowsPerTile;
                Sample(r0, rows);
                Store(plane, r0, rows);
            }
        }
    }

private:
    __aicore__ inline int32_t FloorI(float v)
    {
        int32_t i = static_cast<int32_t>(v);
        return (v < static_cast<float>(i)) ? i - 1 : i;
    }

    // PyTorch area_pixel_compute_source_index for scale 0.5, align_corners = False
    __aicore__ inline void SrcIndex(uint32_t dst, uint32_t inSize, uint32_t& i0, uint32_t& i1, float& lam)
    {
        float s = 0.5f * (static_cast<float>(dst) + 0.5f) - 0.5f;
        if (s < 0.0f) s = 0.0f;
        i0 = static_cast<uint32_t>(s);
        if (i0 > inSize - 1) i0 = inSize - 1;
        i1 = (i0 + 1 < inSize) ? i0 + 1 : i0;
        lam = s - static_cast<float>(i0);
    }

    __aicore__ inline void LoadPlane(uint32_t plane)
    {
        LocalTensor<float> src = inQ.AllocTensor<float>();
        DataCopyExtParams cp{static_cast<uint16_t>(H), static_cast<uint32_t>(W * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(src, xGm[(uint64_t)plane * H * W], cp, pad);
        inQ.EnQue(src);
    }

    __aicore__ inline void Upsample()
    {
        LocalTensor<float> src = inQ.DeQue<float>();
        LocalTensor<float> hl = hBuf.Get<float>();
        LocalTensor<float> up = upBuf.Get<float>();

        // the previous plane's vector work on upBuf must be done before scalar writes to hBuf
        event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);

        // horizontal pass
        for (uint32_t ox = 0; ox < OW; ++ox) {
            uint32_t x0, x1;
            float lx;
            SrcIndex(ox, W, x0, x1, lx);
            for (uint32_t r = 0; r < H; ++r) {
                float a = src.GetValue(r * WA + x0);
                float b = src.GetValue(r * WA + x1);
                hl.SetValue(r * OWA + ox, a + (b - a) * lx);
            }
        }
        inQ.FreeTensor(src);

        event_t evSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);

        // vertical pass: up[oy] = h[y0] * (1 - ly) + h[y1] * ly, whole rows at once
        for (uint32_t oy = 0; oy < OH; ++oy) {
            uint32_t y0, y1;
            float ly;
            SrcIndex(oy, H, y0, y1, ly);
            LocalTensor<float> dst = up[oy * OWA];
            Muls(dst, hl[y0 * OWA], 1.0f - ly, OWA);
            Axpy(dst, hl[y1 * OWA], ly, OWA);
        }

        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
    }

    __aicore__ inline float Tap(const LocalTensor<float>& up, int32_t yy, int32_t xx)
    {
        if (yy < 0 || xx < 0 || yy >= static_cast<int32_t>(OH) || xx >= static_cast<int32_t>(OW)) {
            return 0.0f;  // zeros padding
        }
        return up.GetValue(static_cast<uint32_t>(yy) * OWA + static_cast<uint32_t>(xx));
    }

    __aicore__ inline void Sample(uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> up = upBuf.Get<float>();
        LocalTensor<float> out = outQ.AllocTensor<float>();
        float fw = static_cast<float>(OW);
        float fh = static_cast<float>(OH);

        for (uint32_t r = 0; r < rows; ++r) {
            float by = (2.0f * static_cast<float>(r0 + r) + 1.0f) / fh - 1.0f;
            for (uint32_t c = 0; c < OW; ++c) {
                float bx = (2.0f * static_cast<float>(c) + 1.0f) / fw - 1.0f;
                float gx = th[0] * bx + th[1] * by + th[2];
                float gy = th[3] * bx + th[4] * by + th[5];
                // unnormalize, align_corners = False
                float ix = ((gx + 1.0f) * fw - 1.0f) * 0.5f;
                float iy = ((gy + 1.0f) * fh - 1.0f) * 0.5f;
                int32_t x0 = FloorI(ix);
                int32_t y0 = FloorI(iy);
                float wx = ix - static_cast<float>(x0);
                float wy = iy - static_cast<float>(y0);
                float v = Tap(up, y0, x0) * (1.0f - wx) * (1.0f - wy)
                        + Tap(up, y0, x0 + 1) * wx * (1.0f - wy)
                        + Tap(up, y0 + 1, x0) * (1.0f - wx) * wy
                        + Tap(up, y0 + 1, x0 + 1) * wx * wy;
                out.SetValue(r * OWA + c, v);
            }
        }
        outQ.EnQue(out);
    }

    __aicore__ inline void Store(uint32_t plane, uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> out = outQ.DeQue<float>();
        DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(OW * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[(uint64_t)plane * OH * OW + (uint64_t)r0 * OW], out, cp);
        outQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> hBuf, upBuf;
    GlobalTensor<float> xGm, thetaGm, yGm;
    float th[6];
    uint32_t C, H, W, WA, OH, OW, OWA, rowsPerTile;
    uint32_t planeBeg, planeCnt;
};

extern "C" __global__ __aicore__ void upsample_grid_sample_custom(GM_ADDR x, GM_ADDR theta, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelUpsampleGridSample op;
    op.Init(x, theta, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor upsample_grid_sample_custom_impl_npu(const at::Tensor& x, const at::Tensor& theta)
{
    at::Tensor xc = x.contiguous();
    at::Tensor tc = theta.to(x.dtype()).contiguous();
    at::Tensor result = at::empty({xc.size(0), xc.size(1), xc.size(2) * 2, xc.size(3) * 2}, xc.options());
    EXEC_NPU_CMD(aclnnUpsampleGridSampleCustom, xc, tc, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("upsample_grid_sample_custom", &upsample_grid_sample_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("upsample_grid_sample_custom", &upsample_grid_sample_custom_impl_npu,
          "bilinear 2x upsample followed by affine grid_sample");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x, theta):
        return custom_ops_lib.upsample_grid_sample_custom(x, theta)
'''
