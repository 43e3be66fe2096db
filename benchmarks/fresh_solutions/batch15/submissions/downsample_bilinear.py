project_json_src='''
[
    {
        "op": "DownsampleBilinearCustom",
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
                "name": "out_h",
                "param_type": "optional",
                "type": "int",
                "default_value": "60"
            },
            {
                "name": "out_w",
                "param_type": "optional",
                "type": "int",
                "default_value": "80"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DownsampleBilinearCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);        // N * C
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, inWAlign);      // inW rounded to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);     // outW rounded to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerChunk);  // output rows buffered before one store
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(float, scaleH);           // inH / outH (align_corners = False)
  TILING_DATA_FIELD_DEF(float, scaleW);           // inW / outW
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DownsampleBilinearCustom, DownsampleBilinearCustomTilingData)
}
"""

host_operator_src="""
#include <algorithm>
#include "downsample_bilinear_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t Align8(uint32_t v) { return (v + 7U) / 8U * 8U; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    DownsampleBilinearCustomTilingData tiling;
    const gert::Shape& xs = context->GetInputShape(0)->GetOriginShape();
    if (xs.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    uint32_t outH = static_cast<uint32_t>(*attrs->GetInt(0));
    uint32_t outW = static_cast<uint32_t>(*attrs->GetInt(1));
    uint32_t planes = xs.GetDim(0) * xs.GetDim(1);
    uint32_t inH = xs.GetDim(2);
    uint32_t inW = xs.GetDim(3);
    if (outH == 0 || outW == 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t inWAlign = Align8(inW);
    uint32_t outWAlign = Align8(outW);

    // UB plan (floats): 2 x (two input rows) + blended row + 3 x outW work
    // + 3 x outW index/weight tables + 2 x output chunk.
    const uint32_t ubFloats = 176 * 1024 / sizeof(float);
    uint32_t fixed = 2 * 2 * inWAlign + inWAlign + 6 * outWAlign;
    if (fixed >= ubFloats) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rowsPerChunk = (ubFloats - fixed) / (2 * outWAlign);
    rowsPerChunk = std::max<uint32_t>(1, std::min(rowsPerChunk, outH));

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t planesPerCore = (planes + coreNum - 1) / coreNum;
    uint32_t blockDim = (planes + planesPerCore - 1) / planesPerCore;
    context->SetBlockDim(blockDim);

    tiling.set_planes(planes);
    tiling.set_inH(inH);
    tiling.set_inW(inW);
    tiling.set_outH(outH);
    tiling.set_outW(outW);
    tiling.set_inWAlign(inWAlign);
    tiling.set_outWAlign(outWAlign);
    tiling.set_rowsPerChunk(rowsPerChunk);
    tiling.set_planesPerCore(planesPerCore);
    tiling.set_scaleH(static_cast<float>(inH) / static_cast<float>(outH));
    tiling.set_scaleW(static_cast<float>(inW) / static_cast<float>(outW));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    auto attrs = context->GetAttrs();
    *yShape = *xShape;
    yShape->SetDim(2, *attrs->GetInt(0));
    yShape->SetDim(3, *attrs->GetInt(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class DownsampleBilinearCustom : public OpDef {
public:
    explicit DownsampleBilinearCustom(const char* name) : OpDef(name)
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
        this->Attr("out_h").AttrType(OPTIONAL).Int(60);
        this->Attr("out_w").AttrType(OPTIONAL).Int(80);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(DownsampleBilinearCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Bilinear resize, align_corners = False (PyTorch semantics):
//   src = max((dst + 0.5) * scale - 0.5, 0), i0 = floor(src), i1 = min(i0 + 1, in - 1)
// Each core walks over whole N*C planes. For one output row we load the two
// contributing input rows, blend them vertically into one row, then use Gather
// with precomputed byte offsets (x0, x1) and the lambda table to do the
// horizontal pass on the vector unit.
class KernelDownsampleBilinear {
public:
    __aicore__ inline KernelDownsampleBilinear() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const DownsampleBilinearCustomTilingData& td)
    {
        inH = td.inH;
        inW = td.inW;
        outH = td.outH;
        outW = td.outW;
        inWAlign = td.inWAlign;
        outWAlign = td.outWAlign;
        rowsPerChunk = td.rowsPerChunk;
        scaleH = td.scaleH;
        scaleW = td.scaleW;

        planeBegin = GetBlockIdx() * td.planesPerCore;
        planeEnd = planeBegin + td.planesPerCore;
        if (planeEnd > td.planes) {
            planeEnd = td.planes;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)td.planes * inH * inW);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)td.planes * outH * outW);

        pipe.InitBuffer(rowQue, BUFFER_NUM, 2 * inWAlign * sizeof(float));
        pipe.InitBuffer(outQue, BUFFER_NUM, rowsPerChunk * outWAlign * sizeof(float));
        pipe.InitBuffer(mixBuf, inWAlign * sizeof(float));
        pipe.InitBuffer(off0Buf, outWAlign * sizeof(uint32_t));
        pipe.InitBuffer(off1Buf, outWAlign * sizeof(uint32_t));
        pipe.InitBuffer(lamBuf, outWAlign * sizeof(float));
        pipe.InitBuffer(g0Buf, outWAlign * sizeof(float));
        pipe.InitBuffer(g1Buf, outWAlign * sizeof(float));

        BuildColumnTables();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = planeBegin; p < planeEnd; ++p) {
            for (uint32_t r0 = 0; r0 < outH; r0 += rowsPerChunk) {
                uint32_t nr = (r0 + rowsPerChunk <= outH) ? rowsPerChunk : (outH - r0);
                ComputeChunk(p, r0, nr);
                StoreChunk(p, r0, nr);
            }
        }
    }

private:
    // horizontal source indices / weights are the same for every row and plane
    __aicore__ inline void BuildColumnTables()
    {
        LocalTensor<uint32_t> off0 = off0Buf.Get<uint32_t>();
        LocalTensor<uint32_t> off1 = off1Buf.Get<uint32_t>();
        LocalTensor<float> lam = lamBuf.Get<float>();
        for (uint32_t ox = 0; ox < outW; ++ox) {
            float sx = (static_cast<float>(ox) + 0.5f) * scaleW - 0.5f;
            if (sx < 0.0f) {
                sx = 0.0f;
            }
            uint32_t x0 = static_cast<uint32_t>(sx);
            if (x0 > inW - 1) {
                x0 = inW - 1;
            }
            uint32_t x1 = (x0 + 1 < inW) ? x0 + 1 : inW - 1;
            off0.SetValue(ox, x0 * sizeof(float));
            off1.SetValue(ox, x1 * sizeof(float));
            lam.SetValue(ox, sx - static_cast<float>(x0));
        }
        // scalar writes must land before the vector unit reads the tables
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void LoadRows(uint32_t plane, uint32_t ya, uint32_t yb)
    {
        LocalTensor<float> rows = rowQue.AllocTensor<float>();
        uint64_t base = (uint64_t)plane * inH * inW;
        DataCopyExtParams cp{1, static_cast<uint32_t>(inW * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(rows, xGm[base + (uint64_t)ya * inW], cp, pad);
        DataCopyPad(rows[inWAlign], xGm[base + (uint64_t)yb * inW], cp, pad);
        rowQue.EnQue(rows);
    }

    __aicore__ inline void ComputeChunk(uint32_t plane, uint32_t r0, uint32_t nr)
    {
        LocalTensor<float> outLocal = outQue.AllocTensor<float>();
        LocalTensor<float> mix = mixBuf.Get<float>();
        LocalTensor<uint32_t> off0 = off0Buf.Get<uint32_t>();
        LocalTensor<uint32_t> off1 = off1Buf.Get<uint32_t>();
        LocalTensor<float> lam = lamBuf.Get<float>();
        LocalTensor<float> g0 = g0Buf.Get<float>();
        LocalTensor<float> g1 = g1Buf.Get<float>();

        for (uint32_t i = 0; i < nr; ++i) {
            uint32_t oy = r0 + i;
            float sy = (static_cast<float>(oy) + 0.5f) * scaleH - 0.5f;
            if (sy < 0.0f) {
                sy = 0.0f;
            }
            uint32_t y0 = static_cast<uint32_t>(sy);
            if (y0 > inH - 1) {
                y0 = inH - 1;
            }
            uint32_t y1 = (y0 + 1 < inH) ? y0 + 1 : inH - 1;
            float ly = sy - static_cast<float>(y0);

            LoadRows(plane, y0, y1);
            LocalTensor<float> rows = rowQue.DeQue<float>();
            // vertical blend: mix = (1 - ly) * row0 + ly * row1
            Muls(mix, rows, 1.0f - ly, inW);
            Axpy(mix, rows[inWAlign], ly, inW);
            rowQue.FreeTensor(rows);

            // horizontal blend: out = g0 + lx * (g1 - g0)
            Gather(g0, mix, off0, (uint32_t)0, outW);
            Gather(g1, mix, off1, (uint32_t)0, outW);
            Sub(g1, g1, g0, outW);
            Mul(g1, g1, lam, outW);
            Add(outLocal[i * outWAlign], g0, g1, outW);
        }
        outQue.EnQue(outLocal);
    }

    __aicore__ inline void StoreChunk(uint32_t plane, uint32_t r0, uint32_t nr)
    {
        LocalTensor<float> outLocal = outQue.DeQue<float>();
        uint64_t dst = (uint64_t)plane * outH * outW + (uint64_t)r0 * outW;
        // each UB row starts on a 32B boundary; GM rows are packed
        DataCopyExtParams cp{static_cast<uint16_t>(nr), static_cast<uint32_t>(outW * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[dst], outLocal, cp);
        outQue.FreeTensor(outLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<TPosition::VECCALC> mixBuf, off0Buf, off1Buf, lamBuf, g0Buf, g1Buf;
    GlobalTensor<float> xGm, yGm;

    uint32_t inH, inW, outH, outW;
    uint32_t inWAlign, outWAlign, rowsPerChunk;
    uint32_t planeBegin, planeEnd;
    float scaleH, scaleW;
};

extern "C" __global__ __aicore__ void downsample_bilinear_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelDownsampleBilinear op;
    op.Init(x, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor downsample_bilinear_custom_impl_npu(const at::Tensor& x)
{
    TORCH_CHECK(x.dim() == 4, "expected NCHW input");
    const int64_t outH = 60;
    const int64_t outW = 80;
    at::Tensor xc = x.contiguous();
    at::Tensor result = at::empty({xc.size(0), xc.size(1), outH, outW}, xc.options());
    EXEC_NPU_CMD(aclnnDownsampleBilinearCustom, xc, outH, outW, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("downsample_bilinear_custom", &downsample_bilinear_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("downsample_bilinear_custom", &downsample_bilinear_custom_impl_npu,
          "bilinear downsample to (60, 80), align_corners=False");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def forward(self, x):
        return custom_ops_lib.downsample_bilinear_custom(x)
'''
