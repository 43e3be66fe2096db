project_json_src='''
[
    {
        "op": "BilinearUpsampleCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
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
                "name": "scale_factor",
                "param_type": "optional",
                "type": "float",
                "default_value": "2.0"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BilinearUpsampleCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);         // N * C
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);    // output rows per store
  TILING_DATA_FIELD_DEF(float, invScaleH);         // 1 / scale_factor used for coordinate mapping
  TILING_DATA_FIELD_DEF(float, invScaleW);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BilinearUpsampleCustom, BilinearUpsampleCustomTilingData)
}
"""

host_operator_src="""
#include <cmath>
#include "bilinear_upsample_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    BilinearUpsampleCustomTilingData tiling;
    const auto& shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    float scale = 2.0f;
    auto attrs = context->GetAttrs();
    if (attrs != nullptr && attrs->GetFloat(0) != nullptr) {
        scale = *attrs->GetFloat(0);
    }
    uint32_t planes = shape.GetDim(0) * shape.GetDim(1);
    uint32_t inH = shape.GetDim(2);
    uint32_t inW = shape.GetDim(3);
    uint32_t outH = static_cast<uint32_t>(std::floor(inH * scale));
    uint32_t outW = static_cast<uint32_t>(std::floor(inW * scale));
    // horizontally interpolated rows are addressed by row inside UB
    if (outW % 8 != 0 || outH == 0) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    uint32_t rowsPerTile = 16;
    if (rowsPerTile > outH) {
        rowsPerTile = outH;
    }
    uint64_t planeBytes = ((uint64_t)inH * inW + 8) * sizeof(float);
    uint64_t need = planeBytes * 2                                  // double-buffered input plane
                  + (uint64_t)inH * outW * sizeof(float)            // horizontal pass result
                  + (uint64_t)rowsPerTile * outW * sizeof(float) * 2
                  + (uint64_t)outW * sizeof(float) * 6 + 1024;
    if (need > ubSize) {
        return ge::GRAPH_FAILED;
    }

    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t planesPerCore = (planes + coreNum - 1) / coreNum;
    uint32_t blockDim = (planes + planesPerCore - 1) / planesPerCore;

    tiling.set_planes(planes);
    tiling.set_inH(inH);
    tiling.set_inW(inW);
    tiling.set_outH(outH);
    tiling.set_outW(outW);
    tiling.set_planesPerCore(planesPerCore);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_invScaleH(1.0f / scale);
    tiling.set_invScaleW(1.0f / scale);

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
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    float scale = 2.0f;
    auto attrs = context->GetAttrs();
    if (attrs != nullptr && attrs->GetFloat(0) != nullptr) {
        scale = *attrs->GetFloat(0);
    }
    yShape->SetDimNum(4);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, xShape->GetDim(1));
    yShape->SetDim(2, static_cast<int64_t>(std::floor(xShape->GetDim(2) * scale)));
    yShape->SetDim(3, static_cast<int64_t>(std::floor(xShape->GetDim(3) * scale)));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class BilinearUpsampleCustom : public OpDef {
public:
    explicit BilinearUpsampleCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scale_factor").AttrType(OPTIONAL).Float(2.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(BilinearUpsampleCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Separable bilinear resize (align_corners = False).
// Column taps/weights are the same for every row and every plane, so they are
// computed once into UB: idx0/idx1 hold byte offsets for Gather, wl/wr the weights.
// Each plane is loaded whole, interpolated horizontally row by row (two Gathers
// + weighted sum), then every output row is a blend of two of those rows.
class KernelBilinearUpsample {
public:
    __aicore__ inline KernelBilinearUpsample() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const BilinearUpsampleCustomTilingData& t)
    {
        inH = t.inH;
        inW = t.inW;
        outH = t.outH;
        outW = t.outW;
        rowsPerTile = t.rowsPerTile;
        invScaleH = t.invScaleH;
        invScaleW = t.invScaleW;
        planeIn = inH * inW;
        planeOut = outH * outW;

        planeBegin = AscendC::GetBlockIdx() * t.planesPerCore;
        planeEnd = planeBegin + t.planesPerCore;
        if (planeEnd > t.planes) {
            planeEnd = t.planes;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        uint32_t planeAlloc = (planeIn + 7) / 8 * 8;
        pipe.InitBuffer(inQue, BUFFER_NUM, planeAlloc * sizeof(float));
        pipe.InitBuffer(outQue, BUFFER_NUM, rowsPerTile * outW * sizeof(float));
        pipe.InitBuffer(hBuf, inH * outW * sizeof(float));
        pipe.InitBuffer(idx0Buf, outW * sizeof(uint32_t));
        pipe.InitBuffer(idx1Buf, outW * sizeof(uint32_t));
        pipe.InitBuffer(wlBuf, outW * sizeof(float));
        pipe.InitBuffer(wrBuf, outW * sizeof(float));
        pipe.InitBuffer(g0Buf, outW * sizeof(float));
        pipe.InitBuffer(g1Buf, outW * sizeof(float));

        BuildColumnTable();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = planeBegin; p < planeEnd; ++p) {
            LoadPlane(p);
            HorizontalPass();
            VerticalPass(p);
        }
    }

private:
    // PyTorch area-pixel source index, clamped at 0 (align_corners = False)
    __aicore__ inline float SourceCoord(uint32_t dst, float invScale)
    {
        float src = ((float)dst + 0.5f) * invScale - 0.5f;
        return src < 0.0f ? 0.0f : src;
    }

    __aicore__ inline void BuildColumnTable()
    {
        AscendC::LocalTensor<uint32_t> idx0 = idx0Buf.Get<uint32_t>();
        AscendC::LocalTensor<uint32_t> idx1 = idx1Buf.Get<uint32_t>();
        AscendC::LocalTensor<float> wl = wlBuf.Get<float>();
        AscendC::LocalTensor<float> wr = wrBuf.Get<float>();
        for (uint32_t ox = 0; ox < outW; ++ox) {
            float sx = SourceCoord(ox, invScaleW);
            uint32_t x0 = (uint32_t)sx;
            if (x0 > inW - 1) {
                x0 = inW - 1;
            }
            uint32_t x1 = (x0 + 1 < inW) ? x0 + 1 : inW - 1;
            float lambda = sx - (float)x0;
            idx0.SetValue(ox, x0 * (uint32_t)sizeof(float));
            idx1.SetValue(ox, x1 * (uint32_t)sizeof(float));
            wl.SetValue(ox, 1.0f - lambda);
            wr.SetValue(ox, lambda);
        }
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(ev);
    }

    __aicore__ inline void LoadPlane(uint32_t p)
    {
        AscendC::LocalTensor<float> plane = inQue.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, planeIn * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(plane, xGm[(uint64_t)p * planeIn], cp, pad);
        inQue.EnQue(plane);
    }

    __aicore__ inline void HorizontalPass()
    {
        AscendC::LocalTensor<float> plane = inQue.DeQue<float>();
        AscendC::LocalTensor<float> hRows = hBuf.Get<float>();
        AscendC::LocalTensor<uint32_t> idx0 = idx0Buf.Get<uint32_t>();
        AscendC::LocalTensor<uint32_t> idx1 = idx1Buf.Get<uint32_t>();
        AscendC::LocalTensor<float> wl = wlBuf.Get<float>();
        AscendC::LocalTensor<float> wr = wrBuf.Get<float>();
        AscendC::LocalTensor<float> g0 = g0Buf.Get<float>();
        AscendC::LocalTensor<float> g1 = g1Buf.Get<float>();

        for (uint32_t r = 0; r < inH; ++r) {
            uint32_t rowBase = r * inW * (uint32_t)sizeof(float);
            AscendC::Gather(g0, plane, idx0, rowBase, outW);
            AscendC::Gather(g1, plane, idx1, rowBase, outW);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Mul(g0, g0, wl, outW);
            AscendC::Mul(g1, g1, wr, outW);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Add(hRows[r * outW], g0, g1, outW);
            AscendC::PipeBarrier<PIPE_V>();
        }
        inQue.FreeTensor(plane);
    }

    __aicore__ inline void VerticalPass(uint32_t p)
    {
        AscendC::LocalTensor<float> hRows = hBuf.Get<float>();
        uint64_t outBase = (uint64_t)p * planeOut;
        for (uint32_t oy0 = 0; oy0 < outH; oy0 += rowsPerTile) {
            uint32_t rows = outH - oy0;
            if (rows > rowsPerTile) {
                rows = rowsPerTile;
            }
            AscendC::LocalTensor<float> outT = outQue.AllocTensor<float>();
            for (uint32_t r = 0; r < rows; ++r) {
                float sy = SourceCoord(oy0 + r, invScaleH);
                uint32_t y0 = (uint32_t)sy;
                if (y0 > inH - 1) {
                    y0 = inH - 1;
                }
                uint32_t y1 = (y0 + 1 < inH) ? y0 + 1 : inH - 1;
                float ly = sy - (float)y0;
                AscendC::LocalTensor<float> dst = outT[r * outW];
                AscendC::Muls(dst, hRows[y0 * outW], 1.0f - ly, outW);
                AscendC::PipeBarrier<PIPE_V>();
                AscendC::Axpy(dst, hRows[y1 * outW], ly, outW);
            }
            outQue.EnQue(outT);

            AscendC::LocalTensor<float> st = outQue.DeQue<float>();
            AscendC::DataCopy(yGm[outBase + (uint64_t)oy0 * outW], st, rows * outW);
            outQue.FreeTensor(st);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> hBuf, idx0Buf, idx1Buf, wlBuf, wrBuf, g0Buf, g1Buf;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t inH = 0, inW = 0, outH = 0, outW = 0;
    uint32_t planeIn = 0, planeOut = 0;
    uint32_t planeBegin = 0, planeEnd = 0;
    uint32_t rowsPerTile = 0;
    float invScaleH = 0.5f, invScaleW = 0.5f;
};

extern "C" __global__ __aicore__ void bilinear_upsample_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelBilinearUpsample op;
    op.Init(x, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <cmath>

at::Tensor bilinear_upsample_custom_impl_npu(const at::Tensor& x, double scaleFactor)
{
    TORCH_CHECK(x.dim() == 4, "expected NCHW input");
    at::Tensor input = x.contiguous();
    int64_t outH = static_cast<int64_t>(std::floor(input.size(2) * scaleFactor));
    int64_t outW = static_cast<int64_t>(std::floor(input.size(3) * scaleFactor));
    at::Tensor y = at::empty({input.size(0), input.size(1), outH, outW}, input.options());
    EXEC_NPU_CMD(aclnnBilinearUpsampleCustom, input, scaleFactor, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("bilinear_upsample_custom", &bilinear_upsample_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("bilinear_upsample_custom", &bilinear_upsample_custom_impl_npu,
          "bilinear upsampling, align_corners=False",
          pybind11::arg("x"), pybind11::arg("scale_factor") = 2.0);
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def forward(self, x):
        return custom_ops_lib.bilinear_upsample_custom(x, 2.0)
'''
