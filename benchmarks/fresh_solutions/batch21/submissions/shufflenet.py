project_json_src='''
[
    {
        "op": "ChannelInterleaveCustom",
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
        ],
        "attr": [
            {
                "name": "groups",
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
BEGIN_TILING_DATA_DEF(ChannelInterleaveTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);      // H * W
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);  // (n, c) planes handled by one core
  TILING_DATA_FIELD_DEF(uint32_t, planesTail);     // leftover planes, spread over first cores
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);        // elements per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelInterleaveCustom, ChannelInterleaveTilingData)
}
"""

host_operator_src="""
#include "channel_interleave_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t KEY_FP32 = 1;
constexpr uint32_t KEY_FP16 = 2;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t UB_RESERVE = 8 * 1024;

struct InterleaveTilingHelper {
    uint32_t coreNum;
    uint64_t ubSize;
    uint32_t typeSize;

    uint32_t TileLen(uint32_t planeSize) const
    {
        // one queue, double buffered; tile length aligned to 32 bytes
        uint32_t alignElems = 32 / typeSize;
        uint64_t cap = (ubSize - UB_RESERVE) / (BUFFER_NUM * typeSize);
        cap = cap / alignElems * alignElems;
        uint32_t want = (planeSize + alignElems - 1) / alignElems * alignElems;
        return static_cast<uint32_t>(want < cap ? want : cap);
    }
};

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ChannelInterleaveTilingData tiling;
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const int64_t* groupsAttr = context->GetAttrs()->GetInt(0);
    uint32_t groups = static_cast<uint32_t>(*groupsAttr);
    uint32_t n = shape.GetDim(0);
    uint32_t c = shape.GetDim(1);
    uint32_t plane = shape.GetDim(2) * shape.GetDim(3);
    if (groups == 0 || c % groups != 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    InterleaveTilingHelper helper;
    helper.coreNum = plat.GetCoreNumAiv();
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, helper.ubSize);
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    helper.typeSize = (dt == ge::DT_FLOAT16) ? 2 : 4;

    uint32_t totalPlanes = n * c;
    uint32_t cores = totalPlanes < helper.coreNum ? totalPlanes : helper.coreNum;
    if (cores == 0) cores = 1;

    tiling.set_batch(n);
    tiling.set_channels(c);
    tiling.set_groups(groups);
    tiling.set_planeSize(plane);
    tiling.set_planesPerCore(totalPlanes / cores);
    tiling.set_planesTail(totalPlanes % cores);
    tiling.set_tileLen(helper.TileLen(plane));

    context->SetBlockDim(cores);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? KEY_FP16 : KEY_FP32);
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
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ChannelInterleaveCustom : public OpDef {
public:
    explicit ChannelInterleaveCustom(const char* name) : OpDef(name)
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
        this->Attr("groups").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ChannelInterleaveCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Maps an output channel index to the input channel it is read from.
// out channel (j * groups + g) <- in channel (g * cpg + j)
struct InterleaveIndex {
    uint32_t groups;
    uint32_t cpg;
    __aicore__ inline uint32_t Source(uint32_t outC) const
    {
        uint32_t j = outC / groups;
        uint32_t g = outC - j * groups;
        return g * cpg + j;
    }
};

template <typename T>
class ChannelInterleaveKernel {
public:
    __aicore__ inline ChannelInterleaveKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ChannelInterleaveTilingData& td)
    {
        channels = td.channels;
        plane = td.planeSize;
        tileLen = td.tileLen;
        idx.groups = td.groups;
        idx.cpg = td.channels / td.groups;

        uint32_t blk = GetBlockIdx();
        planeCount = td.planesPerCore + (blk < td.planesTail ? 1 : 0);
        planeStart = blk * td.planesPerCore + (blk < td.planesTail ? blk : td.planesTail);

        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        pipe.InitBuffer(moveQue, BUFFER_NUM, tileLen * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = 0; p < planeCount; ++p) {
            uint32_t flat = planeStart + p;
            uint32_t b = flat / channels;
            uint32_t oc = flat - b * channels;
            uint64_t dstBase = static_cast<uint64_t>(flat) * plane;
            uint64_t srcBase = (static_cast<uint64_t>(b) * channels + idx.Source(oc)) * plane;
            for (uint32_t off = 0; off < plane; off += tileLen) {
                uint32_t len = (plane - off) < tileLen ? (plane - off) : tileLen;
                CopyIn(srcBase + off, len);
                CopyOut(dstBase + off, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t gmOff, uint32_t len)
    {
        LocalTensor<T> buf = moveQue.AllocTensor<T>();
        // DataCopyPad handles plane sizes that are not a multiple of 32 bytes (e.g. 14x14)
        DataCopyExtParams prm{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(buf, xGm[gmOff], prm, pad);
        moveQue.EnQue(buf);
    }
    __aicore__ inline void CopyOut(uint64_t gmOff, uint32_t len)
    {
        LocalTensor<T> buf = moveQue.DeQue<T>();
        DataCopyExtParams prm{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[gmOff], buf, prm);
        moveQue.FreeTensor(buf);
    }

    TPipe pipe;
    // relay buffer: GM -> UB -> GM without a vector stage
    TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> moveQue;
    GlobalTensor<T> xGm, yGm;
    InterleaveIndex idx;
    uint32_t channels, plane, tileLen;
    uint32_t planeStart, planeCount;
};

extern "C" __global__ __aicore__ void channel_interleave_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        ChannelInterleaveKernel<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        ChannelInterleaveKernel<half> op;
        op.Init(x, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

at::Tensor channel_interleave_impl_npu(const at::Tensor& x, int64_t groups)
{
    at::Tensor src = x.contiguous();
    at::Tensor y = at::empty_like(src);
    EXEC_NPU_CMD(aclnnChannelInterleaveCustom, src, groups, y);
    return y;
}

// Walks a flat parameter list in module registration order.
struct ParamCursor {
    const std::vector<at::Tensor>& p;
    size_t i = 0;
    explicit ParamCursor(const std::vector<at::Tensor>& v) : p(v) {}
    const at::Tensor& next() { return p.at(i++); }
};

static at::Tensor bn(const at::Tensor& x, ParamCursor& pc, bool training)
{
    const at::Tensor& w = pc.next();
    const at::Tensor& b = pc.next();
    const at::Tensor& rm = pc.next();
    const at::Tensor& rv = pc.next();
    return at::batch_norm(x, w, b, rm, rv, training, 0.1, 1e-5, true);
}

static at::Tensor shuffle_unit(const at::Tensor& x, ParamCursor& pc, int64_t inC, int64_t outC,
                               int64_t groups, bool training)
{
    int64_t mid = outC / 4;
    at::Tensor out = at::conv2d(x, pc.next(), {}, 1, 0, 1, groups);
    out = at::relu(bn(out, pc, training));
    out = at::conv2d(out, pc.next(), {}, 1, 1, 1, mid);
    out = bn(out, pc, training);
    out = channel_interleave_impl_npu(out, groups);
    out = at::conv2d(out, pc.next(), {}, 1, 0, 1, groups);
    out = at::relu(bn(out, pc, training));
    at::Tensor sc;
    if (inC == outC) {
        sc = x;
    } else {
        sc = at::conv2d(x, pc.next(), {}, 1, 0, 1, 1);
        sc = bn(sc, pc, training);
    }
    return out + sc;
}

// params: conv1.w, bn1(w,b,rm,rv), units..., conv5.w, bn5(...), fc.w, fc.b
at::Tensor shufflenet_forward(const at::Tensor& x, const std::vector<at::Tensor>& params,
                              int64_t groups, bool training)
{
    ParamCursor pc(params);
    const int64_t outs[4] = {24, 240, 480, 960};
    const int64_t reps[3] = {3, 7, 3};

    at::Tensor h = at::conv2d(x, pc.next(), {}, 2, 1);
    h = at::relu(bn(h, pc, training));
    h = at::max_pool2d(h, {3, 3}, {2, 2}, {1, 1});
    for (int s = 0; s < 3; ++s) {
        for (int r = 0; r < reps[s]; ++r) {
            int64_t inC = (r == 0) ? outs[s] : outs[s + 1];
            h = shuffle_unit(h, pc, inC, outs[s + 1], groups, training);
        }
    }
    h = at::conv2d(h, pc.next());
    h = at::relu(bn(h, pc, training));
    h = at::adaptive_avg_pool2d(h, {1, 1}).flatten(1);
    const at::Tensor& fw = pc.next();
    const at::Tensor& fb = pc.next();
    return at::linear(h, fw, fb);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("channel_interleave_custom", &channel_interleave_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("channel_interleave_custom", &channel_interleave_impl_npu, "channel shuffle (groups)");
    m.def("shufflenet_forward", &shufflenet_forward, "ShuffleNet forward with custom channel shuffle");
}
"""
