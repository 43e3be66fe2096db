project_json_src='''
[
    {
        "op": "TanhCustom",
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
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TanhCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalNum);
  TILING_DATA_FIELD_DEF(uint64_t, perCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TanhCustom, TanhCustomTilingData)
}
"""

host_operator_src="""
#include "tanh_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_ELEMS = 8192;   // 32 KB per buffer
constexpr uint64_t ALIGN_ELEMS = 8;     // 32 B of float

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;

    uint64_t chunk = (total + cores - 1) / cores;
    chunk = (chunk + ALIGN_ELEMS - 1) / ALIGN_ELEMS * ALIGN_ELEMS;
    if (chunk == 0) chunk = ALIGN_ELEMS;
    uint64_t used = (total + chunk - 1) / chunk;
    if (used == 0) used = 1;

    TanhCustomTilingData td;
    td.set_totalNum(total);
    td.set_perCore(chunk);
    td.set_tileLen(TILE_ELEMS);
    context->SetBlockDim(static_cast<uint32_t>(used));

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
class TanhCustom : public OpDef {
public:
    explicit TanhCustom(const char* name) : OpDef(name)
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

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(TanhCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

class KernelTanh {
public:
    __aicore__ inline KernelTanh() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t total, uint64_t perCore, uint32_t tileLen)
    {
        uint64_t begin = perCore * AscendC::GetBlockIdx();
        uint64_t end = begin + perCore;
        if (end > total) end = total;
        myLen = (end > begin) ? (end - begin) : 0;
        tile = tileLen;

        xGm.SetGlobalBuffer((__gm__ float*)x + begin, myLen);
        yGm.SetGlobalBuffer((__gm__ float*)y + begin, myLen);
        pipe.InitBuffer(inQ, BUFFER_NUM, tile * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tile * sizeof(float));
        pipe.InitBuffer(tmpBuf, tile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint64_t steps = (myLen + tile - 1) / tile;
        for (uint64_t i = 0; i < steps; ++i) {
            uint64_t off = i * tile;
            uint32_t cnt = (myLen - off < tile) ? static_cast<uint32_t>(myLen - off) : tile;
            CopyIn(off, cnt);
            Compute(cnt);
            CopyOut(off, cnt);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t cnt)
    {
        AscendC::LocalTensor<float> xl = inQ.AllocTensor<float>();
        if (cnt % 8 == 0) {
            AscendC::DataCopy(xl, xGm[off], cnt);
        } else {
            AscendC::DataCopyExtParams p{1, cnt * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(xl, xGm[off], p, pad);
        }
        inQ.EnQue(xl);
    }

    // tanh(x) = 1 - 2 / (exp(2x) + 1)
    __aicore__ inline void Compute(uint32_t cnt)
    {
        AscendC::LocalTensor<float> xl = inQ.DeQue<float>();
        AscendC::LocalTensor<float> yl = outQ.AllocTensor<float>();
        AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();

        AscendC::Muls(tmp, xl, 2.0f, cnt);
        AscendC::Exp(tmp, tmp, cnt);
        AscendC::Adds(tmp, tmp, 1.0f, cnt);
        AscendC::Duplicate(yl, -2.0f, cnt);
        AscendC::Div(yl, yl, tmp, cnt);
        AscendC::Adds(yl, yl, 1.0f, cnt);

        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t cnt)
    {
        AscendC::LocalTensor<float> yl = outQ.DeQue<float>();
        if (cnt % 8 == 0) {
            AscendC::DataCopy(yGm[off], yl, cnt);
        } else {
            AscendC::DataCopyExtParams p{1, cnt * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[off], yl, p);
        }
        outQ.FreeTensor(yl);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint64_t myLen = 0;
    uint32_t tile = 0;
};

extern "C" __global__ __aicore__ void tanh_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelTanh op;
    op.Init(x, y, td.totalNum, td.perCore, td.tileLen);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor tanh_custom_impl_npu(const at::Tensor& x)
{
    at::Tensor in = x.contiguous();
    at::Tensor out = at::empty_like(in);
    EXEC_NPU_CMD(aclnnTanhCustom, in, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("tanh_custom", &tanh_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("tanh_custom", &tanh_custom_impl_npu, "tanh(x)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.tanh_custom(x)
'''
