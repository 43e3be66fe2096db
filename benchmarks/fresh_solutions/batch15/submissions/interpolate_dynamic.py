project_json_src='''
[
    {
        "op": "InterpolateDynamicCustom",
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
                "param_type": "required",
                "type": "int"
            },
            {
                "name": "out_w",
                "param_type": "required",
                "type": "int"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(InterpolateDynamicCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, inWPad);
  TILING_DATA_FIELD_DEF(uint32_t, outWPad);
  TILING_DATA_FIELD_DEF(uint64_t, totalRows);     // planes * outH output rows
  TILING_DATA_FIELD_DEF(uint64_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(float, ratioH);
  TILING_DATA_FIELD_DEF(float, ratioW);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(InterpolateDynamicCustom, InterpolateDynamicCustomTilingData)
}
"""

host_operator_src="""
#include "interpolate_dynamic_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto shape = context->GetInputShape(0)->GetOriginShape();
    if (shape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    const int64_t* oh = attrs->GetInt(0);
    const int64_t* ow = attrs->GetInt(1);
    if (oh == nullptr || ow == nullptr || *oh <= 0 || *ow <= 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t outH = static_cast<uint32_t>(*oh);
    uint32_t outW = static_cast<uint32_t>(*ow);
    uint64_t planes = static_cast<uint64_t>(shape.GetDim(0)) * shape.GetDim(1);
    uint32_t inH = shape.GetDim(2);
    uint32_t inW = shape.GetDim(3);
    uint32_t inWPad = (inW + 7) / 8 * 8;
    uint32_t outWPad = (outW + 7) / 8 * 8;

    // UB use (floats): 2x two input rows + 2x out row + 4 gather scratch rows + 3 tables
    uint64_t need = (4ULL * inWPad + 2ULL * outWPad + 4ULL * outWPad + 3ULL * outWPad) * sizeof(float);
    if (need > 190 * 1024) {
        return ge::GRAPH_FAILED;   // very wide images would need column tiling
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t coreNum = platform.GetCoreNumAiv();
    uint64_t totalRows = planes * outH;
    uint64_t rowsPerCore = (totalRows + coreNum - 1) / coreNum;
    context->SetBlockDim(static_cast<uint32_t>((totalRows + rowsPerCore - 1) / rowsPerCore));

    InterpolateDynamicCustomTilingData tiling;
    tiling.set_inH(inH);
    tiling.set_inW(inW);
    tiling.set_outH(outH);
    tiling.set_outW(outW);
    tiling.set_inWPad(inWPad);
    tiling.set_outWPad(outWPad);
    tiling.set_totalRows(totalRows);
    tiling.set_rowsPerCore(rowsPerCore);
    // align_corners=False without explicit scale_factor: ratio = in / out
    tiling.set_ratioH(static_cast<float>(inH) / outH);
    tiling.set_ratioW(static_cast<float>(inW) / outW);
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
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    auto attrs = context->GetAttrs();
    out->SetDimNum(4);
    out->SetDim(0, in->GetDim(0));
    out->SetDim(1, in->GetDim(1));
    out->SetDim(2, *attrs->GetInt(0));
    out->SetDim(3, *attrs->GetInt(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class InterpolateDynamicCustom : public OpDef {
public:
    explicit InterpolateDynamicCustom(const char* name) : OpDef(name)
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
        this->Attr("out_h").Int();
        this->Attr("out_w").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(InterpolateDynamicCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

// Bilinear interpolation to a runtime (out_h, out_w), align_corners = False.
// Output rows of all planes are numbered globally (plane * outH + oy) and
// split evenly over the vector cores. Per output row:
//   - DMA the two source rows y0 / y1 into one UB tile,
//   - Gather the four corner rows tl, tr, bl, br with the column tables,
//   - top = tl + lx*(tr-tl), bot = bl + lx*(br-bl), out = top + ly*(bot-top),
//   - DMA the row out (double-buffered so the store overlaps the next row).
class InterpolateDynamicKernel {
public:
    __aicore__ inline InterpolateDynamicKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const InterpolateDynamicCustomTilingData& tl)
    {
        inH = tl.inH;
        inW = tl.inW;
        outH = tl.outH;
        outW = tl.outW;
        inWPad = tl.inWPad;
        outWPad = tl.outWPad;
        ratioH = tl.ratioH;
        ratioW = tl.ratioW;

        firstRow = (uint64_t)AscendC::GetBlockIdx() * tl.rowsPerCore;
        lastRow = firstRow + tl.rowsPerCore;
        if (lastRow > tl.totalRows) {
            lastRow = tl.totalRows;
        }

        uint64_t planes = tl.totalRows / outH;
        src.SetGlobalBuffer((__gm__ float*)x, planes * inH * inW);
        dst.SetGlobalBuffer((__gm__ float*)y, tl.totalRows * outW);

        pipe.InitBuffer(inQ, 2, 2 * inWPad * sizeof(float));
        pipe.InitBuffer(outQ, 2, outWPad * sizeof(float));
        pipe.InitBuffer(cornerBuf, 4 * outWPad * sizeof(float));
        pipe.InitBuffer(leftBuf, outWPad * sizeof(uint32_t));
        pipe.InitBuffer(rightBuf, outWPad * sizeof(uint32_t));
        pipe.InitBuffer(lxBuf, outWPad * sizeof(float));

        PrepareColumns();
    }

    __aicore__ inline void Process()
    {
        for (uint64_t g = firstRow; g < lastRow; ++g) {
            uint64_t plane = g / outH;
            uint32_t oy = static_cast<uint32_t>(g - plane * outH);

            float fy = ratioH * (static_cast<float>(oy) + 0.5f) - 0.5f;
            fy = fy < 0.0f ? 0.0f : fy;
            uint32_t y0 = static_cast<uint32_t>(fy);
            y0 = y0 < inH ? y0 : inH - 1;
            uint32_t y1 = (y0 + 1 < inH) ? (y0 + 1) : y0;
            float ly = fy - static_cast<float>(y0);

            FetchRows(plane, y0, y1);
            BlendRow(ly);
            StoreRow(g);
        }
    }

private:
    __aicore__ inline void PrepareColumns()
    {
        AscendC::LocalTensor<uint32_t> left = leftBuf.Get<uint32_t>();
        AscendC::LocalTensor<uint32_t> right = rightBuf.Get<uint32_t>();
        AscendC::LocalTensor<float> lx = lxBuf.Get<float>();
        for (uint32_t ox = 0; ox < outW; ++ox) {
            float fx = ratioW * (static_cast<float>(ox) + 0.5f) - 0.5f;
            fx = fx < 0.0f ? 0.0f : fx;
            uint32_t x0 = static_cast<uint32_t>(fx);
            x0 = x0 < inW ? x0 : inW - 1;
            uint32_t x1 = (x0 + 1 < inW) ? (x0 + 1) : x0;
            left.SetValue(ox, x0 * 4U);      // byte offsets for Gather
            right.SetValue(ox, x1 * 4U);
            lx.SetValue(ox, fx - static_cast<float>(x0));
        }
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(sv);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(sv);
    }

    __aicore__ inline void FetchRows(uint64_t plane, uint32_t y0, uint32_t y1)
    {
        AscendC::LocalTensor<float> rows = inQ.AllocTensor<float>();
        uint64_t planeOff = plane * inH * inW;
        AscendC::DataCopyExtParams one{1, inW * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(rows, src[planeOff + (uint64_t)y0 * inW], one, noPad);
        AscendC::DataCopyPad(rows[inWPad], src[planeOff + (uint64_t)y1 * inW], one, noPad);
        inQ.EnQue(rows);
    }

    __aicore__ inline void BlendRow(float ly)
    {
        AscendC::LocalTensor<float> rows = inQ.DeQue<float>();
        AscendC::LocalTensor<float> res = outQ.AllocTensor<float>();
        AscendC::LocalTensor<float> corner = cornerBuf.Get<float>();
        AscendC::LocalTensor<uint32_t> left = leftBuf.Get<uint32_t>();
        AscendC::LocalTensor<uint32_t> right = rightBuf.Get<uint32_t>();
        AscendC::LocalTensor<float> lx = lxBuf.Get<float>();

        AscendC::LocalTensor<float> tl = corner;
        AscendC::LocalTensor<float> tr = corner[outWPad];
        AscendC::LocalTensor<float> bl = corner[2 * outWPad];
        AscendC::LocalTensor<float> br = corner[3 * outWPad];
        uint32_t bottomBase = inWPad * static_cast<uint32_t>(sizeof(float));

        AscendC::Gather(tl, rows, left, 0U, outW);
        AscendC::Gather(tr, rows, right, 0U, outW);
        AscendC::Gather(bl, rows, left, bottomBase, outW);
        AscendC::Gather(br, rows, right, bottomBase, outW);
        inQ.FreeTensor(rows);

        // horizontal lerp on both rows
        AscendC::Sub(tr, tr, tl, outW);
        AscendC::Mul(tr, tr, lx, outW);
        AscendC::Add(tl, tl, tr, outW);
        AscendC::Sub(br, br, bl, outW);
        AscendC::Mul(br, br, lx, outW);
        AscendC::Add(bl, bl, br, outW);
        // vertical lerp
        AscendC::Sub(bl, bl, tl, outW);
        AscendC::Muls(bl, bl, ly, outW);
        AscendC::Add(res, tl, bl, outW);

        outQ.EnQue(res);
    }

    __aicore__ inline void StoreRow(uint64_t g)
    {
        AscendC::LocalTensor<float> res = outQ.DeQue<float>();
        AscendC::DataCopyExtParams one{1, outW * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(dst[g * outW], res, one);
        outQ.FreeTensor(res);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> inQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 2> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> cornerBuf, leftBuf, rightBuf, lxBuf;
    AscendC::GlobalTensor<float> src, dst;

    uint32_t inH, inW, outH, outW, inWPad, outWPad;
    uint64_t firstRow, lastRow;
    float ratioH, ratioW;
};

extern "C" __global__ __aicore__ void interpolate_dynamic_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    InterpolateDynamicKernel op;
    op.Init(x, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor interpolate_dynamic_custom_impl_npu(const at::Tensor& x, at::IntArrayRef target_size)
{
    TORCH_CHECK(x.dim() == 4, "bilinear interpolate expects NCHW input");
    TORCH_CHECK(target_size.size() == 2, "target_size must be (H, W)");
    int64_t outH = target_size[0];
    int64_t outW = target_size[1];
    TORCH_CHECK(outH > 0 && outW > 0, "target_size must be positive");
    at::Tensor xc = x.contiguous();
    at::Tensor result = at::empty({xc.size(0), xc.size(1), outH, outW}, xc.options());
    EXEC_NPU_CMD(aclnnInterpolateDynamicCustom, xc, outH, outW, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("interpolate_dynamic_custom", &interpolate_dynamic_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("interpolate_dynamic_custom", &interpolate_dynamic_custom_impl_npu,
          "bilinear interpolate to a runtime size (align_corners=False)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def forward(self, x, target_size):
        return custom_ops_lib.interpolate_dynamic_custom(x, list(target_size))
'''
