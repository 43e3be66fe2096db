project_json_src='''
[
    {
        "op": "GemmDivideSumScalingCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "weight",
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
                "name": "scaling_factor",
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
BEGIN_TILING_DATA_DEF(GemmDivideSumScalingCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);        // rows of x
  TILING_DATA_FIELD_DEF(uint32_t, inFeatures);   // K
  TILING_DATA_FIELD_DEF(uint32_t, hidden);       // rows of weight
  TILING_DATA_FIELD_DEF(uint32_t, colsPerCore);  // phase 1: weight columns reduced per core
  TILING_DATA_FIELD_DEF(uint32_t, rowBlock);     // phase 1: weight rows moved per DataCopy
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // phase 2: x rows per core
  TILING_DATA_FIELD_DEF(uint32_t, kTile);        // phase 2: K chunk length
  TILING_DATA_FIELD_DEF(float, scale);           // scaling_factor / 2
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GemmDivideSumScalingCustom, GemmDivideSumScalingCustomTilingData)
}
"""

host_operator_src="""
#include "gemm_divide_sum_scaling_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

// sum_j (x . w_j) / 2 * s == (x . sum_j w_j) * s / 2
// so the GEMM collapses to a column reduction of the weight followed by a GEMV.
namespace optiling {
static inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
static inline uint32_t AlignUp(uint32_t a, uint32_t b) { return CeilDiv(a, b) * b; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GemmDivideSumScalingCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) coreNum = 1;

    auto xShape = context->GetInputShape(0)->GetOriginShape();
    auto wShape = context->GetInputShape(1)->GetOriginShape();
    uint32_t batch = xShape.GetDim(0);
    uint32_t k = xShape.GetDim(1);
    uint32_t hidden = wShape.GetDim(0);

    float scalingFactor = 1.0f;
    auto attrs = context->GetAttrs();
    if (attrs != nullptr && attrs->GetFloat(0) != nullptr) {
        scalingFactor = *attrs->GetFloat(0);
    }

    // phase 1: columns in multiples of 64 floats (one repeat of a vector instruction)
    uint32_t colsPerCore = AlignUp(CeilDiv(k, coreNum), 64);
    // keep one weight block <= 32KB
    uint32_t rowBlock = 8192 / colsPerCore;
    if (rowBlock == 0) rowBlock = 1;
    if (rowBlock > 16) rowBlock = 16;
    // phase 2
    uint32_t rowsPerCore = CeilDiv(batch, coreNum);
    uint32_t kTile = k < 4096 ? AlignUp(k, 64) : 4096;

    uint32_t usedCores = coreNum; // every core participates in both phases (SyncAll in between)
    context->SetBlockDim(usedCores);

    tiling.set_batch(batch);
    tiling.set_inFeatures(k);
    tiling.set_hidden(hidden);
    tiling.set_colsPerCore(colsPerCore);
    tiling.set_rowBlock(rowBlock);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_kTile(kTile);
    tiling.set_scale(scalingFactor * 0.5f);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // workspace: column sums of the weight, plus what the runtime needs for SyncAll
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize() + AlignUp(k, 64) * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(2);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GemmDivideSumScalingCustom : public OpDef {
public:
    explicit GemmDivideSumScalingCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scaling_factor").AttrType(OPTIONAL).Float(1.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(GemmDivideSumScalingCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelGemmDivideSumScaling {
public:
    __aicore__ inline KernelGemmDivideSumScaling() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR usrWs,
                                const GemmDivideSumScalingCustomTilingData &t)
    {
        batch = t.batch;
        k = t.inFeatures;
        hidden = t.hidden;
        colsPerCore = t.colsPerCore;
        rowBlock = t.rowBlock;
        rowsPerCore = t.rowsPerCore;
        kTile = t.kTile;
        scale = t.scale;
        blockIdx = GetBlockIdx();

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)batch * k);
        wGm.SetGlobalBuffer((__gm__ float *)w, (uint64_t)hidden * k);
        yGm.SetGlobalBuffer((__gm__ float *)y, batch);
        colSumGm.SetGlobalBuffer((__gm__ float *)usrWs, k);

        uint32_t blockBytes = rowBlock * colsPerCore * sizeof(float);
        uint32_t tileBytes = kTile * sizeof(float);
        uint32_t inBytes = blockBytes > tileBytes ? blockBytes : tileBytes;
        pipe.InitBuffer(inQueue, BUFFER_NUM, inBytes);
        pipe.InitBuffer(accBuf, (colsPerCore > kTile ? colsPerCore : kTile) * sizeof(float));
        pipe.InitBuffer(csQueue, BUFFER_NUM, kTile * sizeof(float)); // column-sum chunk
        pipe.InitBuffer(workBuf, kTile * sizeof(float));    // ReduceSum scratch
        pipe.InitBuffer(sumBuf, 32);
        uint32_t rowsAligned = (rowsPerCore + 7) / 8 * 8;
        pipe.InitBuffer(outQueue, 1, (rowsAligned > colsPerCore ? rowsAligned : colsPerCore) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        ReduceWeightColumns();
        SyncAll();
        RowDot();
    }

private:
    // phase 1: colSum[c] = sum_h W[h, c] for this core's column slice
    __aicore__ inline void ReduceWeightColumns()
    {
        uint32_t colStart = blockIdx * colsPerCore;
        if (colStart >= k) {
            return;
        }
        uint32_t cols = (k - colStart) < colsPerCore ? (k - colStart) : colsPerCore;
        uint32_t colsAligned = (cols + 7) / 8 * 8;

        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, colsAligned);

        for (uint32_t h = 0; h < hidden; h += rowBlock) {
            uint32_t rows = (hidden - h) < rowBlock ? (hidden - h) : rowBlock;
            LocalTensor<float> wLocal = inQueue.AllocTensor<float>();
            // strided copy: "rows" lines of "cols" floats, each line padded to 32B in UB
            DataCopyExtParams cp{(uint16_t)rows, (uint32_t)(cols * sizeof(float)),
                                 (uint32_t)((k - cols) * sizeof(float)), 0, 0};
            DataCopyPadExtParams<float> pad{true, 0, (uint8_t)(colsAligned - cols), 0.0f};
            DataCopyPad(wLocal, wGm[(uint64_t)h * k + colStart], cp, pad);
            inQueue.EnQue(wLocal);

            wLocal = inQueue.DeQue<float>();
            for (uint32_t r = 0; r < rows; ++r) {
                Add(acc, acc, wLocal[r * colsAligned], colsAligned);
            }
            inQueue.FreeTensor(wLocal);
        }

        LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
        DataCopy(outLocal, acc, colsAligned);
        outQueue.EnQue(outLocal);
        outLocal = outQueue.DeQue<float>();
        DataCopyExtParams op{1, (uint32_t)(cols * sizeof(float)), 0, 0, 0};
        DataCopyPad(colSumGm[colStart], outLocal, op);
        outQueue.FreeTensor(outLocal);
    }

    // phase 2: y[b] = scale * dot(x[b, :], colSum)
    __aicore__ inline void RowDot()
    {
        uint32_t rowStart = blockIdx * rowsPerCore;
        if (rowStart >= batch) {
            return;
        }
        uint32_t rows = (batch - rowStart) < rowsPerCore ? (batch - rowStart) : rowsPerCore;
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> sumLocal = sumBuf.Get<float>();
        LocalTensor<float> res = outQueue.AllocTensor<float>();

        uint32_t numChunks = (k + kTile - 1) / kTile;
        for (uint32_t r = 0; r < rows; ++r) {
            uint64_t rowOff = (uint64_t)(rowStart + r) * k;
            Duplicate(acc, 0.0f, kTile);
            for (uint32_t c = 0; c < numChunks; ++c) {
                uint32_t off = c * kTile;
                uint32_t len = (k - off) < kTile ? (k - off) : kTile;
                uint32_t lenAligned = (len + 7) / 8 * 8;

                LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
                LocalTensor<float> cs = csQueue.AllocTensor<float>();
                DataCopyExtParams cp{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> pad{true, 0, (uint8_t)(lenAligned - len), 0.0f};
                DataCopyPad(xLocal, xGm[rowOff + off], cp, pad);
                // column sums come from the workspace written in phase 1
                DataCopyPad(cs, colSumGm[off], cp, pad);
                inQueue.EnQue(xLocal);
                csQueue.EnQue(cs);
                xLocal = inQueue.DeQue<float>();
                cs = csQueue.DeQue<float>();

                Mul(xLocal, xLocal, cs, lenAligned);
                Add(acc, acc, xLocal, lenAligned);
                inQueue.FreeTensor(xLocal);
                csQueue.FreeTensor(cs);
            }
            ReduceSum<float>(sumLocal, acc, work, kTile);

            event_t evVS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(evVS);
            WaitFlag<HardEvent::V_S>(evVS);
            float dot = sumLocal.GetValue(0);
            res.SetValue(r, dot * scale);
            event_t evSV = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(evSV);
            WaitFlag<HardEvent::S_V>(evSV);
        }

        outQueue.EnQue(res);
        res = outQueue.DeQue<float>();
        DataCopyExtParams op{1, (uint32_t)(rows * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[rowStart], res, op);
        outQueue.FreeTensor(res);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    TQue<QuePosition::VECIN, BUFFER_NUM> csQueue;
    TBuf<TPosition::VECCALC> accBuf, workBuf, sumBuf;
    GlobalTensor<float> xGm, wGm, yGm, colSumGm;
    uint32_t batch, k, hidden, colsPerCore, rowBlock, rowsPerCore, kTile, blockIdx;
    float scale;
};

extern "C" __global__ __aicore__ void gemm_divide_sum_scaling_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    GM_ADDR usrWs = AscendC::GetUserWorkspace(workspace);
    KernelGemmDivideSumScaling op;
    op.Init(x, weight, y, usrWs, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor gemm_divide_sum_scaling_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                   double scaling_factor) {
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor result = at::empty({xc.size(0), 1}, xc.options());
    float scale = static_cast<float>(scaling_factor);
    EXEC_NPU_CMD(aclnnGemmDivideSumScalingCustom, xc, wc, scale, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gemm_divide_sum_scaling_custom", &gemm_divide_sum_scaling_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gemm_divide_sum_scaling_custom", &gemm_divide_sum_scaling_custom_impl_npu,
          "sum(x @ W^T / 2, dim=1, keepdim) * scaling_factor");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, input_size, hidden_size, scaling_factor):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(hidden_size, input_size))
        self.scaling_factor = scaling_factor

    def forward(self, x):
        return custom_ops_lib.gemm_divide_sum_scaling_custom(x, self.weight, self.scaling_factor)
'''
