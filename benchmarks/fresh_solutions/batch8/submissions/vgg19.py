project_json_src='''
[
    {
        "op": "RectifiedMaxPool2x2Custom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RectifiedMaxPool2x2TilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, outRowsPerTile);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RectifiedMaxPool2x2Custom, RectifiedMaxPool2x2TilingData)
}
"""

host_operator_src="""
#include "rectified_max_pool2x2_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto shp = context->GetInputShape(0)->GetStorageShape();
    uint32_t planes = shp.GetDim(0) * shp.GetDim(1);
    uint32_t h = shp.GetDim(2);
    uint32_t w = shp.GetDim(3);
    uint32_t oh = h / 2;
    uint32_t ow = w / 2;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t per = (planes + cores - 1) / cores;
    uint32_t used = (planes + per - 1) / per;

    uint32_t wPad = (w + 7) / 8 * 8;
    uint32_t owPad = (ow + 7) / 8 * 8;
    // per output row: 2 input rows (x2 buffers) + 1 merged row + 1 output row (x2 buffers)
    uint32_t perRowBytes = (4 * wPad + wPad + 2 * owPad) * sizeof(float);
    uint32_t rowsTile = (150 * 1024) / perRowBytes;
    if (rowsTile == 0) return ge::GRAPH_FAILED;
    if (rowsTile > oh) rowsTile = oh;

    RectifiedMaxPool2x2TilingData td;
    td.set_planes(planes);
    td.set_inH(h);
    td.set_inW(w);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_planesPerCore(per);
    td.set_outRowsPerTile(rowsTile);

    context->SetBlockDim(used);
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
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    *y = *x;
    y->SetDim(2, x->GetDim(2) / 2);
    y->SetDim(3, x->GetDim(3) / 2);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class RectifiedMaxPool2x2Custom : public OpDef {
public:
    explicit RectifiedMaxPool2x2Custom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RectifiedMaxPool2x2Custom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

// y = max(0, maxpool2x2(x)); relu and max commute, so this covers the ReLU + MaxPool tail of each VGG block
class RectifiedMaxPool2x2 {
public:
    __aicore__ inline RectifiedMaxPool2x2() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RectifiedMaxPool2x2TilingData& td)
    {
        H = td.inH; W = td.inW; OH = td.outH; OW = td.outW; rt = td.outRowsPerTile;
        wPad = (W + 7) / 8 * 8;
        owPad = (OW + 7) / 8 * 8;
        p0 = GetBlockIdx() * td.planesPerCore;
        p1 = p0 + td.planesPerCore;
        if (p1 > td.planes) p1 = td.planes;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        pipe.InitBuffer(inQ, 2, 2 * rt * wPad * sizeof(float));
        pipe.InitBuffer(outQ, 2, rt * owPad * sizeof(float));
        pipe.InitBuffer(mergeBuf, rt * wPad * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = p0; p < p1; ++p) {
            for (uint32_t r = 0; r < OH; r += rt) {
                uint32_t n = OH - r < rt ? OH - r : rt;
                CopyIn(p, r, n);
                Compute(n);
                CopyOut(p, r, n);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t p, uint32_t r, uint32_t n)
    {
        LocalTensor<float> xt = inQ.AllocTensor<float>();
        // 2n input rows, each padded to wPad in UB
        DataCopyExtParams cp{(uint16_t)(2 * n), (uint32_t)(W * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xt, xGm[((uint64_t)p * H + 2 * r) * W], cp, pad);
        inQ.EnQue(xt);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<float> xt = inQ.DeQue<float>();
        LocalTensor<float> m = mergeBuf.Get<float>();
        LocalTensor<float> yt = outQ.AllocTensor<float>();

        // vertical pairs on the vector unit
        for (uint32_t i = 0; i < n; ++i) {
            Max(m[i * wPad], xt[2 * i * wPad], xt[(2 * i + 1) * wPad], W);
        }
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);

        // horizontal pairs + rectify lane by lane
        for (uint32_t i = 0; i < n; ++i) {
            uint32_t src = i * wPad;
            uint32_t dst = i * owPad;
            for (uint32_t j = 0; j < OW; ++j) {
                float a = m.GetValue(src + 2 * j);
                float b = m.GetValue(src + 2 * j + 1);
                float v = a > b ? a : b;
                yt.SetValue(dst + j, v > 0.0f ? v : 0.0f);
            }
        }
        event_t e2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(e2);
        WaitFlag<HardEvent::S_MTE3>(e2);

        outQ.EnQue(yt);
        inQ.FreeTensor(xt);
    }

    __aicore__ inline void CopyOut(uint32_t p, uint32_t r, uint32_t n)
    {
        LocalTensor<float> yt = outQ.DeQue<float>();
        DataCopyExtParams cp{(uint16_t)n, (uint32_t)(OW * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[((uint64_t)p * OH + r) * OW], yt, cp);
        outQ.FreeTensor(yt);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> mergeBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t H, W, OH, OW, rt, wPad, owPad, p0, p1;
};

extern "C" __global__ __aicore__ void rectified_max_pool2x2_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    RectifiedMaxPool2x2 op;
    op.Init(x, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <vector>
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor rectified_max_pool2x2_impl_npu(const at::Tensor& x)
{
    at::Tensor y = at::empty({x.size(0), x.size(1), x.size(2) / 2, x.size(3) / 2}, x.options());
    EXEC_NPU_CMD(aclnnRectifiedMaxPool2x2Custom, x, y);
    return y;
}

// VGG19: 16 convs in blocks of 2,2,4,4,4; the last ReLU of every block is fused with its pool.
at::Tensor vgg19_forward_npu(const at::Tensor& input,
                             std::vector<at::Tensor> convW, std::vector<at::Tensor> convB,
                             std::vector<at::Tensor> fcW, std::vector<at::Tensor> fcB)
{
    static const int blockConvs[5] = {2, 2, 4, 4, 4};
    at::Tensor x = input;
    size_t li = 0;
    for (int blk = 0; blk < 5; ++blk) {
        for (int c = 0; c < blockConvs[blk]; ++c, ++li) {
            x = at::conv2d(x, convW[li], convB[li], {1, 1}, {1, 1});
            if (c + 1 < blockConvs[blk]) {
                x = at::relu(x);
            }
        }
        x = rectified_max_pool2x2_impl_npu(x.contiguous());
    }
    x = at::flatten(x, 1);
    x = at::relu(at::linear(x, fcW[0], fcB[0]));
    x = at::relu(at::linear(x, fcW[1], fcB[1]));
    return at::linear(x, fcW[2], fcB[2]);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("rectified_max_pool2x2_custom", &rectified_max_pool2x2_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("rectified_max_pool2x2_custom", &rectified_max_pool2x2_impl_npu, "relu(maxpool2x2(x))");
    m.def("vgg19_forward", &vgg19_forward_npu, "vgg19 forward with fused relu+pool");
}
"""
