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
  TILING_DATA_FIELD_DEF(uint32_t, batch);         // dim 0
  TILING_DATA_FIELD_DEF(uint32_t, channels);      // dim 1 (the reduced axis)
  TILING_DATA_FIELD_DEF(uint32_t, spatial);       // product of dims 2..n
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);       // spatial elements handled per tile
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerBatch); // ceil(spatial / tileLen)
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);    // batch * tilesPerBatch
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerCore);  // ceil(totalTiles / blockDim)
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
// spatial elements per tile; multiple of 8 floats so every full tile is 32B aligned
constexpr uint32_t RMS_TILE_LEN = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    RmsNormCustomTilingData tiling;
    const gert::StorageShape* xShape = context->GetInputShape(0);
    const gert::Shape& shape = xShape->GetOriginShape();
    if (shape.GetDimNum() < 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t batch = static_cast<uint32_t>(shape.GetDim(0));
    uint32_t channels = static_cast<uint32_t>(shape.GetDim(1));
    uint32_t spatial = 1;
    for (size_t i = 2; i < shape.GetDimNum(); ++i) {
        spatial *= static_cast<uint32_t>(shape.GetDim(i));
    }

    const float* epsAttr = context->GetAttrs()->GetAttrPointer<float>(0);
    float eps = (epsAttr == nullptr) ? 1e-5f : *epsAttr;

    uint32_t tileLen = RMS_TILE_LEN;
    if (spatial < tileLen) {
        tileLen = (spatial + 7) / 8 * 8;
    }
    uint32_t tilesPerBatch = (spatial + tileLen - 1) / tileLen;
    uint32_t totalTiles = batch * tilesPerBatch;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t blockDim = totalTiles < coreNum ? totalTiles : coreNum;
    if (blockDim == 0) {
        blockDim = 1;
    }
    uint32_t tilesPerCore = (totalTiles + blockDim - 1) / blockDim;

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
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

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

// RMS norm over dim 1 of a (B, C, S) view.
// Each tile covers tileLen consecutive spatial positions of one batch entry.
// Pass 1 streams the C channel rows of the tile and accumulates x*x,
// then the reciprocal rms is formed in-place; pass 2 streams the rows again
// and scales them.
class KernelRmsNorm {
public:
    __aicore__ inline KernelRmsNorm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RmsNormCustomTilingData& t)
    {
        batch = t.batch;
        channels = t.channels;
        spatial = t.spatial;
        tileLen = t.tileLen;
        tilesPerBatch = t.tilesPerBatch;
        eps = t.eps;
        invC = t.invChannels;

        uint32_t start = GetBlockIdx() * t.tilesPerCore;
        uint32_t end = start + t.tilesPerCore;
        if (end > t.totalTiles) {
            end = t.totalTiles;
        }
        tileBegin = start;
        tileEnd = start < end ? end : start;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)batch * channels * spatial);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)batch * channels * spatial);

        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(accBuf, tileLen * sizeof(float));
        pipe.InitBuffer(sqBuf, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t tile = tileBegin; tile < tileEnd; ++tile) {
            uint32_t b = tile / tilesPerBatch;
            uint32_t s0 = (tile % tilesPerBatch) * tileLen;
            uint32_t len = spatial - s0;
            if (len > tileLen) {
                len = tileLen;
            }
            uint64_t base = (uint64_t)b * channels * spatial + s0;
            Accumulate(base, len);
            Normalize(base, len);
        }
    }

private:
    __aicore__ inline void LoadRow(uint64_t offset, uint32_t len)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[offset], params, pad);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Accumulate(uint64_t base, uint32_t len)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        Duplicate(acc, 0.0f, len);
        for (uint32_t c = 0; c < channels; ++c) {
            LoadRow(base + (uint64_t)c * spatial, len);
            LocalTensor<float> xLocal = inQueue.DeQue<float>();
            Mul(sq, xLocal, xLocal, len);
            Add(acc, acc, sq, len);
            inQueue.FreeTensor(xLocal);
        }
        // acc <- 1 / sqrt(mean + eps)
        Muls(acc, acc, invC, len);
        Adds(acc, acc, eps, len);
        Sqrt(acc, acc, len);
        Duplicate(sq, 1.0f, len);
        Div(acc, sq, acc, len);
    }

    __aicore__ inline void Normalize(uint64_t base, uint32_t len)
    {
        LocalTensor<float> invRms = accBuf.Get<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        for (uint32_t c = 0; c < channels; ++c) {
            uint64_t off = base + (uint64_t)c * spatial;
            LoadRow(off, len);
            LocalTensor<float> xLocal = inQueue.DeQue<float>();
            LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
            Mul(yLocal, xLocal, invRms, len);
            outQueue.EnQue(yLocal);
            inQueue.FreeTensor(xLocal);

            LocalTensor<float> outLocal = outQueue.DeQue<float>();
            DataCopyPad(yGm[off], outLocal, params);
            outQueue.FreeTensor(outLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> accBuf;
    TBuf<QuePosition::VECCALC> sqBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;

    uint32_t batch;
    uint32_t channels;
    uint32_t spatial;
    uint32_t tileLen;
    uint32_t tilesPerBatch;
    uint32_t tileBegin;
    uint32_t tileEnd;
    float eps;
    float invC;
};

extern "C" __global__ __aicore__ void rms_norm_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRmsNorm op;
    op.Init(x, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor rms_norm_custom_impl_npu(const at::Tensor& x, double eps)
{
    TORCH_CHECK(x.dim() >= 2, "rms_norm_custom expects at least 2 dims");
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
    m.def("rms_norm_custom", &rms_norm_custom_impl_npu, "RMS norm over dim 1",
          pybind11::arg("x"), pybind11::arg("eps") = 1e-5);
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
