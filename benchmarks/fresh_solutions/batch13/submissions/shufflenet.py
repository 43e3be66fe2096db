project_json_src='''
[
    {
        "op": "GroupChannelInterleaveCustom",
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
            {"name": "groups", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GroupChannelInterleaveTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, perGroup);
  TILING_DATA_FIELD_DEF(uint32_t, plane);
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);
  TILING_DATA_FIELD_DEF(uint32_t, chunkStride);
  TILING_DATA_FIELD_DEF(uint32_t, chunks);
  TILING_DATA_FIELD_DEF(uint32_t, unitsBase);
  TILING_DATA_FIELD_DEF(uint32_t, unitsExtra);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GroupChannelInterleaveCustom, GroupChannelInterleaveTilingData)
}
"""

host_operator_src="""
#include "group_channel_interleave_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t SLOT_BYTES = 48 * 1024;   // one bound-queue slot holds `groups` chunks

class InterleavePlanner {
public:
    InterleavePlanner(uint32_t plane, uint32_t groups, uint32_t elem) : plane_(plane), groups_(groups), elem_(elem) {}
    // chunk length per plane; each chunk row is padded to 32 B inside UB
    uint32_t ChunkLen() const
    {
        uint32_t align = 32 / elem_;
        uint32_t cap = SLOT_BYTES / elem_ / groups_;
        cap = cap / align * align;
        if (cap == 0) {
            cap = align;
        }
        return plane_ < cap ? plane_ : cap;
    }
    uint32_t ChunkStride(uint32_t len) const
    {
        uint32_t align = 32 / elem_;
        return (len + align - 1) / align * align;
    }

private:
    uint32_t plane_, groups_, elem_;
};

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GroupChannelInterleaveTilingData td;
    const gert::Shape& s = context->GetInputShape(0)->GetOriginShape();
    uint32_t n = s.GetDim(0);
    uint32_t c = s.GetDim(1);
    uint32_t plane = 1;
    for (size_t i = 2; i < s.GetDimNum(); ++i) {
        plane *= static_cast<uint32_t>(s.GetDim(i));
    }
    uint32_t g = static_cast<uint32_t>(*context->GetAttrs()->GetAttrPointer<int64_t>(0));
    if (g == 0 || c % g != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t elem = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    InterleavePlanner planner(plane, g, elem);
    uint32_t chunk = planner.ChunkLen();
    uint32_t chunks = (plane + chunk - 1) / chunk;
    uint32_t perGroup = c / g;
    uint32_t units = n * perGroup * chunks;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores > units ? units : cores;
    cores = cores == 0 ? 1 : cores;

    td.set_batch(n);
    td.set_channels(c);
    td.set_groups(g);
    td.set_perGroup(perGroup);
    td.set_plane(plane);
    td.set_chunkLen(chunk);
    td.set_chunkStride(planner.ChunkStride(chunk));
    td.set_chunks(chunks);
    td.set_unitsBase(units / cores);
    td.set_unitsExtra(units % cores);

    context->SetBlockDim(cores);
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
class GroupChannelInterleaveCustom : public OpDef {
public:
    explicit GroupChannelInterleaveCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("groups").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GroupChannelInterleaveCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// out channel j*g + i  <-  in channel i*cpg + j.  For fixed (n, j) the g source planes sit
// cpg planes apart and the g destination planes are adjacent, so one strided gather and one
// contiguous store move a whole group per chunk.
template <typename T>
class GroupChannelInterleave {
public:
    __aicore__ inline GroupChannelInterleave() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const GroupChannelInterleaveTilingData& td)
    {
        td_ = td;
        uint32_t idx = AscendC::GetBlockIdx();
        count_ = td.unitsBase + (idx < td.unitsExtra ? 1 : 0);
        begin_ = idx * td.unitsBase + (idx < td.unitsExtra ? idx : td.unitsExtra);
        xGm_.SetGlobalBuffer((__gm__ T*)x);
        yGm_.SetGlobalBuffer((__gm__ T*)y);
        pipe_.InitBuffer(que_, BUFFER_NUM, td.groups * td.chunkStride * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t k = 0; k < count_; ++k) {
            uint32_t u = begin_ + k;
            uint32_t chunk = u % td_.chunks;
            uint32_t rest = u / td_.chunks;
            uint32_t j = rest % td_.perGroup;
            uint32_t n = rest / td_.perGroup;
            uint32_t pos = chunk * td_.chunkLen;
            uint32_t len = (td_.plane - pos) < td_.chunkLen ? (td_.plane - pos) : td_.chunkLen;
            Gather(n, j, pos, len);
            Scatter(n, j, pos, len);
        }
    }

private:
    __aicore__ inline void Gather(uint32_t n, uint32_t j, uint32_t pos, uint32_t len)
    {
        AscendC::LocalTensor<T> buf = que_.AllocTensor<T>();
        uint64_t src = ((uint64_t)n * td_.channels + j) * td_.plane + pos;
        AscendC::DataCopyExtParams cp{static_cast<uint16_t>(td_.groups), static_cast<uint32_t>(len * sizeof(T)),
                                      static_cast<uint32_t>(((uint64_t)td_.perGroup * td_.plane - len) * sizeof(T)),
                                      static_cast<uint32_t>((td_.chunkStride * sizeof(T) - ((len * sizeof(T) + 31) / 32 * 32)) / 32),
                                      0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(buf, xGm_[src], cp, pad);
        que_.EnQue(buf);
    }

    __aicore__ inline void Scatter(uint32_t n, uint32_t j, uint32_t pos, uint32_t len)
    {
        AscendC::LocalTensor<T> buf = que_.DeQue<T>();
        uint64_t dst = ((uint64_t)n * td_.channels + (uint64_t)j * td_.groups) * td_.plane + pos;
        AscendC::DataCopyExtParams cp{static_cast<uint16_t>(td_.groups), static_cast<uint32_t>(len * sizeof(T)),
                                      static_cast<uint32_t>((td_.chunkStride * sizeof(T) - ((len * sizeof(T) + 31) / 32 * 32)) / 32),
                                      static_cast<uint32_t>((td_.plane - len) * sizeof(T)), 0};
        AscendC::DataCopyPad(yGm_[dst], buf, cp);
        que_.FreeTensor(buf);
    }

    AscendC::TPipe pipe_;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, BUFFER_NUM> que_;
    AscendC::GlobalTensor<T> xGm_, yGm_;
    GroupChannelInterleaveTilingData td_;
    uint32_t count_ = 0, begin_ = 0;
};

extern "C" __global__ __aicore__ void group_channel_interleave_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GroupChannelInterleave<DTYPE_X> op;
    op.Init(x, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include <vector>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor group_channel_interleave_impl_npu(const at::Tensor& x, int64_t groups)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnGroupChannelInterleaveCustom, xc, groups, y);
    return y;
}

namespace {
// Walks the flat parameter list in module registration order.
struct ParamCursor {
    const std::vector<at::Tensor>& p;
    size_t i = 0;
    explicit ParamCursor(const std::vector<at::Tensor>& params) : p(params) {}
    const at::Tensor& next()
    {
        TORCH_CHECK(i < p.size(), "parameter list too short");
        return p[i++];
    }
};

// BatchNorm2d in training mode: weight, bias, running_mean, running_var
at::Tensor bn_train(const at::Tensor& x, ParamCursor& pc)
{
    const at::Tensor& w = pc.next();
    const at::Tensor& b = pc.next();
    const at::Tensor& rm = pc.next();
    const at::Tensor& rv = pc.next();
    return at::batch_norm(x, w, b, rm, rv, true, 0.1, 1e-5, false);
}

at::Tensor conv(const at::Tensor& x, const at::Tensor& w, int64_t stride, int64_t pad, int64_t groups)
{
    return at::conv2d(x, w, {}, {stride, stride}, {pad, pad}, {1, 1}, groups);
}

at::Tensor shuffle_unit(const at::Tensor& x, ParamCursor& pc, int64_t in_ch, int64_t out_ch, int64_t groups)
{
    int64_t mid = out_ch / 4;
    at::Tensor out = at::relu(bn_train(conv(x, pc.next(), 1, 0, groups), pc));
    out = bn_train(conv(out, pc.next(), 1, 1, mid), pc);
    out = group_channel_interleave_impl_npu(out, groups);
    out = at::relu(bn_train(conv(out, pc.next(), 1, 0, groups), pc));
    if (in_ch == out_ch) {
        return out + x;
    }
    at::Tensor sc = bn_train(conv(x, pc.next(), 1, 0, 1), pc);
    return out + sc;
}
}

// params: conv1.w, bn1 x4, units (conv1.w, bn x4, conv2.w, bn x4, conv3.w, bn x4, [shortcut conv.w, bn x4]),
//         conv5.w, bn5 x4, fc.w, fc.b
at::Tensor shufflenet_forward_npu(const at::Tensor& x, const std::vector<at::Tensor>& params, int64_t groups,
                                  const std::vector<int64_t>& repeats, const std::vector<int64_t>& channels)
{
    TORCH_CHECK(channels.size() == repeats.size() + 1, "channels must have one more entry than repeats");
    ParamCursor pc(params);
    at::Tensor h = at::relu(bn_train(conv(x, pc.next(), 2, 1, 1), pc));
    h = at::max_pool2d(h, {3, 3}, {2, 2}, {1, 1});
    for (size_t s = 0; s < repeats.size(); ++s) {
        for (int64_t r = 0; r < repeats[s]; ++r) {
            int64_t in_ch = r == 0 ? channels[s] : channels[s + 1];
            h = shuffle_unit(h, pc, in_ch, channels[s + 1], groups);
        }
    }
    h = at::relu(bn_train(conv(h, pc.next(), 1, 0, 1), pc));
    h = at::adaptive_avg_pool2d(h, {1, 1}).flatten(1);
    const at::Tensor& fw = pc.next();
    const at::Tensor& fb = pc.next();
    return at::linear(h, fw, fb);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("group_channel_interleave_custom", &group_channel_interleave_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("group_channel_interleave_custom", &group_channel_interleave_impl_npu, "ShuffleNet channel shuffle");
    m.def("shufflenet_forward", &shufflenet_forward_npu, "ShuffleNet forward with the custom channel shuffle");
}
"""
