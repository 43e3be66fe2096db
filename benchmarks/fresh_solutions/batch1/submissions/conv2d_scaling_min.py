project_json_src='''
[
    {
        "op": "Conv2dScalingMinCustom",
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
                "param_type": "required",
                "type": "float"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dScalingMinCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, hw);            // H * W of the conv output
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerImage);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailCores);     // cores [0, tailCores) take one more tile
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dScalingMinCustom, Conv2dScalingMinCustomTilingData)
}
"""

host_operator_src="""
#include "conv2d_scaling_min_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t TILE_LEN = 4096;   // floats per channel row in one tile

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv2dScalingMinCustomTilingData tiling;
    auto xShape = context->GetInputShape(0)->GetOriginShape();
    uint32_t n = xShape.GetDim(0);
    uint32_t c = xShape.GetDim(1);
    uint32_t hw = xShape.GetDim(2) * xShape.GetDim(3);
    float scale = *context->GetAttrs()->GetFloat(0);

    uint32_t tileLen = TILE_LEN;
    uint32_t hwAligned = (hw + 7) / 8 * 8;
    if (tileLen > hwAligned) {
        tileLen = hwAligned;
    }
    uint32_t tilesPerImage = (hw + tileLen - 1) / tileLen;
    uint32_t totalTiles = tilesPerImage * n;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blockDim = ascendcPlatform.GetCoreNumAiv();
    if (blockDim > totalTiles) {
        blockDim = totalTiles;
    }
    if (blockDim == 0) {
        blockDim = 1;
    }

    tiling.set_batch(n);
    tiling.set_channels(c);
    tiling.set_hw(hw);
    tiling.set_tileLen(tileLen);
    tiling.set_tilesPerImage(tilesPerImage);
    tiling.set_tilesPerCore(totalTiles / blockDim);
    tiling.set_tailCores(totalTiles % blockDim);
    tiling.set_scale(scale);

    context->SetBlockDim(blockDim);
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
    *yShape = *xShape;
    yShape->SetDim(1, 1);   // keepdim=True reduction over channels
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv2dScalingMinCustom : public OpDef {
public:
    explicit Conv2dScalingMinCustom(const char* name) : OpDef(name)
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
        this->Attr("scale_factor").AttrType(REQUIRED).Float();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Conv2dScalingMinCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

/*
 * y[n, 0, p] = min_c( x[n, c, p] * scale )
 *
 * The channel rows of one spatial tile are streamed through a double-buffered
 * input queue and folded into a running accumulator. Scaling is applied once at
 * the end: for scale >= 0, min(x*s) = s*min(x); for scale < 0 it is s*max(x).
 */
class KernelConv2dScalingMin {
public:
    __aicore__ inline KernelConv2dScalingMin() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t channels, uint32_t hw, uint32_t tileLen,
                                uint32_t tilesPerImage, uint32_t tilesPerCore, uint32_t tailCores, float scale)
    {
        this->channels = channels;
        this->hw = hw;
        this->tileLen = tileLen;
        this->tilesPerImage = tilesPerImage;
        this->scale = scale;

        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (blockIdx < tailCores) {
            this->myTiles = tilesPerCore + 1;
            this->firstTile = blockIdx * this->myTiles;
        } else {
            this->myTiles = tilesPerCore;
            this->firstTile = tailCores * (tilesPerCore + 1) + (blockIdx - tailCores) * tilesPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQueueY, 1, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < myTiles; i++) {
            uint32_t tile = firstTile + i;
            uint32_t img = tile / tilesPerImage;
            uint32_t pos = (tile % tilesPerImage) * tileLen;
            uint32_t count = hw - pos < tileLen ? hw - pos : tileLen;
            ReduceTile(img, pos, count);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t gmOffset, uint32_t count)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        if (count % 8 == 0) {
            AscendC::DataCopy(xLocal, xGm[gmOffset], count);
        } else {
            AscendC::DataCopyExtParams copyParams{1, count * (uint32_t)sizeof(float), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(xLocal, xGm[gmOffset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void ReduceTile(uint32_t img, uint32_t pos, uint32_t count)
    {
        uint32_t vecCount = (count + 7) / 8 * 8;
        uint64_t imgBase = (uint64_t)img * channels * hw + pos;
        AscendC::LocalTensor<float> acc = outQueueY.AllocTensor<float>();

        for (uint32_t c = 0; c < channels; c++) {
            CopyIn(imgBase + (uint64_t)c * hw, count);
            AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
            if (c == 0) {
                AscendC::DataCopy(acc, xLocal, vecCount);
            } else if (scale >= 0.0f) {
                AscendC::Min(acc, acc, xLocal, vecCount);
            } else {
                AscendC::Max(acc, acc, xLocal, vecCount);
            }
            inQueueX.FreeTensor(xLocal);
        }
        AscendC::Muls(acc, acc, scale, vecCount);
        outQueueY.EnQue(acc);

        // store the reduced row
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        uint64_t outOffset = (uint64_t)img * hw + pos;
        if (count % 8 == 0) {
            AscendC::DataCopy(yGm[outOffset], yLocal, count);
        } else {
            AscendC::DataCopyExtParams copyParams{1, count * (uint32_t)sizeof(float), 0, 0, 0};
            AscendC::DataCopyPad(yGm[outOffset], yLocal, copyParams);
        }
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueueY;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint32_t channels;
    uint32_t hw;
    uint32_t tileLen;
    uint32_t tilesPerImage;
    uint32_t myTiles;
    uint32_t firstTile;
    float scale;
};

extern "C" __global__ __aicore__ void conv2d_scaling_min_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelConv2dScalingMin op;
    op.Init(x, y, tiling_data.channels, tiling_data.hw, tiling_data.tileLen, tiling_data.tilesPerImage,
            tiling_data.tilesPerCore, tiling_data.tailCores, tiling_data.scale);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv2d_scaling_min_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                              const at::Tensor& bias, double scale_factor)
{
    // the convolution itself runs on the built-in cube kernel
    at::Tensor conv = at::conv2d(x, weight, bias).contiguous();
    at::Tensor result = at::empty({conv.size(0), 1, conv.size(2), conv.size(3)}, conv.options());
    EXEC_NPU_CMD(aclnnConv2dScalingMinCustom, conv, scale_factor, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_scaling_min_custom", &conv2d_scaling_min_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_scaling_min_custom", &conv2d_scaling_min_custom_impl_npu, "conv2d + scale + min over channels");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, scale_factor):
        super().__init__()
        self.conv = torch.nn.Conv2d(in_channels, out_channels, kernel_size)
        self.scale_factor = scale_factor

    def forward(self, x):
        return custom_ops_lib.conv2d_scaling_min_custom(x, self.conv.weight, self.conv.bias, self.scale_factor)
'''
