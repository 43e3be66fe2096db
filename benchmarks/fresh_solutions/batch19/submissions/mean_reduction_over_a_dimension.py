project_json_src='''
[
    {
        "op": "AxisAverageCustom",
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
                "name": "dim",
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
BEGIN_TILING_DATA_DEF(AxisAverageTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outerSize);     // product of dims before the reduced axis
  TILING_DATA_FIELD_DEF(uint32_t, reduceSize);    // length of the reduced axis
  TILING_DATA_FIELD_DEF(uint32_t, innerSize);     // product of dims after the reduced axis
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);      // inner elements handled per work unit
  TILING_DATA_FIELD_DEF(uint32_t, chunksPerOuter);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, unitsRemainder);
  TILING_DATA_FIELD_DEF(float, invReduce);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AxisAverageCustom, AxisAverageTilingData)
}
"""

host_operator_src="""
#include "axis_average_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t UB_BLOCK = 32;
constexpr uint32_t MAX_CHUNK_BYTES = 8 * 1024;   // per input buffer; 2 in-bufs + acc + cast tmp + 2 out-bufs fit in UB

struct AxisSplit {
    uint64_t outer = 1;
    uint64_t reduce = 1;
    uint64_t inner = 1;
};

static AxisSplit SplitAroundAxis(const gert::Shape &shape, int64_t axis)
{
    AxisSplit s;
    int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    for (int64_t i = 0; i < rank; ++i) {
        uint64_t d = static_cast<uint64_t>(shape.GetDim(i));
        if (i < axis) {
            s.outer *= d;
        } else if (i == axis) {
            s.reduce = d;
        } else {
            s.inner *= d;
        }
    }
    return s;
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xShape = context->GetInputShape(0)->GetStorageShape();
    const int64_t *dimAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t rank = static_cast<int64_t>(xShape.GetDimNum());
    int64_t axis = *dimAttr;
    if (axis < 0) {
        axis += rank;
    }
    if (axis < 0 || axis >= rank) {
        return ge::GRAPH_FAILED;
    }
    AxisSplit split = SplitAroundAxis(xShape, axis);

    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t elemBytes = (dtype == ge::DT_FLOAT16) ? 2 : 4;
    uint32_t alignElems = UB_BLOCK / elemBytes;

    // chunk along the contiguous inner axis, rounded to a 32B multiple
    uint32_t maxChunk = MAX_CHUNK_BYTES / 4;   // accumulator is always fp32
    uint32_t chunk = static_cast<uint32_t>(split.inner < maxChunk ? split.inner : maxChunk);
    chunk = (chunk + alignElems - 1) / alignElems * alignElems;
    uint32_t chunksPerOuter = static_cast<uint32_t>((split.inner + chunk - 1) / chunk);
    uint64_t totalUnits = split.outer * chunksPerOuter;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t usedCores = static_cast<uint32_t>(totalUnits < coreNum ? totalUnits : coreNum);
    if (usedCores == 0) {
        usedCores = 1;
    }

    AxisAverageTilingData tiling;
    tiling.set_outerSize(static_cast<uint32_t>(split.outer));
    tiling.set_reduceSize(static_cast<uint32_t>(split.reduce));
    tiling.set_innerSize(static_cast<uint32_t>(split.inner));
    tiling.set_chunkLen(chunk);
    tiling.set_chunksPerOuter(chunksPerOuter);
    tiling.set_unitsPerCore(static_cast<uint32_t>(totalUnits / usedCores));
    tiling.set_unitsRemainder(static_cast<uint32_t>(totalUnits % usedCores));
    tiling.set_invReduce(split.reduce == 0 ? 0.0f : 1.0f / static_cast<float>(split.reduce));

    context->SetBlockDim(usedCores);
    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 1 : 0);
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
    const gert::Shape *xShape = context->GetInputShape(0);
    gert::Shape *yShape = context->GetOutputShape(0);
    const int64_t *dimAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t rank = static_cast<int64_t>(xShape->GetDimNum());
    int64_t axis = *dimAttr < 0 ? *dimAttr + rank : *dimAttr;
    yShape->SetDimNum(0);
    for (int64_t i = 0; i < rank; ++i) {
        if (i != axis) {
            yShape->AppendDim(xShape->GetDim(i));
        }
    }
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class AxisAverageCustom : public OpDef {
public:
    explicit AxisAverageCustom(const char *name) : OpDef(name)
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
        this->Attr("dim").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(AxisAverageCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct AxisAverageParams {
    uint32_t outerSize;
    uint32_t reduceSize;
    uint32_t innerSize;
    uint32_t chunkLen;
    uint32_t chunksPerOuter;
    uint32_t unitsPerCore;
    uint32_t unitsRemainder;
    float invReduce;
};

// Accumulates one slice (already in UB) into the fp32 accumulator.
template <typename T>
struct SliceAccumulator {
    __aicore__ static inline void Run(const LocalTensor<float> &acc, const LocalTensor<T> &src,
                                      const LocalTensor<float> &scratch, uint32_t len)
    {
        Cast(scratch, src, RoundMode::CAST_NONE, len);
        PipeBarrier<PIPE_V>();
        Add(acc, acc, scratch, len);
    }
};

template <>
struct SliceAccumulator<float> {
    __aicore__ static inline void Run(const LocalTensor<float> &acc, const LocalTensor<float> &src,
                                      const LocalTensor<float> &, uint32_t len)
    {
        Add(acc, acc, src, len);
    }
};

template <typename T>
class AxisAverageKernel {
public:
    __aicore__ inline AxisAverageKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AxisAverageParams &p)
    {
        prm = p;
        uint32_t core = GetBlockIdx();
        // first cores take one extra unit when the split is uneven
        unitCount = prm.unitsPerCore + (core < prm.unitsRemainder ? 1 : 0);
        unitStart = core * prm.unitsPerCore + (core < prm.unitsRemainder ? core : prm.unitsRemainder);

        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        pipe.InitBuffer(inQ, BUFFER_NUM, prm.chunkLen * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, prm.chunkLen * sizeof(T));
        pipe.InitBuffer(accBuf, prm.chunkLen * sizeof(float));
        pipe.InitBuffer(castBuf, prm.chunkLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = 0; u < unitCount; ++u) {
            uint32_t unit = unitStart + u;
            uint32_t outerIdx = unit / prm.chunksPerOuter;
            uint32_t chunkIdx = unit % prm.chunksPerOuter;
            uint32_t innerOff = chunkIdx * prm.chunkLen;
            uint32_t len = prm.innerSize - innerOff;
            if (len > prm.chunkLen) {
                len = prm.chunkLen;
            }
            ReduceUnit(outerIdx, innerOff, len);
        }
    }

private:
    __aicore__ inline void ReduceUnit(uint32_t outerIdx, uint32_t innerOff, uint32_t len)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> scratch = castBuf.Get<float>();
        Duplicate(acc, 0.0f, prm.chunkLen);

        uint64_t base = static_cast<uint64_t>(outerIdx) * prm.reduceSize * prm.innerSize + innerOff;
        for (uint32_t r = 0; r < prm.reduceSize; ++r) {
            CopyIn(base + static_cast<uint64_t>(r) * prm.innerSize, len);
            LocalTensor<T> xt = inQ.DeQue<T>();
            SliceAccumulator<T>::Run(acc, xt, scratch, prm.chunkLen);
            inQ.FreeTensor(xt);
        }

        LocalTensor<T> yt = outQ.AllocTensor<T>();
        Muls(acc, acc, prm.invReduce, prm.chunkLen);
        PipeBarrier<PIPE_V>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(yt, acc, prm.chunkLen);
        } else {
            Cast(yt, acc, RoundMode::CAST_ROUND, prm.chunkLen);
        }
        outQ.EnQue(yt);
        CopyOut(static_cast<uint64_t>(outerIdx) * prm.innerSize + innerOff, len);
    }

    __aicore__ inline void CopyIn(uint64_t gmOff, uint32_t len)
    {
        LocalTensor<T> xt = inQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xt, xGm[gmOff], cp, pad);
        inQ.EnQue(xt);
    }

    __aicore__ inline void CopyOut(uint64_t gmOff, uint32_t len)
    {
        LocalTensor<T> yt = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[gmOff], yt, cp);
        outQ.FreeTensor(yt);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<QuePosition::VECCALC> accBuf;
    TBuf<QuePosition::VECCALC> castBuf;
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    AxisAverageParams prm;
    uint32_t unitStart = 0;
    uint32_t unitCount = 0;
};

template <typename T>
__aicore__ inline void RunAxisAverage(GM_ADDR x, GM_ADDR y, const AxisAverageParams &p)
{
    AxisAverageKernel<T> op;
    op.Init(x, y, p);
    op.Process();
}

extern "C" __global__ __aicore__ void axis_average_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    AxisAverageParams p{td.outerSize, td.reduceSize, td.innerSize, td.chunkLen,
                        td.chunksPerOuter, td.unitsPerCore, td.unitsRemainder, td.invReduce};
    if (TILING_KEY_IS(1)) {
        RunAxisAverage<half>(x, y, p);
    } else if (TILING_KEY_IS(0)) {
        RunAxisAverage<float>(x, y, p);
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor axis_average_impl_npu(const at::Tensor &x, int64_t dim)
{
    at::Tensor xc = x.contiguous();
    int64_t rank = xc.dim();
    int64_t axis = dim < 0 ? dim + rank : dim;
    TORCH_CHECK(axis >= 0 && axis < rank, "axis_average: dim out of range");
    std::vector<int64_t> outShape;
    for (int64_t i = 0; i < rank; ++i) {
        if (i != axis) {
            outShape.push_back(xc.size(i));
        }
    }
    at::Tensor y = at::empty(outShape, xc.options());
    EXEC_NPU_CMD(aclnnAxisAverageCustom, xc, axis, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("axis_average_custom", &axis_average_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("axis_average_custom", &axis_average_impl_npu, "mean over one axis");
}
"""
