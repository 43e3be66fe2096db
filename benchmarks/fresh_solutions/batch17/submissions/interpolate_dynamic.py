project_json_src='''
[
    {
        "op": "BilinearResampleCustom",
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
        ],
        "attr": [
            {"name": "out_h", "param_type": "required", "type": "int"},
            {"name": "out_w", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BilinearResampleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, inWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(float, scaleH);
  TILING_DATA_FIELD_DEF(float, scaleW);
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BilinearResampleCustom, BilinearResampleTilingData)
}
"""

host_operator_src="""
#include "bilinear_resample_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// Row-parallel split: one work item is one output row of one (n, c) plane.
class ResampleTilingHelper {
public:
    explicit ResampleTilingHelper(gert::TilingContext* ctx) : ctx_(ctx) {}
    ge::graphStatus Run()
    {
        const gert::Shape& xs = ctx_->GetInputShape(0)->GetStorageShape();
        const gert::RuntimeAttrs* attrs = ctx_->GetAttrs();
        uint32_t outH = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
        uint32_t outW = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
        if (xs.GetDimNum() != 4 || outH == 0 || outW == 0) return ge::GRAPH_FAILED;
        uint32_t planes = xs.GetDim(0) * xs.GetDim(1);
        uint32_t inH = xs.GetDim(2), inW = xs.GetDim(3);

        bool isHalf = ctx_->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
        uint32_t elemPerBlk = isHalf ? 16 : 8;
        // float working rows also need 32B alignment -> align to 16 elements covers both
        uint32_t alignTo = 16 > elemPerBlk ? 16 : elemPerBlk;

        auto plat = platform_ascendc::PlatformAscendC(ctx_->GetPlatformInfo());
        uint32_t cores = plat.GetCoreNumAiv();
        uint32_t totalRows = planes * outH;
        uint32_t per = (totalRows + cores - 1) / cores;
        uint32_t used = (totalRows + per - 1) / per;

        BilinearResampleTilingData td;
        td.set_planes(planes);
        td.set_inH(inH); td.set_inW(inW);
        td.set_outH(outH); td.set_outW(outW);
        td.set_inWAlign((inW + alignTo - 1) / alignTo * alignTo);
        td.set_outWAlign((outW + alignTo - 1) / alignTo * alignTo);
        // size-driven resize (no scale_factor): scale = in / out, align_corners = False
        td.set_scaleH(static_cast<float>(inH) / static_cast<float>(outH));
        td.set_scaleW(static_cast<float>(inW) / static_cast<float>(outW));
        td.set_totalRows(totalRows);
        td.set_rowsPerCore(per);

        ctx_->SetBlockDim(used);
        ctx_->SetTilingKey(isHalf ? 1 : 0);
        td.SaveToBuffer(ctx_->GetRawTilingData()->GetData(), ctx_->GetRawTilingData()->GetCapacity());
        ctx_->GetRawTilingData()->SetDataSize(td.GetDataSize());
        ctx_->GetWorkspaceSizes(1)[0] = 0;
        return ge::GRAPH_SUCCESS;
    }

private:
    gert::TilingContext* ctx_;
};

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ResampleTilingHelper helper(context);
    return helper.Run();
}
}

namespace ge {
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, xs->GetDim(1));
    ys->SetDim(2, *attrs->GetAttrPointer<int64_t>(0));
    ys->SetDim(3, *attrs->GetAttrPointer<int64_t>(1));
    return GRAPH_SUCCESS;
}
static graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class BilinearResampleCustom : public OpDef {
public:
    explicit BilinearResampleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("out_h").Int();
        this->Attr("out_w").Int();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BilinearResampleCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Source coordinate for align_corners=False, clamped at 0 like PyTorch.
__aicore__ inline float SourceCoord(uint32_t dst, float scale)
{
    float s = (static_cast<float>(dst) + 0.5f) * scale - 0.5f;
    return s < 0.0f ? 0.0f : s;
}

template <typename T>
class BilinearRowKernel {
public:
    __aicore__ inline BilinearRowKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const BilinearResampleTilingData& td)
    {
        td_ = td;
        xGm.SetGlobalBuffer((__gm__ T*)x, (uint64_t)td.planes * td.inH * td.inW);
        yGm.SetGlobalBuffer((__gm__ T*)y, (uint64_t)td.planes * td.outH * td.outW);
        // inQ holds the two source rows (top, bottom) back to back
        pipe.InitBuffer(inQ, BUFFER_NUM, 2 * td.inWAlign * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, td.outWAlign * sizeof(T));
        pipe.InitBuffer(rowF32, 2 * td.inWAlign * sizeof(float));
        pipe.InitBuffer(blendBuf, td.inWAlign * sizeof(float));
        pipe.InitBuffer(leftBuf, td.outWAlign * sizeof(float));
        pipe.InitBuffer(rightBuf, td.outWAlign * sizeof(float));
        pipe.InitBuffer(offLBuf, td.outWAlign * sizeof(uint32_t));
        pipe.InitBuffer(offRBuf, td.outWAlign * sizeof(uint32_t));
        pipe.InitBuffer(lamBuf, td.outWAlign * sizeof(float));
        BuildColumnTables();
    }

    __aicore__ inline void Process()
    {
        uint32_t begin = GetBlockIdx() * td_.rowsPerCore;
        uint32_t end = begin + td_.rowsPerCore;
        if (end > td_.totalRows) end = td_.totalRows;
        for (uint32_t r = begin; r < end; ++r) {
            uint32_t plane = r / td_.outH;
            uint32_t oy = r % td_.outH;
            float sy = SourceCoord(oy, td_.scaleH);
            uint32_t y0 = static_cast<uint32_t>(sy);
            if (y0 > td_.inH - 1) y0 = td_.inH - 1;
            uint32_t y1 = y0 + 1 < td_.inH ? y0 + 1 : td_.inH - 1;
            float ly = sy - static_cast<float>(y0);
            LoadRows(plane, y0, y1);
            Interp(ly);
            Store(r);
        }
    }

private:
    // Per output column: byte offsets of the left/right source taps and the right weight.
    __aicore__ inline void BuildColumnTables()
    {
        LocalTensor<uint32_t> offL = offLBuf.Get<uint32_t>();
        LocalTensor<uint32_t> offR = offRBuf.Get<uint32_t>();
        LocalTensor<float> lam = lamBuf.Get<float>();
        for (uint32_t ox = 0; ox < td_.outWAlign; ++ox) {
            uint32_t x0 = 0, x1 = 0;
            float lx = 0.0f;
            if (ox < td_.outW) {
                float sx = SourceCoord(ox, td_.scaleW);
                x0 = static_cast<uint32_t>(sx);
                if (x0 > td_.inW - 1) x0 = td_.inW - 1;
                x1 = x0 + 1 < td_.inW ? x0 + 1 : td_.inW - 1;
                lx = sx - static_cast<float>(x0);
            }
            offL.SetValue(ox, x0 * sizeof(float));
            offR.SetValue(ox, x1 * sizeof(float));
            lam.SetValue(ox, lx);
        }
    }

    __aicore__ inline void LoadRows(uint32_t plane, uint32_t y0, uint32_t y1)
    {
        LocalTensor<T> rows = inQ.AllocTensor<T>();
        uint64_t base = (uint64_t)plane * td_.inH * td_.inW;
        DataCopyExtParams cp{1, static_cast<uint32_t>(td_.inW * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        DataCopyPad(rows, xGm[base + (uint64_t)y0 * td_.inW], cp, pad);
        DataCopyPad(rows[td_.inWAlign], xGm[base + (uint64_t)y1 * td_.inW], cp, pad);
        inQ.EnQue(rows);
    }

    __aicore__ inline void Interp(float ly)
    {
        LocalTensor<T> rows = inQ.DeQue<T>();
        LocalTensor<float> f;
        if constexpr (IsSameType<T, float>::value) {
            f = rows;
        } else {
            f = rowF32.Get<float>();
            Cast(f, rows, RoundMode::CAST_NONE, 2 * td_.inWAlign);
        }
        // vertical pass: blend = top * (1 - ly) + bottom * ly
        LocalTensor<float> blend = blendBuf.Get<float>();
        Muls(blend, f, 1.0f - ly, td_.inWAlign);
        Axpy(blend, f[td_.inWAlign], ly, td_.inWAlign);

        // horizontal pass via gathers
        LocalTensor<float> left = leftBuf.Get<float>();
        LocalTensor<float> right = rightBuf.Get<float>();
        Gather(left, blend, offLBuf.Get<uint32_t>(), 0U, td_.outWAlign);
        Gather(right, blend, offRBuf.Get<uint32_t>(), 0U, td_.outWAlign);
        Sub(right, right, left, td_.outWAlign);
        Mul(right, right, lamBuf.Get<float>(), td_.outWAlign);

        LocalTensor<T> out = outQ.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            Add(out, left, right, td_.outWAlign);
        } else {
            Add(left, left, right, td_.outWAlign);
            Cast(out, left, RoundMode::CAST_ROUND, td_.outWAlign);
        }
        outQ.EnQue(out);
        inQ.FreeTensor(rows);
    }

    __aicore__ inline void Store(uint32_t row)
    {
        LocalTensor<T> out = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(td_.outW * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[(uint64_t)row * td_.outW], out, cp);
        outQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> rowF32, blendBuf, leftBuf, rightBuf, offLBuf, offRBuf, lamBuf;
    GlobalTensor<T> xGm, yGm;
    BilinearResampleTilingData td_;
};

extern "C" __global__ __aicore__ void bilinear_resample_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        BilinearRowKernel<float> k;
        k.Init(x, y, td);
        k.Process();
    } else if (TILING_KEY_IS(1)) {
        BilinearRowKernel<half> k;
        k.Init(x, y, td);
        k.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor bilinear_resample_npu(const at::Tensor& x, at::IntArrayRef size)
{
    TORCH_CHECK(x.dim() == 4, "bilinear resample expects NCHW input");
    TORCH_CHECK(size.size() == 2, "target size must be (H, W)");
    int64_t outH = size[0];
    int64_t outW = size[1];
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty({x.size(0), x.size(1), outH, outW}, x.options());
    EXEC_NPU_CMD(aclnnBilinearResampleCustom, xc, outH, outW, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("bilinear_resample_custom", &bilinear_resample_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("bilinear_resample_custom", &bilinear_resample_npu, "bilinear resize, align_corners=False");
}
"""
