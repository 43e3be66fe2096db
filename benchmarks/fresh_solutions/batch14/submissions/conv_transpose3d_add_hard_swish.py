project_json_src='''
[
    {
        "op": "SumTimesHardSwishCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "lhs",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "rhs",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "output_desc": [
            {
                "name": "out",
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
BEGIN_TILING_DATA_DEF(SumTimesHardSwishTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per tile, multiple of 64
  TILING_DATA_FIELD_DEF(uint32_t, tileCount);    // ceil(total / tile); tiles are dealt round-robin
  TILING_DATA_FIELD_DEF(uint32_t, lastTile);     // valid elements in the final tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SumTimesHardSwishCustom, SumTimesHardSwishTilingData)
}
"""

host_operator_src="""
#include "sum_times_hard_swish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
class HardSwishTiler {
public:
    HardSwishTiler(uint64_t total, uint32_t typeSize, uint32_t cores)
        : total_(total), typeSize_(typeSize), cores_(cores) {}

    void Fill(SumTimesHardSwishTilingData& td, uint32_t& blockDim) const
    {
        // two inputs + one output double buffered, plus fp32 scratch for the fp16 path
        uint32_t tile = typeSize_ == 2 ? 4096 : 6144;
        uint64_t perCore = (total_ + cores_ - 1) / cores_;
        if (perCore < tile) {
            tile = static_cast<uint32_t>((perCore + 63) / 64 * 64);
            if (tile == 0) {
                tile = 64;
            }
        }
        uint32_t count = static_cast<uint32_t>((total_ + tile - 1) / tile);
        uint64_t last = total_ - (uint64_t)(count - 1) * tile;
        td.set_totalLength(total_);
        td.set_tileLength(tile);
        td.set_tileCount(count);
        td.set_lastTile(static_cast<uint32_t>(last));
        blockDim = count < cores_ ? count : cores_;
        if (blockDim == 0) {
            blockDim = 1;
        }
    }

private:
    uint64_t total_;
    uint32_t typeSize_;
    uint32_t cores_;
};

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SumTimesHardSwishTilingData td;
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    uint32_t blockDim = 1;
    HardSwishTiler(total, dt == ge::DT_FLOAT16 ? 2 : 4, ascendc.GetCoreNumAiv()).Fill(td, blockDim);
    context->SetBlockDim(blockDim);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
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
class SumTimesHardSwishCustom : public OpDef {
public:
    explicit SumTimesHardSwishCustom(const char* name) : OpDef(name)
    {
        this->Input("lhs")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("rhs")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
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

// z = a + b;  out = z * hardswish(z) = z * z * clamp(z + 3, 0, 6) / 6   (all in fp32)
struct HardSwishSquare {
    __aicore__ static inline void Apply(const LocalTensor<float>& out, const LocalTensor<float>& z,
                                        const LocalTensor<float>& gate, uint32_t n)
    {
        Adds(gate, z, 3.0f, n);
        Maxs(gate, gate, 0.0f, n);
        Mins(gate, gate, 6.0f, n);
        Muls(gate, gate, 1.0f / 6.0f, n);
        Mul(gate, gate, z, n);
        Mul(out, gate, z, n);
    }
};

template <typename T>
class SumTimesHardSwishKernel {
public:
    __aicore__ inline SumTimesHardSwishKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR out, const SumTimesHardSwishTilingData& td)
    {
        tileLen = td.tileLength;
        tileCount = td.tileCount;
        lastTile = td.lastTile;
        aGm.SetGlobalBuffer((__gm__ T*)a, td.totalLength);
        bGm.SetGlobalBuffer((__gm__ T*)b, td.totalLength);
        oGm.SetGlobalBuffer((__gm__ T*)out, td.totalLength);

        pipe.InitBuffer(aQ, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(bQ, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(oQ, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(gateBuf, tileLen * sizeof(float));
        if constexpr (sizeof(T) == 2) {
            pipe.InitBuffer(zBuf, tileLen * sizeof(float));
            pipe.InitBuffer(wBuf, tileLen * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        uint32_t stride = GetBlockNum();
        for (uint32_t t = GetBlockIdx(); t < tileCount; t += stride) {
            uint32_t n = (t == tileCount - 1) ? lastTile : tileLen;
            uint64_t off = (uint64_t)t * tileLen;
            CopyIn(off, n);
            Compute(n);
            CopyOut(off, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        LocalTensor<T> al = aQ.AllocTensor<T>();
        LocalTensor<T> bl = bQ.AllocTensor<T>();
        DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(al, aGm[off], p, pad);
        DataCopyPad(bl, bGm[off], p, pad);
        aQ.EnQue(al);
        bQ.EnQue(bl);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> al = aQ.DeQue<T>();
        LocalTensor<T> bl = bQ.DeQue<T>();
        LocalTensor<T> ol = oQ.AllocTensor<T>();
        LocalTensor<float> gate = gateBuf.Get<float>();
        if constexpr (sizeof(T) == 2) {
            LocalTensor<float> z = zBuf.Get<float>();
            LocalTensor<float> w = wBuf.Get<float>();
            Cast(z, al, RoundMode::CAST_NONE, n);
            Cast(w, bl, RoundMode::CAST_NONE, n);
            Add(z, z, w, n);
            HardSwishSquare::Apply(w, z, gate, n);
            Cast(ol, w, RoundMode::CAST_ROUND, n);
        } else {
            // output tile doubles as the sum buffer
            Add(ol, al, bl, n);
            HardSwishSquare::Apply(ol, ol, gate, n);
        }
        oQ.EnQue(ol);
        aQ.FreeTensor(al);
        bQ.FreeTensor(bl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t n)
    {
        LocalTensor<T> ol = oQ.DeQue<T>();
        DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(oGm[off], ol, p);
        oQ.FreeTensor(ol);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> aQ, bQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> oQ;
    TBuf<TPosition::VECCALC> gateBuf, zBuf, wBuf;
    GlobalTensor<T> aGm, bGm, oGm;
    uint32_t tileLen = 0, tileCount = 0, lastTile = 0;
};

extern "C" __global__ __aicore__ void sum_times_hard_swish_custom(GM_ADDR lhs, GM_ADDR rhs, GM_ADDR out,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        SumTimesHardSwishKernel<float> op;
        op.Init(lhs, rhs, out, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        SumTimesHardSwishKernel<half> op;
        op.Init(lhs, rhs, out, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor sum_times_hard_swish_npu(const at::Tensor& lhs, const at::Tensor& rhs)
{
    TORCH_CHECK(lhs.sizes() == rhs.sizes(), "operands must have equal shapes");
    at::Tensor a = lhs.contiguous();
    at::Tensor b = rhs.to(a.scalar_type()).contiguous();
    at::Tensor out = at::empty_like(a);
    EXEC_NPU_CMD(aclnnSumTimesHardSwishCustom, a, b, out);
    return out;
}

// ConvTranspose3d (cube, via ATen) followed by the fused add + x*hardswish(x) epilogue.
at::Tensor deconv3d_sum_hardswish_npu(const at::Tensor& x, const at::Tensor& add_input, const at::Tensor& weight,
                                      const at::Tensor& bias, int64_t stride, int64_t padding,
                                      int64_t output_padding)
{
    at::Tensor y = at::conv_transpose3d(x, weight, bias, {stride, stride, stride}, {padding, padding, padding},
                                        {output_padding, output_padding, output_padding});
    return sum_times_hard_swish_npu(y, add_input);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("sum_times_hard_swish_custom", &sum_times_hard_swish_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("sum_times_hard_swish_custom", &sum_times_hard_swish_npu, "z=a+b; z*hardswish(z)");
    m.def("deconv3d_sum_hardswish", &deconv3d_sum_hardswish_npu, "conv_transpose3d + add + x*hardswish(x)");
}
"""
