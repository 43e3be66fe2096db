project_json_src='''
[
    {
        "op": "MatmulMaxPoolSumScaleCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "kernel_size", "param_type": "required", "type": "int"},
            {"name": "scale_factor", "param_type": "required", "type": "float"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulMaxPoolSumScaleCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // batch
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // out_features
  TILING_DATA_FIELD_DEF(uint32_t, kernelSize);    // MaxPool1d window (== stride)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);       // columns loaded per step, multiple of 64
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulMaxPoolSumScaleCustom, MatmulMaxPoolSumScaleCustomTilingData)
}
"""

host_operator_src="""
#include "matmul_max_pool_sum_scale_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MatmulMaxPoolSumScaleCustomTilingData tiling;
    const gert::Shape shp = context->GetInputShape(0)->GetOriginShape();
    uint32_t rows = static_cast<uint32_t>(shp.GetDim(0));
    uint32_t cols = static_cast<uint32_t>(shp.GetDim(1));

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    uint32_t k = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    float scale = *attrs->GetAttrPointer<float>(1);

    uint32_t coreNum = 32;
    if (coreNum > rows) coreNum = rows;
    uint32_t rowsPerCore = (rows + coreNum - 1) / coreNum;
    coreNum = (rows + rowsPerCore - 1) / rowsPerCore;

    // 8192 floats = 32KB per load; GatherMask repeat limit is 255 * 64 elements
    uint32_t tileLen = 8192;
    uint32_t colsAligned = (cols + 63) / 64 * 64;
    if (tileLen > colsAligned) tileLen = colsAligned;

    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_kernelSize(k);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_tileLen(tileLen);
    tiling.set_scale(scale);

    context->SetBlockDim(coreNum);
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
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(1);
    out->SetDim(0, in->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MatmulMaxPoolSumScaleCustom : public OpDef {
public:
    explicit MatmulMaxPoolSumScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("kernel_size").Int();
        this->Attr("scale_factor").Float();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatmulMaxPoolSumScaleCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t ELEMS_PER_REPEAT = 64;   // float elements per 256B repeat

// Epilogue after the linear layer:
//   out[b] = scale * sum_j max(y[b, k*j], ..., y[b, k*j + k - 1])
// For k == 2 the even/odd lanes are split with GatherMask and combined with Max.
// Other window sizes use a strided scalar fallback.
class KernelMaxPoolSumScale {
public:
    __aicore__ inline KernelMaxPoolSumScale() {}
    __aicore__ inline void Init(GM_ADDR y, GM_ADDR out, uint32_t rows, uint32_t cols, uint32_t k,
                                uint32_t rowsPerCore, uint32_t tileLen, float scale)
    {
        this->cols = cols;
        this->k = k;
        this->tileLen = tileLen;
        this->scale = scale;
        rowBegin = GetBlockIdx() * rowsPerCore;
        myRows = rows > rowBegin ? rows - rowBegin : 0;
        if (myRows > rowsPerCore) myRows = rowsPerCore;
        pooledLen = cols / k;
        usedCols = pooledLen * k;

        yGm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(rows) * cols);
        outGm.SetGlobalBuffer((__gm__ float*)out + rowBegin, rowsPerCore);

        pipe.InitBuffer(inQue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(evenBuf, tileLen / 2 * sizeof(float));
        pipe.InitBuffer(oddBuf, tileLen / 2 * sizeof(float));
        pipe.InitBuffer(accBuf, tileLen / 2 * sizeof(float));
        pipe.InitBuffer(workBuf, tileLen / 2 * sizeof(float));
        pipe.InitBuffer(resBuf, 32);
        pipe.InitBuffer(outBuf, (rowsPerCore + 7) / 8 * 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (myRows == 0) return;
        LocalTensor<float> outLocal = outBuf.Get<float>();
        for (uint32_t r = 0; r < myRows; ++r) {
            float v = (k == 2) ? RowPair(rowBegin + r) : RowGeneric(rowBegin + r);
            outLocal.SetValue(r, v * scale);
        }
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(e);
        WaitFlag<HardEvent::S_MTE3>(e);
        DataCopyExtParams cp{1, static_cast<uint32_t>(myRows * sizeof(float)), 0, 0, 0};
        DataCopyPad(outGm, outLocal, cp);
    }

private:
    __aicore__ inline void LoadTile(uint32_t row, uint32_t colOff, uint32_t len)
    {
        LocalTensor<float> t = inQue.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(t, yGm[static_cast<uint64_t>(row) * cols + colOff], cp, pad);
        inQue.EnQue(t);
    }

    __aicore__ inline float RowPair(uint32_t row)
    {
        LocalTensor<float> even = evenBuf.Get<float>();
        LocalTensor<float> odd = oddBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        uint32_t half = tileLen / 2;
        Duplicate(acc, 0.0f, half);

        for (uint32_t off = 0; off < usedCols; off += tileLen) {
            uint32_t len = usedCols - off;
            if (len > tileLen) len = tileLen;
            uint32_t pairs = len / 2;
            LoadTile(row, off, len);
            LocalTensor<float> t = inQue.DeQue<float>();

            uint64_t rsvd = 0;
            uint8_t rep = static_cast<uint8_t>((len + ELEMS_PER_REPEAT - 1) / ELEMS_PER_REPEAT);
            GatherMaskParams gp{1, rep, 8, 0};
            GatherMask(even, t, static_cast<uint8_t>(1), false, 0, gp, rsvd);   // lanes 0,2,4,...
            GatherMask(odd, t, static_cast<uint8_t>(2), false, 0, gp, rsvd);    // lanes 1,3,5,...
            inQue.FreeTensor(t);

            Max(even, even, odd, pairs);
            Add(acc, acc, even, pairs);
        }
        return ReduceToScalar(acc, half);
    }

    __aicore__ inline float RowGeneric(uint32_t row)
    {
        float total = 0.0f;
        for (uint32_t off = 0; off < usedCols; off += tileLen) {
            uint32_t len = usedCols - off;
            if (len > tileLen) len = tileLen;
            len = len / k * k;
            LoadTile(row, off, len);
            LocalTensor<float> t = inQue.DeQue<float>();
            event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(e);
            WaitFlag<HardEvent::MTE2_S>(e);
            for (uint32_t j = 0; j < len; j += k) {
                float m = t.GetValue(j);
                for (uint32_t q = 1; q < k; ++q) {
                    float c = t.GetValue(j + q);
                    m = c > m ? c : m;
                }
                total += m;
            }
            inQue.FreeTensor(t);
        }
        return total;
    }

    __aicore__ inline float ReduceToScalar(LocalTensor<float>& acc, uint32_t count)
    {
        LocalTensor<float> res = resBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        ReduceSum(res, acc, work, count);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        return res.GetValue(0);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TBuf<QuePosition::VECCALC> evenBuf, oddBuf, accBuf, workBuf, resBuf, outBuf;
    GlobalTensor<float> yGm, outGm;
    uint32_t cols, k, tileLen, rowBegin, myRows, pooledLen, usedCols;
    float scale;
};

extern "C" __global__ __aicore__ void matmul_max_pool_sum_scale_custom(GM_ADDR y, GM_ADDR out,
                                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelMaxPoolSumScale op;
    op.Init(y, out, td.rows, td.cols, td.kernelSize, td.rowsPerCore, td.tileLen, td.scale);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matmul_max_pool_sum_scale_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                     const at::Tensor& bias, int64_t kernel_size,
                                                     double scale_factor)
{
    // GEMM on the cube unit through the framework, epilogue fused in the custom kernel
    at::Tensor y = at::addmm(bias, x, weight.t()).contiguous();
    at::Tensor out = at::empty({y.size(0)}, y.options());
    float scale = static_cast<float>(scale_factor);
    EXEC_NPU_CMD(aclnnMatmulMaxPoolSumScaleCustom, y, kernel_size, scale, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_max_pool_sum_scale_custom", &matmul_max_pool_sum_scale_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_max_pool_sum_scale_custom", &matmul_max_pool_sum_scale_custom_impl_npu,
          "linear -> maxpool1d -> sum -> scale");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, kernel_size, scale_factor):
        super(ModelNew, self).__init__()
        self.matmul = nn.Linear(in_features, out_features)
        self.kernel_size = kernel_size
        self.scale_factor = scale_factor

    def forward(self, x):
        return custom_ops_lib.matmul_max_pool_sum_scale_custom(
            x, self.matmul.weight, self.matmul.bias, self.kernel_size, self.scale_factor)
'''
