project_json_src = '''
[
    {
        "op": "ChannelAffineReluCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            },
            {
                "name": "scale",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float"]
            },
            {
                "name": "shift",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ]
    }
]
'''

host_tiling_src = """
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelAffineReluTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planeCount);     // N * C
  TILING_DATA_FIELD_DEF(uint32_t, channels);       // C
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);      // H * W
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, planesRemainder);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);        // elements per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelAffineReluCustom, ChannelAffineReluTilingData)
}
"""

host_operator_src = """
#include "channel_affine_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t ALIGN_BYTES = 32;

struct AffineTilingHelper {
    static uint32_t PickTile(uint64_t ubBytes, uint32_t elemBytes, uint32_t planeSize)
    {
        // x and y queues, each double buffered; keep 8KB headroom
        uint64_t usable = ubBytes > 8192 ? ubBytes - 8192 : ubBytes;
        uint64_t tile = usable / (2 * BUFFER_NUM * elemBytes);
        uint32_t perBlock = ALIGN_BYTES / elemBytes;
        tile = tile / perBlock * perBlock;
        if (tile > 16384) {
            tile = 16384;
        }
        uint64_t planeAligned = (planeSize + perBlock - 1) / perBlock * perBlock;
        return static_cast<uint32_t>(tile < planeAligned ? tile : planeAligned);
    }
};

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    ChannelAffineReluTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubBytes = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);
    uint32_t coreNum = platform.GetCoreNumAiv();

    const gert::Shape &shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() < 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = shape.GetDim(0);
    uint32_t c = shape.GetDim(1);
    uint32_t plane = 1;
    for (size_t i = 2; i < shape.GetDimNum(); ++i) {
        plane *= shape.GetDim(i);
    }
    uint32_t planes = n * c;
    uint32_t used = planes < coreNum ? planes : coreNum;
    if (used == 0) {
        used = 1;
    }

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elemBytes = (dt == ge::DT_FLOAT16) ? 2 : 4;
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);

    tiling.set_planeCount(planes);
    tiling.set_channels(c);
    tiling.set_planeSize(plane);
    tiling.set_planesPerCore(planes / used);
    tiling.set_planesRemainder(planes % used);
    tiling.set_tileLen(AffineTilingHelper::PickTile(ubBytes, elemBytes, plane));

    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ChannelAffineReluCustom : public OpDef {
public:
    explicit ChannelAffineReluCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("scale")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("shift")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ChannelAffineReluCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Copies `len` elements GM<->UB; the tail of a plane may not be 32B aligned.
template <typename T>
__aicore__ inline void LoadSpan(const LocalTensor<T> &dst, const GlobalTensor<T> &src, uint32_t len)
{
    DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
    DataCopyPadExtParams<T> pad{false, 0, 0, 0};
    DataCopyPad(dst, src, p, pad);
}

template <typename T>
__aicore__ inline void StoreSpan(const GlobalTensor<T> &dst, const LocalTensor<T> &src, uint32_t len)
{
    DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
    DataCopyPad(dst, src, p);
}

template <typename T>
class ChannelAffineReluKernel {
public:
    __aicore__ inline ChannelAffineReluKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                const ChannelAffineReluTilingData &td)
    {
        channels_ = td.channels;
        planeSize_ = td.planeSize;
        tileLen_ = td.tileLen;

        uint32_t idx = GetBlockIdx();
        uint32_t extra = idx < td.planesRemainder ? idx : td.planesRemainder;
        planeBegin_ = idx * td.planesPerCore + extra;
        planeEnd_ = planeBegin_ + td.planesPerCore + (idx < td.planesRemainder ? 1 : 0);

        xGm_.SetGlobalBuffer((__gm__ T *)x);
        yGm_.SetGlobalBuffer((__gm__ T *)y);
        scaleGm_.SetGlobalBuffer((__gm__ float *)scale, channels_);
        shiftGm_.SetGlobalBuffer((__gm__ float *)shift, channels_);

        pipe_.InitBuffer(inQ_, BUFFER_NUM, tileLen_ * sizeof(T));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, tileLen_ * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        uint32_t tiles = (planeSize_ + tileLen_ - 1) / tileLen_;
        for (uint32_t p = planeBegin_; p < planeEnd_; ++p) {
            uint32_t ch = p % channels_;
            T a = static_cast<T>(scaleGm_.GetValue(ch));
            T b = static_cast<T>(shiftGm_.GetValue(ch));
            uint64_t base = static_cast<uint64_t>(p) * planeSize_;
            for (uint32_t t = 0; t < tiles; ++t) {
                uint32_t off = t * tileLen_;
                uint32_t len = (off + tileLen_ <= planeSize_) ? tileLen_ : planeSize_ - off;
                CopyIn(base + off, len);
                Compute(a, b, len);
                CopyOut(base + off, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t gmOff, uint32_t len)
    {
        LocalTensor<T> xl = inQ_.AllocTensor<T>();
        LoadSpan(xl, xGm_[gmOff], len);
        inQ_.EnQue(xl);
    }

    __aicore__ inline void Compute(T a, T b, uint32_t len)
    {
        LocalTensor<T> xl = inQ_.DeQue<T>();
        LocalTensor<T> yl = outQ_.AllocTensor<T>();
        // y = relu(x * a + b): folded batch-norm then activation
        Muls(yl, xl, a, len);
        Adds(yl, yl, b, len);
        Relu(yl, yl, len);
        outQ_.EnQue(yl);
        inQ_.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t gmOff, uint32_t len)
    {
        LocalTensor<T> yl = outQ_.DeQue<T>();
        StoreSpan(yGm_[gmOff], yl, len);
        outQ_.FreeTensor(yl);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
    GlobalTensor<T> xGm_, yGm_;
    GlobalTensor<float> scaleGm_, shiftGm_;
    uint32_t channels_ = 0;
    uint32_t planeSize_ = 0;
    uint32_t tileLen_ = 0;
    uint32_t planeBegin_ = 0;
    uint32_t planeEnd_ = 0;
};

extern "C" __global__ __aicore__ void channel_affine_relu_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        ChannelAffineReluKernel<half> op;
        op.Init(x, scale, shift, y, td);
        op.Process();
    } else if (TILING_KEY_IS(0)) {
        ChannelAffineReluKernel<float> op;
        op.Init(x, scale, shift, y, td);
        op.Process();
    }
}
"""

python_bind_src = """
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

at::Tensor channel_affine_relu_impl_npu(const at::Tensor &x, const at::Tensor &scale, const at::Tensor &shift)
{
    at::Tensor xc = x.contiguous();
    at::Tensor s = scale.to(at::kFloat).contiguous();
    at::Tensor b = shift.to(at::kFloat).contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnChannelAffineReluCustom, xc, s, b, y);
    return y;
}

// One dense block: per layer BN (batch statistics, as the module runs in training mode)
// folded into a per-channel affine, fused with ReLU on the NPU, then 3x3 conv and concat.
at::Tensor dense_block_forward(const at::Tensor &x,
                               const std::vector<at::Tensor> &bnWeight,
                               const std::vector<at::Tensor> &bnBias,
                               const std::vector<at::Tensor> &convWeight,
                               double eps)
{
    TORCH_CHECK(bnWeight.size() == convWeight.size() && bnBias.size() == convWeight.size(),
                "parameter lists must have one entry per layer");
    std::vector<at::Tensor> feats{x};
    at::Tensor cur = x.contiguous();
    for (size_t i = 0; i < convWeight.size(); ++i) {
        at::Tensor mean = cur.mean({0, 2, 3});
        at::Tensor var = at::var(cur, {0, 2, 3}, /*unbiased=*/false);
        at::Tensor scale = bnWeight[i] * at::rsqrt(var + eps);
        at::Tensor shift = bnBias[i] - mean * scale;
        at::Tensor act = channel_affine_relu_impl_npu(cur, scale, shift);
        at::Tensor newFeat = at::conv2d(act, convWeight[i], {}, {1, 1}, {1, 1});
        feats.push_back(newFeat);
        cur = at::cat(feats, 1);
    }
    return cur;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("channel_affine_relu_custom", &channel_affine_relu_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("channel_affine_relu_custom", &channel_affine_relu_impl_npu, "relu(x * scale[c] + shift[c])");
    m.def("dense_block_forward", &dense_block_forward, "DenseNet dense block forward");
}
"""
