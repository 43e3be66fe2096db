project_json_src='''
[
    {
        "op": "Conv2dTanhScalingBiasAddMaxCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "bias",
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
                "name": "scaling_factor",
                "param_type": "optional",
                "type": "float",
                "default_value": "1.0"
            },
            {
                "name": "pool_size",
                "param_type": "optional",
                "type": "int",
                "default_value": "2"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dTanhScalingBiasAddMaxCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, height);       // conv output height
  TILING_DATA_FIELD_DEF(uint32_t, width);        // conv output width
  TILING_DATA_FIELD_DEF(uint32_t, alignedWidth); // width rounded up to 8 floats (32B)
  TILING_DATA_FIELD_DEF(uint32_t, outHeight);
  TILING_DATA_FIELD_DEF(uint32_t, outWidth);
  TILING_DATA_FIELD_DEF(uint32_t, alignedOutWidth);
  TILING_DATA_FIELD_DEF(uint32_t, poolSize);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // pooled rows produced per loop iteration
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailPlanes);   // first tailPlanes cores take one extra plane
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dTanhScalingBiasAddMaxCustom, Conv2dTanhScalingBiasAddMaxCustomTilingData)
}
"""

host_operator_src="""
#include "conv2d_tanh_scaling_bias_add_max_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// budget for one (double buffered) input tile in UB, in bytes
constexpr uint32_t IN_TILE_BYTES = 32 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv2dTanhScalingBiasAddMaxCustomTilingData tiling;
    const gert::StorageShape* xShape = context->GetInputShape(0);
    const auto& shp = xShape->GetStorageShape();
    uint32_t n = shp.GetDim(0);
    uint32_t c = shp.GetDim(1);
    uint32_t h = shp.GetDim(2);
    uint32_t w = shp.GetDim(3);

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    float scale = *(attrs->GetFloat(0));
    uint32_t pool = static_cast<uint32_t>(*(attrs->GetInt(1)));
    if (pool == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = h / pool;
    uint32_t ow = w / pool;
    uint32_t alignedW = (w + 7) / 8 * 8;
    uint32_t alignedOw = (ow + 7) / 8 * 8;

    // how many pooled rows fit into one input tile
    uint32_t bytesPerOutRow = pool * alignedW * sizeof(float);
    uint32_t rowsPerTile = IN_TILE_BYTES / bytesPerOutRow;
    if (rowsPerTile == 0) rowsPerTile = 1;
    if (rowsPerTile > oh) rowsPerTile = oh;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t planes = n * c;
    if (coreNum > planes) coreNum = planes;
    if (coreNum == 0) coreNum = 1;

    tiling.set_batch(n);
    tiling.set_channels(c);
    tiling.set_height(h);
    tiling.set_width(w);
    tiling.set_alignedWidth(alignedW);
    tiling.set_outHeight(oh);
    tiling.set_outWidth(ow);
    tiling.set_alignedOutWidth(alignedOw);
    tiling.set_poolSize(pool);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_planesPerCore(planes / coreNum);
    tiling.set_tailPlanes(planes % coreNum);
    tiling.set_scale(scale);

    context->SetBlockDim(coreNum);
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
    const int64_t* pool = context->GetAttrs()->GetInt(1);
    int64_t p = (pool == nullptr || *pool <= 0) ? 1 : *pool;
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, x->GetDim(1));
    y->SetDim(2, x->GetDim(2) / p);
    y->SetDim(3, x->GetDim(3) / p);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv2dTanhScalingBiasAddMaxCustom : public OpDef {
public:
    explicit Conv2dTanhScalingBiasAddMaxCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scaling_factor").AttrType(OPTIONAL).Float(1.0);
        this->Attr("pool_size").AttrType(OPTIONAL).Int(2);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Conv2dTanhScalingBiasAddMaxCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Epilogue of conv: maxpool(tanh(x) * s + b).
// tanh is monotonic increasing and (s, b) are constant inside one channel plane,
// so for s >= 0 we can pool the raw conv output first and apply the pointwise
// chain only on the pooled values (16x less transcendental work for pool=4).
// For s < 0 the order flips, i.e. we pool with min instead of max.
class KernelConvTanhScaleBiasMax {
public:
    __aicore__ inline KernelConvTanhScaleBiasMax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                const Conv2dTanhScalingBiasAddMaxCustomTilingData& t)
    {
        channels = t.channels;
        height = t.height;
        width = t.width;
        alignedW = t.alignedWidth;
        outH = t.outHeight;
        outW = t.outWidth;
        alignedOw = t.alignedOutWidth;
        pool = t.poolSize;
        rowsPerTile = t.rowsPerTile;
        scale = t.scale;
        useMin = scale < 0.0f;

        uint32_t blk = GetBlockIdx();
        if (blk < t.tailPlanes) {
            planeCount = t.planesPerCore + 1;
            planeStart = blk * planeCount;
        } else {
            planeCount = t.planesPerCore;
            planeStart = blk * t.planesPerCore + t.tailPlanes;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, channels);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(inQueue, BUFFER_NUM, rowsPerTile * pool * alignedW * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, rowsPerTile * alignedOw * sizeof(float));
        pipe.InitBuffer(colBuf, alignedW * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = 0; p < planeCount; ++p) {
            uint32_t plane = planeStart + p;
            float b = biasGm.GetValue(plane % channels);
            for (uint32_t r0 = 0; r0 < outH; r0 += rowsPerTile) {
                uint32_t rows = (outH - r0 < rowsPerTile) ? (outH - r0) : rowsPerTile;
                CopyIn(plane, r0, rows);
                Compute(rows, b);
                CopyOut(plane, r0, rows);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t plane, uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> xl = inQueue.AllocTensor<float>();
        uint64_t off = (uint64_t)plane * height * width + (uint64_t)r0 * pool * width;
        // rows of length `width` are contiguous in GM; each lands on a 32B boundary in UB
        DataCopyExtParams cp{static_cast<uint16_t>(rows * pool),
                             static_cast<uint32_t>(width * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xl, xGm[off], cp, pad);
        inQueue.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t rows, float b)
    {
        LocalTensor<float> xl = inQueue.DeQue<float>();
        LocalTensor<float> yl = outQueue.AllocTensor<float>();
        LocalTensor<float> col = colBuf.Get<float>();

        for (uint32_t r = 0; r < rows; ++r) {
            // vertical reduction over `pool` input rows
            uint32_t base = r * pool * alignedW;
            DataCopy(col, xl[base], alignedW);
            for (uint32_t k = 1; k < pool; ++k) {
                if (useMin) {
                    Min(col, col, xl[base + k * alignedW], alignedW);
                } else {
                    Max(col, col, xl[base + k * alignedW], alignedW);
                }
            }
            // horizontal reduction: windows of `pool` neighbours, done on the scalar unit
            event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(evVS);
            WaitFlag<HardEvent::V_S>(evVS);
            uint32_t dst = r * alignedOw;
            for (uint32_t ow = 0; ow < outW; ++ow) {
                float m = col.GetValue(ow * pool);
                for (uint32_t k = 1; k < pool; ++k) {
                    float v = col.GetValue(ow * pool + k);
                    if (useMin) {
                        m = (v < m) ? v : m;
                    } else {
                        m = (v > m) ? v : m;
                    }
                }
                yl.SetValue(dst + ow, m);
            }
            for (uint32_t ow = outW; ow < alignedOw; ++ow) {
                yl.SetValue(dst + ow, 0.0f);
            }
            event_t evSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(evSV);
            WaitFlag<HardEvent::S_V>(evSV);
        }

        // pointwise chain on the pooled block: tanh -> *s -> +b
        uint32_t cnt = rows * alignedOw;
        Tanh(yl, yl, cnt);
        Muls(yl, yl, scale, cnt);
        Adds(yl, yl, b, cnt);

        outQueue.EnQue(yl);
        inQueue.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint32_t plane, uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> yl = outQueue.DeQue<float>();
        uint64_t off = (uint64_t)plane * outH * outW + (uint64_t)r0 * outW;
        // rows are padded to alignedOw in UB but packed in GM
        DataCopyExtParams cp{static_cast<uint16_t>(rows),
                             static_cast<uint32_t>(outW * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[off], yl, cp);
        outQueue.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueue;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<TPosition::VECCALC> colBuf;
    GlobalTensor<float> xGm, biasGm, yGm;

    uint32_t channels, height, width, alignedW;
    uint32_t outH, outW, alignedOw, pool, rowsPerTile;
    uint32_t planeStart, planeCount;
    float scale;
    bool useMin;
};

extern "C" __global__ __aicore__ void conv2d_tanh_scaling_bias_add_max_custom(
    GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConvTanhScaleBiasMax op;
    op.Init(x, bias, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv itself runs on the cube unit through aten; the custom kernel fuses
// tanh, scaling, bias add and max-pooling into a single pass over the conv output
at::Tensor conv2d_tanh_scaling_bias_add_max_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& conv_bias,
    const at::Tensor& bias, double scaling_factor, int64_t pool_size)
{
    at::Tensor conv = at::conv2d(x, weight, conv_bias).contiguous();
    at::Tensor b = bias.reshape({-1}).contiguous();
    auto sizes = conv.sizes();
    at::Tensor result = at::empty({sizes[0], sizes[1], sizes[2] / pool_size, sizes[3] / pool_size},
                                  conv.options());
    EXEC_NPU_CMD(aclnnConv2dTanhScalingBiasAddMaxCustom, conv, b, scaling_factor, pool_size, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_tanh_scaling_bias_add_max_custom", &conv2d_tanh_scaling_bias_add_max_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_tanh_scaling_bias_add_max_custom", &conv2d_tanh_scaling_bias_add_max_custom_impl_npu,
          "conv2d -> tanh -> scale -> +bias -> maxpool");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, scaling_factor, bias_shape, pool_kernel_size):
        super(ModelNew, self).__init__()
        self.conv = torch.nn.Conv2d(in_channels, out_channels, kernel_size)
        self.scaling_factor = scaling_factor
        self.bias = torch.nn.Parameter(torch.randn(bias_shape))
        self.pool_kernel_size = pool_kernel_size

    def forward(self, x):
        return custom_ops_lib.conv2d_tanh_scaling_bias_add_max_custom(
            x, self.conv.weight, self.conv.bias, self.bias,
            float(self.scaling_factor), int(self.pool_kernel_size))
'''
