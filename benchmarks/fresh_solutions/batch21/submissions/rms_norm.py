project_json_src='''
[
    {
        "op": "RmsNormCustom",
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
BEGIN_TILING_DATA_DEF(RmsNormCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);        // dim 0
  TILING_DATA_FIELD_DEF(uint32_t, channels);     // dim 1, the reduced axis
  TILING_DATA_FIELD_DEF(uint32_t, spatial);      // product of the trailing dims
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // spatial elements handled per tile
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerBatch);
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerCore);
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, invChannels);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RmsNormCustom, RmsNormCustomTilingData)
}
"""

host_operator_src="""
#include "rms_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// 4096 fp32 = 16KB per buffer; x (double buffered), y (double buffered), acc, square tmp
constexpr uint32_t MAX_TILE = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    RmsNormCustomTilingData tiling;
    const gert::StorageShape* xShape = context->GetInputShape(0);
    const auto& shape = xShape->GetOriginShape();
    uint32_t dimNum = shape.GetDimNum();
    if (dimNum < 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t batch = shape.GetDim(0);
    uint32_t channels = shape.GetDim(1);
    uint32_t spatial = 1;
    for (uint32_t i = 2; i < dimNum; i++) {
        spatial *= shape.GetDim(i);
    }

    float eps = 1e-5f;
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    if (attrs != nullptr) {
        const float* epsPtr = attrs->GetAttrPointer<float>(0);
        if (epsPtr != nullptr) {
            eps = *epsPtr;
        }
    }

    // keep the tile a multiple of 8 floats (one 32B block)
    uint32_t tileLen = spatial < MAX_TILE ? ((spatial + 7) / 8) * 8 : MAX_TILE;
    uint32_t tilesPerBatch = (spatial + tileLen - 1) / tileLen;
    uint32_t totalTiles = batch * tilesPerBatch;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t blockDim = totalTiles < coreNum ? totalTiles : coreNum;
    uint32_t tilesPerCore = (totalTiles + blockDim - 1) / blockDim;
    blockDim = (totalTiles + tilesPerCore - 1) / tilesPerCore;

    tiling.set_batch(batch);
    tiling.set_channels(channels);
    tiling.set_spatial(spatial);
    tiling.set_tileLen(tileLen);
    tiling.set_tilesPerBatch(tilesPerBatch);
    tiling.set_totalTiles(totalTiles);
    tiling.set_tilesPerCore(tilesPerCore);
    tiling.set_eps(eps);
    tiling.set_invChannels(1.0f / static_cast<float>(channels));

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
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class RmsNormCustom : public OpDef {
public:
    explicit RmsNormCustom(const char* name) : OpDef(name)
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
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(RmsNormCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// RMS norm over dim 1 of a (B, C, S) tensor.
// One "tile" = (batch b, spatial window [s0, s0 + len)). For each tile we make two passes
// over the C channels: first accumulate sum(x^2), then normalize x / sqrt(mean + eps).
class KernelRmsNorm {
public:
    __aicore__ inline KernelRmsNorm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RmsNormCustomTilingData& td)
    {
        batch = td.batch;
        channels = td.channels;
        spatial = td.spatial;
        tileLen = td.tileLen;
        tilesPerBatch = td.tilesPerBatch;
        eps = td.eps;
        invC = td.invChannels;

        uint32_t start = GetBlockIdx() * td.tilesPerCore;
        uint32_t end = start + td.tilesPerCore;
        if (end > td.totalTiles) {
            end = td.totalTiles;
        }
        tileStart = start;
        tileEnd = end;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)batch * channels * spatial);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)batch * channels * spatial);

        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(accBuf, tileLen * sizeof(float));
        pipe.InitBuffer(sqBuf, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = tileStart; t < tileEnd; t++) {
            uint32_t b = t / tilesPerBatch;
            uint32_t s0 = (t % tilesPerBatch) * tileLen;
            uint32_t len = spatial - s0;
            if (len > tileLen) {
                len = tileLen;
            }
            uint64_t base = (uint64_t)b * channels * spatial + s0;
            ReducePass(base, len);
            NormalizePass(base, len);
        }
    }

private:
    __aicore__ inline void LoadChannel(uint64_t offset, uint32_t len)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[offset], cp, pad);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void ReducePass(uint64_t base, uint32_t len)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        Duplicate(acc, 0.0f, len);
        for (uint32_t c = 0; c < channels; c++) {
            LoadChannel(base + (uint64_t)c * spatial, len);
            LocalTensor<float> xLocal = inQueue.DeQue<float>();
            Mul(sq, xLocal, xLocal, len);
            Add(acc, acc, sq, len);
            inQueue.FreeTensor(xLocal);
        }
        // acc <- sqrt(mean(x^2) + eps)
        Muls(acc, acc, invC, len);
        Adds(acc, acc, eps, len);
        Sqrt(acc, acc, len);
    }

    __aicore__ inline void NormalizePass(uint64_t base, uint32_t len)
    {
        LocalTensor<float> rms = accBuf.Get<float>();
        for (uint32_t c = 0; c < channels; c++) {
            uint64_t off = base + (uint64_t)c * spatial;
            LoadChannel(off, len);
            LocalTensor<float> xLocal = inQueue.DeQue<float>();
            LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
            Div(yLocal, xLocal, rms, len);
            outQueue.EnQue(yLocal);
            inQueue.FreeTensor(xLocal);

            LocalTensor<float> yOut = outQueue.DeQue<float>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm[off], yOut, cp);
            outQueue.FreeTensor(yOut);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<TPosition::VECCALC> accBuf;
    TBuf<TPosition::VECCALC> sqBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t batch, channels, spatial, tileLen, tilesPerBatch;
    uint32_t tileStart, tileEnd;
    float eps, invC;
};

extern "C" __global__ __aicore__ void rms_norm_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelRmsNorm op;
    op.Init(x, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor rms_norm_custom_impl_npu(const at::Tensor& x, double eps) {
    at::Tensor xc = x.contiguous();
    at::Tensor result = at::empty_like(xc);
    float epsF = static_cast<float>(eps);
    EXEC_NPU_CMD(aclnnRmsNormCustom, xc, epsF, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("rms_norm_custom", &rms_norm_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("rms_norm_custom", &rms_norm_custom_impl_npu, "RMS norm over dim 1");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super(ModelNew, self).__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.rms_norm_custom(x, self.eps)
'''
