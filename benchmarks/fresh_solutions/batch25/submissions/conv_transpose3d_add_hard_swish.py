project_json_src='''
[
    {
        "op": "SumTimesHardSwishCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "a", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "b", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SumTimesHardSwishTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, total);
  TILING_DATA_FIELD_DEF(uint64_t, bigCoreLen);    // elements for the first bigCores cores
  TILING_DATA_FIELD_DEF(uint64_t, smallCoreLen);  // elements for the remaining cores
  TILING_DATA_FIELD_DEF(uint32_t, bigCores);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SumTimesHardSwishCustom, SumTimesHardSwishTilingData)
}
"""

host_operator_src="""
#include "sum_times_hard_swish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t UB_TILE_BYTES = 16 * 1024;   // per queue slot; 2 in + 1 out queue, double buffered, + fp32 scratch

// Split `total` elements into whole 32 B blocks: the first `big` cores get one block more.
class BlockSplitter {
public:
    BlockSplitter(uint64_t total, uint32_t typeSize, uint32_t cores)
    {
        uint32_t perBlock = BLOCK_BYTES / typeSize;
        uint64_t blocks = (total + perBlock - 1) / perBlock;
        used = blocks < cores ? static_cast<uint32_t>(blocks) : cores;
        if (used == 0) {
            used = 1;
        }
        uint64_t base = blocks / used;
        big = static_cast<uint32_t>(blocks % used);
        bigLen = (base + 1) * perBlock;
        smallLen = base * perBlock;
    }
    uint32_t used;
    uint32_t big;
    uint64_t bigLen;
    uint64_t smallLen;
};
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SumTimesHardSwishTilingData td;
    uint64_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = dt == ge::DT_FLOAT16 ? 2 : 4;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    BlockSplitter split(total, typeSize, plat.GetCoreNumAiv());

    td.set_total(total);
    td.set_bigCoreLen(split.bigLen);
    td.set_smallCoreLen(split.smallLen);
    td.set_bigCores(split.big);
    td.set_tileLen(UB_TILE_BYTES / typeSize);

    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(split.used);
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
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class SumTimesHardSwishCustom : public OpDef {
public:
    explicit SumTimesHardSwishCustom(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SumTimesHardSwishCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// s = a + b;  out = s * hardswish(s) = s * s * clamp(s + 3, 0, 6) / 6   (fp32 math)
struct SquareHardSwish {
    __aicore__ static inline void Apply(const LocalTensor<float>& s, const LocalTensor<float>& gate, uint32_t n)
    {
        Adds(gate, s, 3.0f, n);
        Maxs(gate, gate, 0.0f, n);
        Mins(gate, gate, 6.0f, n);
        Muls(gate, gate, 1.0f / 6.0f, n);
        Mul(gate, gate, s, n);
        Mul(s, gate, s, n);
    }
};

template <typename T>
class SumTimesHardSwish {
public:
    __aicore__ inline SumTimesHardSwish() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR out, const SumTimesHardSwishTilingData& td)
    {
        uint32_t idx = GetBlockIdx();
        uint64_t start;
        if (idx < td.bigCores) {
            len = td.bigCoreLen;
            start = idx * td.bigCoreLen;
        } else {
            len = td.smallCoreLen;
            start = td.bigCores * td.bigCoreLen + (idx - td.bigCores) * td.smallCoreLen;
        }
        // the last core may extend past the tensor end because lengths are block-rounded
        if (start >= td.total) {
            len = 0;
        } else if (start + len > td.total) {
            len = td.total - start;
        }
        tileLen = td.tileLen;
        aGm.SetGlobalBuffer((__gm__ T*)a + start, len);
        bGm.SetGlobalBuffer((__gm__ T*)b + start, len);
        oGm.SetGlobalBuffer((__gm__ T*)out + start, len);
        pipe.InitBuffer(aQue, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(bQue, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(oQue, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(fBuf, 2 * tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t tiles = (len + tileLen - 1) / tileLen;
        for (uint64_t t = 0; t < tiles; ++t) {
            uint64_t off = t * tileLen;
            uint32_t n = static_cast<uint32_t>((len - off) < tileLen ? (len - off) : tileLen);
            CopyIn(off, n);
            Compute(n);
            CopyOut(off, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        LocalTensor<T> la = aQue.AllocTensor<T>();
        LocalTensor<T> lb = bQue.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        DataCopyPad(la, aGm[off], cp, pad);
        DataCopyPad(lb, bGm[off], cp, pad);
        aQue.EnQue(la);
        bQue.EnQue(lb);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> la = aQue.DeQue<T>();
        LocalTensor<T> lb = bQue.DeQue<T>();
        LocalTensor<T> lo = oQue.AllocTensor<T>();
        LocalTensor<float> s = fBuf.Get<float>();
        LocalTensor<float> g = s[tileLen];
        if constexpr (std::is_same<T, float>::value) {
            Add(s, la, lb, n);
            SquareHardSwish::Apply(s, g, n);
            DataCopy(lo, s, (n + 7) / 8 * 8);
        } else {
            Cast(s, la, RoundMode::CAST_NONE, n);
            Cast(g, lb, RoundMode::CAST_NONE, n);
            Add(s, s, g, n);
            SquareHardSwish::Apply(s, g, n);
            Cast(lo, s, RoundMode::CAST_ROUND, n);
        }
        aQue.FreeTensor(la);
        bQue.FreeTensor(lb);
        oQue.EnQue(lo);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t n)
    {
        LocalTensor<T> lo = oQue.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(oGm[off], lo, cp);
        oQue.FreeTensor(lo);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> aQue, bQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> oQue;
    TBuf<TPosition::VECCALC> fBuf;
    GlobalTensor<T> aGm, bGm, oGm;
    uint64_t len;
    uint32_t tileLen;
};

extern "C" __global__ __aicore__ void sum_times_hard_swish_custom(GM_ADDR a, GM_ADDR b, GM_ADDR out,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        SumTimesHardSwish<float> op;
        op.Init(a, b, out, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        SumTimesHardSwish<half> op;
        op.Init(a, b, out, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv_transpose3d on the vendor path, then s = conv + add_input; out = s * hardswish(s) in one kernel.
at::Tensor deconv3d_add_sq_hswish_impl_npu(const at::Tensor& x, const at::Tensor& addInput,
                                          const at::Tensor& weight, const at::Tensor& convBias,
                                          int64_t stride, int64_t padding, int64_t outputPadding)
{
    at::Tensor conv = at::conv_transpose3d(x, weight, convBias, {stride, stride, stride},
                                           {padding, padding, padding},
                                           {outputPadding, outputPadding, outputPadding})
                          .contiguous();
    at::Tensor other = addInput.contiguous();
    TORCH_CHECK(conv.sizes() == other.sizes(), "add_input must match the transposed-conv output shape");
    at::Tensor out = at::empty_like(conv);
    EXEC_NPU_CMD(aclnnSumTimesHardSwishCustom, conv, other, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("deconv3d_add_sq_hswish", &deconv3d_add_sq_hswish_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("deconv3d_add_sq_hswish", &deconv3d_add_sq_hswish_impl_npu, "ConvTranspose3d + add + x*hardswish(x)");
}
"""
