project_json_src='''
[
    {
        "op": "LogisticSquashCustom",
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
BEGIN_TILING_DATA_DEF(LogisticSquashTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalElems);   // whole tensor
  TILING_DATA_FIELD_DEF(uint64_t, coreElems);    // elements owned by cores [0, bigCores)
  TILING_DATA_FIELD_DEF(uint64_t, tailCoreElems);// elements owned by the remaining cores
  TILING_DATA_FIELD_DEF(uint32_t, bigCores);
  TILING_DATA_FIELD_DEF(uint32_t, tileElems);    // UB tile, multiple of 32B
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LogisticSquashCustom, LogisticSquashTilingData)
}
"""

host_operator_src="""
#include "logistic_squash_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <algorithm>

namespace optiling {
namespace {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t DOUBLE_BUF = 2;
constexpr uint64_t KEY_FP32 = 1;
constexpr uint64_t KEY_FP16 = 2;

struct SplitPlan {
    uint32_t cores;
    uint32_t bigCores;
    uint64_t coreElems;
    uint64_t tailCoreElems;
    uint32_t tileElems;
};

// Splits `total` elements into 32B-aligned per-core chunks; the remainder goes
// one aligned unit at a time to the first cores.
SplitPlan PlanSplit(uint64_t total, uint32_t typeBytes, uint32_t maxCores, uint64_t ubBytes)
{
    SplitPlan p{};
    const uint64_t unit = BLOCK_BYTES / typeBytes;
    uint64_t units = (total + unit - 1) / unit;
    p.cores = static_cast<uint32_t>(std::max<uint64_t>(1, std::min<uint64_t>(maxCores, units)));
    uint64_t base = units / p.cores;
    uint64_t extra = units % p.cores;
    p.bigCores = static_cast<uint32_t>(extra);
    p.coreElems = (base + 1) * unit;
    p.tailCoreElems = base * unit;
    if (extra == 0) {
        p.bigCores = p.cores;
        p.coreElems = base * unit;
    }
    // in + out queues, each double buffered, plus one fp32 scratch for the half path
    uint64_t perElem = static_cast<uint64_t>(typeBytes) * DOUBLE_BUF * 2 + sizeof(float);
    uint64_t tile = (ubBytes - 1024) / perElem;
    tile = tile / unit * unit;
    tile = std::min<uint64_t>(tile, 16384);
    p.tileElems = static_cast<uint32_t>(std::max<uint64_t>(tile, unit));
    return p;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubBytes = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);
    uint32_t aivNum = platform.GetCoreNumAiv();

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeBytes = (dt == ge::DT_FLOAT16) ? 2 : 4;
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();

    SplitPlan plan = PlanSplit(total, typeBytes, aivNum, ubBytes);

    LogisticSquashTilingData tiling;
    tiling.set_totalElems(total);
    tiling.set_coreElems(plan.coreElems);
    tiling.set_tailCoreElems(plan.tailCoreElems);
    tiling.set_bigCores(plan.bigCores);
    tiling.set_tileElems(plan.tileElems);

    context->SetBlockDim(plan.cores);
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
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class LogisticSquashCustom : public OpDef {
public:
    explicit LogisticSquashCustom(const char* name) : OpDef(name)
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
OP_ADD(LogisticSquashCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y = 1 / (1 + exp(-x)), evaluated in fp32 regardless of the storage type.
__aicore__ inline void LogisticInPlace(const LocalTensor<float>& v, uint32_t n)
{
    Muls(v, v, -1.0f, n);
    Exp(v, v, n);
    Adds(v, v, 1.0f, n);
    Reciprocal(v, v, n);
}

template <typename T>
class LogisticSquashKernel {
public:
    __aicore__ inline LogisticSquashKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const LogisticSquashTilingData& td)
    {
        uint32_t idx = GetBlockIdx();
        uint64_t start;
        if (idx < td.bigCores) {
            myElems = td.coreElems;
            start = static_cast<uint64_t>(idx) * td.coreElems;
        } else {
            myElems = td.tailCoreElems;
            start = static_cast<uint64_t>(td.bigCores) * td.coreElems +
                    static_cast<uint64_t>(idx - td.bigCores) * td.tailCoreElems;
        }
        // the last core may run past the real tensor end because of the 32B rounding
        if (start >= td.totalElems) {
            myElems = 0;
        } else if (start + myElems > td.totalElems) {
            myElems = td.totalElems - start;
        }
        tileElems = td.tileElems;

        xGm.SetGlobalBuffer((__gm__ T*)x + start, myElems);
        yGm.SetGlobalBuffer((__gm__ T*)y + start, myElems);
        pipe.InitBuffer(inQ, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileElems * sizeof(T));
        if constexpr (!IsSameType<T, float>::value) {
            pipe.InitBuffer(f32Buf, tileElems * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        uint64_t done = 0;
        while (done < myElems) {
            uint32_t cnt = static_cast<uint32_t>(
                (myElems - done) < tileElems ? (myElems - done) : tileElems);
            CopyIn(done, cnt);
            Compute(cnt);
            CopyOut(done, cnt);
            done += cnt;
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t cnt)
    {
        LocalTensor<T> xl = inQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm[off], cp, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t cnt)
    {
        LocalTensor<T> xl = inQ.DeQue<T>();
        LocalTensor<T> yl = outQ.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(yl, xl, AlignUp(cnt));
            LogisticInPlace(yl, cnt);
        } else {
            LocalTensor<float> tmp = f32Buf.Get<float>();
            Cast(tmp, xl, RoundMode::CAST_NONE, cnt);
            LogisticInPlace(tmp, cnt);
            Cast(yl, tmp, RoundMode::CAST_ROUND, cnt);
        }
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t cnt)
    {
        LocalTensor<T> yl = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], yl, cp);
        outQ.FreeTensor(yl);
    }

    __aicore__ inline uint32_t AlignUp(uint32_t n) const
    {
        constexpr uint32_t unit = 32 / sizeof(T);
        return (n + unit - 1) / unit * unit;
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> f32Buf;
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    uint64_t myElems = 0;
    uint32_t tileElems = 0;
};

extern "C" __global__ __aicore__ void logistic_squash_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        LogisticSquashKernel<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        LogisticSquashKernel<half> op;
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

at::Tensor logistic_squash_impl_npu(const at::Tensor& x)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnLogisticSquashCustom, xc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("logistic_squash_custom", &logistic_squash_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("logistic_squash_custom", &logistic_squash_impl_npu, "elementwise logistic sigmoid");
}
"""
