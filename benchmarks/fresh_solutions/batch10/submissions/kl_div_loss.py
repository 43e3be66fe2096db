project_json_src='''
[
    {
        "op": "BatchMeanRelEntropyCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "probs",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            },
            {
                "name": "target",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ],
        "output_desc": [
            {
                "name": "loss",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BatchMeanRelEntropyTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalElems);
  TILING_DATA_FIELD_DEF(uint64_t, elemsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileElems);
  TILING_DATA_FIELD_DEF(float, invBatch);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BatchMeanRelEntropyCustom, BatchMeanRelEntropyTilingData)
}
"""

host_operator_src="""
#include "batch_mean_rel_entropy_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_ELEMS = 4096;   // 2 inputs x 2 buffers + 4 float rows must fit in UB
constexpr uint32_t ALIGN_ELEMS = 64;    // keeps every core's start 32B aligned for half and float

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& ps = context->GetInputShape(0)->GetStorageShape();
    uint64_t total = ps.GetShapeSize();
    uint64_t batch = ps.GetDimNum() > 0 ? ps.GetDim(0) : 1;
    if (total == 0 || batch == 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint64_t perCore = (total + cores - 1) / cores;
    perCore = (perCore + ALIGN_ELEMS - 1) / ALIGN_ELEMS * ALIGN_ELEMS;
    uint32_t used = static_cast<uint32_t>((total + perCore - 1) / perCore);
    uint32_t tile = perCore < TILE_ELEMS ? static_cast<uint32_t>(perCore) : TILE_ELEMS;

    BatchMeanRelEntropyTilingData td;
    td.set_totalElems(total);
    td.set_elemsPerCore(perCore);
    td.set_tileElems(tile);
    td.set_invBatch(1.0f / static_cast<float>(batch));

    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(used);
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
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(1);
    out->SetDim(0, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, ge::DT_FLOAT);
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class BatchMeanRelEntropyCustom : public OpDef {
public:
    explicit BatchMeanRelEntropyCustom(const char* name) : OpDef(name)
    {
        this->Input("probs")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("target")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("loss")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(BatchMeanRelEntropyCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// sum over a slice of t * (ln t - ln p); per-lane partials are kept in `lanes`
// and folded once at the end to limit float rounding over millions of terms.
class EntropyAccumulator {
public:
    __aicore__ inline void Bind(const LocalTensor<float>& lanes, const LocalTensor<float>& scratch, uint32_t width)
    {
        this->lanes = lanes;
        this->scratch = scratch;
        this->width = width;
        Duplicate(lanes, 0.0f, width);
        PipeBarrier<PIPE_V>();
    }
    // p and t are overwritten
    __aicore__ inline void Add(const LocalTensor<float>& p, const LocalTensor<float>& t, uint32_t n)
    {
        Ln(p, p, n);
        Ln(scratch, t, n);
        PipeBarrier<PIPE_V>();
        Sub(scratch, scratch, p, n);
        PipeBarrier<PIPE_V>();
        Mul(scratch, scratch, t, n);
        PipeBarrier<PIPE_V>();
        AscendC::Add(lanes, lanes, scratch, n);
        PipeBarrier<PIPE_V>();
    }
    __aicore__ inline void Fold(const LocalTensor<float>& dst, float scale)
    {
        ReduceSum<float>(dst, lanes, scratch, width);
        PipeBarrier<PIPE_V>();
        Muls(dst, dst, scale, 1);
        PipeBarrier<PIPE_V>();
    }

private:
    LocalTensor<float> lanes, scratch;
    uint32_t width;
};

template <typename T>
class BatchMeanRelEntropy {
public:
    __aicore__ inline BatchMeanRelEntropy() {}

    __aicore__ inline void Init(GM_ADDR probs, GM_ADDR target, GM_ADDR loss, uint64_t totalElems,
                                uint64_t elemsPerCore, uint32_t tileElems, float invBatch)
    {
        uint64_t start = (uint64_t)GetBlockIdx() * elemsPerCore;
        count = totalElems - start < elemsPerCore ? totalElems - start : elemsPerCore;
        tile = tileElems;
        scale = invBatch;
        pGm.SetGlobalBuffer((__gm__ T*)probs + start, count);
        tGm.SetGlobalBuffer((__gm__ T*)target + start, count);
        outGm.SetGlobalBuffer((__gm__ float*)loss, 1);

        pipe.InitBuffer(pQue, BUFFER_NUM, tile * sizeof(T));
        pipe.InitBuffer(tQue, BUFFER_NUM, tile * sizeof(T));
        pipe.InitBuffer(resQue, 1, 32);
        pipe.InitBuffer(pF, tile * sizeof(float));
        pipe.InitBuffer(tF, tile * sizeof(float));
        pipe.InitBuffer(laneBuf, tile * sizeof(float));
        pipe.InitBuffer(scratchBuf, tile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        acc.Bind(laneBuf.Get<float>(), scratchBuf.Get<float>(), tile);
        uint64_t steps = (count + tile - 1) / tile;
        for (uint64_t i = 0; i < steps; ++i) {
            uint64_t off = i * tile;
            uint32_t len = count - off < tile ? static_cast<uint32_t>(count - off) : tile;
            CopyIn(off, len);
            Compute(len);
        }
        Finish();
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<T> p = pQue.AllocTensor<T>();
        LocalTensor<T> t = tQue.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> np{false, 0, 0, 0};
        DataCopyPad(p, pGm[off], cp, np);
        DataCopyPad(t, tGm[off], cp, np);
        pQue.EnQue(p);
        tQue.EnQue(t);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<T> p = pQue.DeQue<T>();
        LocalTensor<T> t = tQue.DeQue<T>();
        LocalTensor<float> pf = pF.Get<float>();
        LocalTensor<float> tf = tF.Get<float>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(pf, p, tile);
            DataCopy(tf, t, tile);
        } else {
            Cast(pf, p, RoundMode::CAST_NONE, tile);
            Cast(tf, t, RoundMode::CAST_NONE, tile);
        }
        PipeBarrier<PIPE_V>();
        pQue.FreeTensor(p);
        tQue.FreeTensor(t);
        acc.Add(pf, tf, len);
    }

    __aicore__ inline void Finish()
    {
        LocalTensor<float> res = resQue.AllocTensor<float>();
        acc.Fold(res, scale);
        resQue.EnQue(res);
        res = resQue.DeQue<float>();
        // every core adds its scaled partial into the pre-zeroed scalar output
        SetAtomicAdd<float>();
        DataCopyExtParams cp{1, sizeof(float), 0, 0, 0};
        DataCopyPad(outGm, res, cp);
        SetAtomicNone();
        resQue.FreeTensor(res);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> pQue, tQue;
    TQue<QuePosition::VECOUT, 1> resQue;
    TBuf<TPosition::VECCALC> pF, tF, laneBuf, scratchBuf;
    GlobalTensor<T> pGm, tGm;
    GlobalTensor<float> outGm;
    EntropyAccumulator acc;
    uint64_t count;
    uint32_t tile;
    float scale;
};

extern "C" __global__ __aicore__ void batch_mean_rel_entropy_custom(GM_ADDR probs, GM_ADDR target, GM_ADDR loss,
                                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        BatchMeanRelEntropy<half> op;
        op.Init(probs, target, loss, td.totalElems, td.elemsPerCore, td.tileElems, td.invBatch);
        op.Process();
    } else if (TILING_KEY_IS(0)) {
        BatchMeanRelEntropy<float> op;
        op.Init(probs, target, loss, td.totalElems, td.elemsPerCore, td.tileElems, td.invBatch);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// kl_div(log(probs), target, reduction='batchmean') for probability inputs
at::Tensor batch_mean_rel_entropy_impl_npu(const at::Tensor& probs, const at::Tensor& target)
{
    TORCH_CHECK(probs.sizes() == target.sizes(), "probs and target must have the same shape");
    at::Tensor p = probs.contiguous();
    at::Tensor t = target.to(probs.scalar_type()).contiguous();
    // cores accumulate atomically, so the output starts at zero
    at::Tensor loss = at::zeros({1}, probs.options().dtype(at::kFloat));
    EXEC_NPU_CMD(aclnnBatchMeanRelEntropyCustom, p, t, loss);
    return loss.reshape({}).to(probs.scalar_type());
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("batch_mean_rel_entropy_custom", &batch_mean_rel_entropy_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("batch_mean_rel_entropy_custom", &batch_mean_rel_entropy_impl_npu,
          "batch-mean KL divergence between probability tensors");
}
"""
