project_json_src='''
[
    {
        "op": "ChannelwiseMinDoubleTanhCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelwiseMinDoubleTanhTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);      // H * W
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);        // spatial elements per tile
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerPlane);
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);     // batch * tilesPerPlane
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraTiles);     // first extraTiles cores take one more
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelwiseMinDoubleTanhCustom, ChannelwiseMinDoubleTanhTilingData)
}
"""

host_operator_src="""
#include "channelwise_min_double_tanh_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t UB_RESERVE = 16 * 1024;

struct MinTanhSplit {
    uint32_t tileLen;
    uint32_t tilesPerPlane;
};

// Each tile holds C rows of tileLen elements (double-buffered) plus the output row.
MinTanhSplit ChooseSplit(uint64_t ubBytes, uint32_t channels, uint32_t planeSize, uint32_t typeSize)
{
    MinTanhSplit s{};
    uint32_t alignElems = BLOCK_BYTES / typeSize;
    uint64_t usable = ubBytes > UB_RESERVE ? ubBytes - UB_RESERVE : ubBytes / 2;
    uint64_t perElem = static_cast<uint64_t>(channels + 1) * BUFFER_NUM * typeSize;
    uint32_t len = static_cast<uint32_t>(usable / perElem);
    len = len / alignElems * alignElems;
    if (len == 0) {
        len = alignElems;
    }
    uint32_t planeAligned = (planeSize + alignElems - 1) / alignElems * alignElems;
    if (len > planeAligned) {
        len = planeAligned;
    }
    s.tileLen = len;
    s.tilesPerPlane = (planeSize + len - 1) / len;
    return s;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ChannelwiseMinDoubleTanhTilingData tiling;
    const gert::StorageShape* xShape = context->GetInputShape(0);
    const auto& shape = xShape->GetStorageShape();
    if (shape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = static_cast<uint32_t>(shape.GetDim(0));
    uint32_t c = static_cast<uint32_t>(shape.GetDim(1));
    uint32_t plane = static_cast<uint32_t>(shape.GetDim(2) * shape.GetDim(3));

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = (dt == ge::DT_FLOAT16) ? 2 : 4;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = platform.GetCoreNumAiv();

    MinTanhSplit split = ChooseSplit(ubSize, c, plane, typeSize);
    uint32_t totalTiles = n * split.tilesPerPlane;
    uint32_t usedCores = totalTiles < coreNum ? totalTiles : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }

    tiling.set_batch(n);
    tiling.set_channels(c);
    tiling.set_planeSize(plane);
    tiling.set_tileLen(split.tileLen);
    tiling.set_tilesPerPlane(split.tilesPerPlane);
    tiling.set_totalTiles(totalTiles);
    tiling.set_tilesPerCore(totalTiles / usedCores);
    tiling.set_extraTiles(totalTiles % usedCores);

    context->SetBlockDim(usedCores);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
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
    *out = *in;
    out->SetDim(1, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ChannelwiseMinDoubleTanhCustom : public OpDef {
public:
    explicit ChannelwiseMinDoubleTanhCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ChannelwiseMinDoubleTanhCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;

struct MinTanhParams {
    uint32_t batch;
    uint32_t channels;
    uint32_t planeSize;
    uint32_t tileLen;
    uint32_t tilesPerPlane;
    uint32_t tilesPerCore;
    uint32_t extraTiles;
};

template <typename T>
__aicore__ inline uint32_t AlignElems(uint32_t n)
{
    constexpr uint32_t a = BLOCK_BYTES / sizeof(T);
    return (n + a - 1) / a * a;
}

// In-place tree reduction over `rows` rows of `stride` elements, result lands in row 0.
template <typename T>
__aicore__ inline void FoldRowsMin(const LocalTensor<T>& buf, uint32_t rows, uint32_t stride)
{
    while (rows > 1) {
        uint32_t half = rows / 2;
        uint32_t keep = rows - half;
        Min(buf, buf, buf[keep * stride], half * stride);
        PipeBarrier<PIPE_V>();
        rows = keep;
    }
}

template <typename T>
class ChannelwiseMinDoubleTanh {
public:
    __aicore__ inline ChannelwiseMinDoubleTanh() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const MinTanhParams& p)
    {
        prm = p;
        uint32_t core = GetBlockIdx();
        tileCount = p.tilesPerCore + (core < p.extraTiles ? 1 : 0);
        firstTile = core * p.tilesPerCore + (core < p.extraTiles ? core : p.extraTiles);
        rowStride = AlignElems<T>(p.tileLen);

        xGm.SetGlobalBuffer((__gm__ T*)x, (uint64_t)p.batch * p.channels * p.planeSize);
        yGm.SetGlobalBuffer((__gm__ T*)y, (uint64_t)p.batch * p.planeSize);

        // inQ: all channel rows of one spatial tile; each row padded to 32B
        pipe.InitBuffer(inQ, BUFFER_NUM, p.channels * rowStride * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, rowStride * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = 0; t < tileCount; ++t) {
            uint32_t g = firstTile + t;
            uint32_t img = g / prm.tilesPerPlane;
            uint32_t offs = (g % prm.tilesPerPlane) * prm.tileLen;
            uint32_t len = prm.planeSize - offs;
            if (len > prm.tileLen) {
                len = prm.tileLen;
            }
            LoadTile(img, offs, len);
            ReduceAndActivate(len);
            StoreTile(img, offs, len);
        }
    }

private:
    __aicore__ inline void LoadTile(uint32_t img, uint32_t offs, uint32_t len)
    {
        LocalTensor<T> xl = inQ.AllocTensor<T>();
        uint32_t lenAligned = AlignElems<T>(len);
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(prm.channels);
        cp.blockLen = len * sizeof(T);
        cp.srcStride = (prm.planeSize - len) * sizeof(T);
        // keep rows at rowStride so the fold can address them uniformly
        cp.dstStride = (rowStride - lenAligned) * sizeof(T) / BLOCK_BYTES;
        cp.rsv = 0;
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        uint64_t base = (uint64_t)img * prm.channels * prm.planeSize + offs;
        DataCopyPad(xl, xGm[base], cp, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void ReduceAndActivate(uint32_t len)
    {
        LocalTensor<T> xl = inQ.DeQue<T>();
        LocalTensor<T> yl = outQ.AllocTensor<T>();
        uint32_t n = AlignElems<T>(len);
        FoldRowsMin(xl, prm.channels, rowStride);
        Tanh(yl, xl, n);
        PipeBarrier<PIPE_V>();
        Tanh(yl, yl, n);
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void StoreTile(uint32_t img, uint32_t offs, uint32_t len)
    {
        LocalTensor<T> yl = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[(uint64_t)img * prm.planeSize + offs], yl, cp);
        outQ.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    MinTanhParams prm;
    uint32_t tileCount = 0;
    uint32_t firstTile = 0;
    uint32_t rowStride = 0;
};

extern "C" __global__ __aicore__ void channelwise_min_double_tanh_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    MinTanhParams p{td.batch, td.channels, td.planeSize, td.tileLen, td.tilesPerPlane, td.tilesPerCore, td.extraTiles};
    if (TILING_KEY_IS(1)) {
        ChannelwiseMinDoubleTanh<half> op;
        op.Init(x, y, p);
        op.Process();
    } else {
        ChannelwiseMinDoubleTanh<float> op;
        op.Init(x, y, p);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv2d stays on the stock NPU kernel; min over channels + tanh(tanh(.)) is the custom op
at::Tensor channelwise_min_double_tanh_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias)
{
    at::Tensor feat = at::conv2d(x, weight, bias).contiguous();
    auto sizes = feat.sizes().vec();
    sizes[1] = 1;
    at::Tensor result = at::empty(sizes, feat.options());
    EXEC_NPU_CMD(aclnnChannelwiseMinDoubleTanhCustom, feat, result);
    return result;
}

at::Tensor channelwise_min_double_tanh_only_npu(const at::Tensor& feat)
{
    auto sizes = feat.sizes().vec();
    sizes[1] = 1;
    at::Tensor result = at::empty(sizes, feat.options());
    EXEC_NPU_CMD(aclnnChannelwiseMinDoubleTanhCustom, feat, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("channelwise_min_double_tanh_custom", &channelwise_min_double_tanh_only_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("channelwise_min_double_tanh_custom", &channelwise_min_double_tanh_only_npu, "tanh(tanh(min over dim 1))");
    m.def("conv2d_channelwise_min_double_tanh", &channelwise_min_double_tanh_impl_npu, "conv2d + channel min + double tanh");
}
"""
