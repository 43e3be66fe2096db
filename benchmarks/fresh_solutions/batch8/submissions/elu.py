project_json_src='''
[
    {
        "op": "ExpLinearUnitCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "attr": [
            {
                "name": "alpha",
                "param_type": "optional",
                "type": "float",
                "default_value": "1.0"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ExpLinearUnitTiling)
  TILING_DATA_FIELD_DEF(uint64_t, totalElems);
  TILING_DATA_FIELD_DEF(uint64_t, perCore);     // elements per core (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, tileElems);   // elements per UB tile
  TILING_DATA_FIELD_DEF(float, alpha);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ExpLinearUnitCustom, ExpLinearUnitTiling)
}
"""

host_operator_src="""
#include "exp_linear_unit_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_ELEMS = 8192;   // 32 KB per buffer

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ExpLinearUnitTiling tiling;
    uint64_t total = static_cast<uint64_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t cores = platform.GetCoreNumAiv();
    if (cores == 0) {
        cores = 1;
    }
    // Give every core an 8-element aligned slice; the last one takes whatever is left.
    uint64_t perCore = (total + cores - 1) / cores;
    perCore = (perCore + 7) / 8 * 8;
    if (perCore == 0) {
        perCore = 8;
    }
    uint64_t used = (total + perCore - 1) / perCore;
    if (used == 0) {
        used = 1;
    }

    float alpha = 1.0f;
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    if (attrs != nullptr) {
        const float* a = attrs->GetAttrPointer<float>(0);
        if (a != nullptr) {
            alpha = *a;
        }
    }

    tiling.set_totalElems(total);
    tiling.set_perCore(perCore);
    tiling.set_tileElems(TILE_ELEMS);
    tiling.set_alpha(alpha);

    context->SetBlockDim(static_cast<uint32_t>(used));
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
class ExpLinearUnitCustom : public OpDef {
public:
    explicit ExpLinearUnitCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ExpLinearUnitCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t DEPTH = 2;

// y = max(x, 0) + alpha * (exp(min(x, 0)) - 1)
// For x > 0 the second term is exactly alpha * (1 - 1) = 0, for x <= 0 the first is 0,
// so no compare/select is needed.
class ExpLinearUnitKernel {
public:
    __aicore__ inline ExpLinearUnitKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t total, uint64_t perCore,
                                uint32_t tileElems, float alpha)
    {
        uint64_t start = perCore * AscendC::GetBlockIdx();
        uint64_t len = 0;
        if (start < total) {
            len = total - start;
            if (len > perCore) {
                len = perCore;
            }
        }
        myLen = len;
        tile = tileElems;
        a = alpha;

        xGm.SetGlobalBuffer((__gm__ float*)x + start, len);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, len);
        pipe.InitBuffer(inQ, DEPTH, tile * sizeof(float));
        pipe.InitBuffer(outQ, DEPTH, tile * sizeof(float));
        pipe.InitBuffer(negBuf, tile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t fullTiles = myLen / tile;
        uint32_t rest = static_cast<uint32_t>(myLen - fullTiles * tile);
        for (uint64_t t = 0; t < fullTiles; ++t) {
            Load(t * tile, tile);
            Compute(tile);
            Store(t * tile, tile);
        }
        if (rest > 0) {
            Load(fullTiles * tile, rest);
            Compute(rest);
            Store(fullTiles * tile, rest);
        }
    }

private:
    __aicore__ inline void Load(uint64_t off, uint32_t cnt)
    {
        AscendC::LocalTensor<float> xl = inQ.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, cnt * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xl, xGm[off], cp, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t cnt)
    {
        AscendC::LocalTensor<float> xl = inQ.DeQue<float>();
        AscendC::LocalTensor<float> yl = outQ.AllocTensor<float>();
        AscendC::LocalTensor<float> neg = negBuf.Get<float>();

        AscendC::Mins(neg, xl, 0.0f, cnt);      // min(x, 0)
        AscendC::Exp(neg, neg, cnt);            // exp(min(x, 0))
        AscendC::Adds(neg, neg, -1.0f, cnt);    // ... - 1
        AscendC::Muls(neg, neg, a, cnt);        // alpha * (...)
        AscendC::Maxs(yl, xl, 0.0f, cnt);       // max(x, 0)
        AscendC::Add(yl, yl, neg, cnt);

        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void Store(uint64_t off, uint32_t cnt)
    {
        AscendC::LocalTensor<float> yl = outQ.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, cnt * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[off], yl, cp);
        outQ.FreeTensor(yl);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, DEPTH> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, DEPTH> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> negBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint64_t myLen;
    uint32_t tile;
    float a;
};

extern "C" __global__ __aicore__ void exp_linear_unit_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ExpLinearUnitKernel k;
    k.Init(x, y, td.totalElems, td.perCore, td.tileElems, td.alpha);
    k.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor exp_linear_unit_impl_npu(const at::Tensor& x, double alpha)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnExpLinearUnitCustom, xc, alpha, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("exp_linear_unit_custom", &exp_linear_unit_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("exp_linear_unit_custom", &exp_linear_unit_impl_npu, "exponential linear unit",
          pybind11::arg("x"), pybind11::arg("alpha") = 1.0);
}
"""
