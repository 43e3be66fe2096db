project_json_src='''
[
    {
        "op": "MaskToNegInfCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "mask",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["bool", "bool"]
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
BEGIN_TILING_DATA_DEF(MaskToNegInfTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalElems);
  TILING_DATA_FIELD_DEF(uint64_t, elemsPerCore);   // multiple of ELEM_UNIT
  TILING_DATA_FIELD_DEF(uint32_t, tileElems);      // multiple of ELEM_UNIT
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MaskToNegInfCustom, MaskToNegInfTilingData)
}
"""

host_operator_src="""
#include "mask_to_neg_inf_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// Compare/Select want 256B per repeat; 256 elements keeps that true for half and fp32 alike.
constexpr uint64_t ELEM_UNIT = 256;
constexpr uint32_t BUFFER_NUM = 2;

static uint32_t PickTileElems(uint64_t ub, uint32_t typeSize)
{
    // queues: x, mask(u8), y double-buffered; calc: mask as half, mask as T, bitmask
    uint64_t perElem = BUFFER_NUM * (typeSize + 1 + typeSize) + 2 + typeSize + 1;
    uint64_t elems = (ub - 8 * 1024) / perElem;
    elems = elems / ELEM_UNIT * ELEM_UNIT;
    if (elems > 16384) elems = 16384;
    return static_cast<uint32_t>(elems == 0 ? ELEM_UNIT : elems);
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MaskToNegInfTilingData tiling;
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = dt == ge::DT_FLOAT16 ? 2 : 4;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint64_t cores = plat.GetCoreNumAiv();

    uint64_t units = (total + ELEM_UNIT - 1) / ELEM_UNIT;
    if (cores > units) cores = units;
    if (cores == 0) cores = 1;
    uint64_t perCore = (units + cores - 1) / cores * ELEM_UNIT;
    uint64_t usedCores = (total + perCore - 1) / perCore;
    if (usedCores == 0) usedCores = 1;

    tiling.set_totalElems(total);
    tiling.set_elemsPerCore(perCore);
    tiling.set_tileElems(PickTileElems(ub, typeSize));

    context->SetBlockDim(static_cast<uint32_t>(usedCores));
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
class MaskToNegInfCustom : public OpDef {
public:
    explicit MaskToNegInfCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("mask")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL, ge::DT_BOOL})
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
OP_ADD(MaskToNegInfCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t ELEM_UNIT = 256;

template <typename T> struct NegInfBits;
template <> struct NegInfBits<float> {
    __aicore__ static inline float Get() { uint32_t b = 0xFF800000U; return *reinterpret_cast<float*>(&b); }
};
template <> struct NegInfBits<half> {
    __aicore__ static inline half Get() { uint16_t b = 0xFC00U; return *reinterpret_cast<half*>(&b); }
};

// u8 {0,1} -> T {0,1}; the hardware only converts u8 to half directly.
template <typename T>
__aicore__ inline void WidenMask(const LocalTensor<T>& dst, const LocalTensor<half>& tmpHalf,
                                 const LocalTensor<uint8_t>& src, uint32_t n)
{
    if constexpr (sizeof(T) == sizeof(half)) {
        Cast(dst, src, RoundMode::CAST_NONE, n);
    } else {
        Cast(tmpHalf, src, RoundMode::CAST_NONE, n);
        PipeBarrier<PIPE_V>();
        Cast(dst, tmpHalf, RoundMode::CAST_NONE, n);
    }
}

template <typename T>
class MaskToNegInf {
public:
    __aicore__ inline MaskToNegInf() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR mask, GM_ADDR y, uint64_t total, uint64_t perCore, uint32_t tile)
    {
        uint64_t begin = perCore * GetBlockIdx();
        span = total > begin ? (total - begin < perCore ? total - begin : perCore) : 0;
        tileElems = tile;

        xGm.SetGlobalBuffer((__gm__ T*)x + begin, span);
        mGm.SetGlobalBuffer((__gm__ uint8_t*)mask + begin, span);
        yGm.SetGlobalBuffer((__gm__ T*)y + begin, span);

        pipe.InitBuffer(xQ, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(mQ, BUFFER_NUM, tileElems * sizeof(uint8_t));
        pipe.InitBuffer(yQ, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(halfBuf, tileElems * sizeof(half));
        pipe.InitBuffer(maskValBuf, tileElems * sizeof(T));
        pipe.InitBuffer(bitBuf, tileElems / 8);   // one bit per element
        negInf = NegInfBits<T>::Get();
    }

    __aicore__ inline void Process()
    {
        for (uint64_t off = 0; off < span; off += tileElems) {
            uint32_t n = static_cast<uint32_t>(span - off < tileElems ? span - off : tileElems);
            Stage(off, n);
            Blend(n);
            Flush(off, n);
        }
    }

private:
    __aicore__ inline void Stage(uint64_t off, uint32_t n)
    {
        LocalTensor<T> xl = xQ.AllocTensor<T>();
        LocalTensor<uint8_t> ml = mQ.AllocTensor<uint8_t>();
        DataCopyPadExtParams<T> px{false, 0, 0, 0};
        DataCopyPadExtParams<uint8_t> pm{false, 0, 0, 0};
        DataCopyPad(xl, xGm[off], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0}, px);
        DataCopyPad(ml, mGm[off], DataCopyExtParams{1, n, 0, 0, 0}, pm);
        xQ.EnQue(xl);
        mQ.EnQue(ml);
    }

    __aicore__ inline void Blend(uint32_t n)
    {
        LocalTensor<T> xl = xQ.DeQue<T>();
        LocalTensor<uint8_t> ml = mQ.DeQue<uint8_t>();
        LocalTensor<T> yl = yQ.AllocTensor<T>();
        LocalTensor<half> hl = halfBuf.Get<half>();
        LocalTensor<T> mv = maskValBuf.Get<T>();
        LocalTensor<uint8_t> bits = bitBuf.Get<uint8_t>();

        // vector ops on the whole 256-element unit; lanes past n are never stored
        uint32_t cnt = (n + ELEM_UNIT - 1) / ELEM_UNIT * ELEM_UNIT;
        WidenMask(mv, hl, ml, cnt);
        PipeBarrier<PIPE_V>();
        // bit set where mask == 0 -> keep x, else fill -inf
        CompareScalar(bits, mv, static_cast<T>(0), CMPMODE::EQ, cnt);
        PipeBarrier<PIPE_V>();
        Select(yl, bits, xl, negInf, SELMODE::VSEL_TENSOR_SCALAR_MODE, cnt);

        yQ.EnQue(yl);
        xQ.FreeTensor(xl);
        mQ.FreeTensor(ml);
    }

    __aicore__ inline void Flush(uint64_t off, uint32_t n)
    {
        LocalTensor<T> yl = yQ.DeQue<T>();
        DataCopyPad(yGm[off], yl, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
        yQ.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> xQ, mQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> yQ;
    TBuf<TPosition::VECCALC> halfBuf, maskValBuf, bitBuf;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<uint8_t> mGm;
    uint64_t span = 0;
    uint32_t tileElems = 0;
    T negInf;
};

extern "C" __global__ __aicore__ void mask_to_neg_inf_custom(GM_ADDR x, GM_ADDR mask, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        MaskToNegInf<half> op;
        op.Init(x, mask, y, td.totalElems, td.elemsPerCore, td.tileElems);
        op.Process();
    } else {
        MaskToNegInf<float> op;
        op.Init(x, mask, y, td.totalElems, td.elemsPerCore, td.tileElems);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor mask_to_neg_inf_npu(const at::Tensor& x, const at::Tensor& mask)
{
    at::Tensor xc = x.contiguous();
    at::Tensor mc = mask;
    if (mc.sizes() != xc.sizes()) {
        mc = mc.expand(xc.sizes());
    }
    mc = mc.to(at::kBool).contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnMaskToNegInfCustom, xc, mc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("mask_to_neg_inf_custom", &mask_to_neg_inf_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("mask_to_neg_inf_custom", &mask_to_neg_inf_npu, "x.masked_fill(mask, -inf)");
}
"""
