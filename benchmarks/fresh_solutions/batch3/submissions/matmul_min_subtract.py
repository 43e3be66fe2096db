project_json_src='''
[
    {
        "op": "MatmulMinSubtractCustom",
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
            },
            {
                "name": "bias",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "constant",
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
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulMinSubtractCustomTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);
  TILING_DATA_FIELD_DEF(uint32_t, usedCoreNum);   // cores that actually own an output slab
  TILING_DATA_FIELD_DEF(uint32_t, nBlocks);       // how many slabs the N axis is cut into
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulMinSubtractCustom, MatmulMinSubtractCustomTilingData)
}
"""

host_operator_src="""
#include "matmul_min_subtract_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
// base block handed out by one Iterate(); the epilogue works on exactly this tile in UB
constexpr int32_t BASE_M = 128;
constexpr int32_t BASE_N = 128;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aicNum = platform.GetCoreNumAic();

    const gert::Shape &xShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &wShape = context->GetInputShape(1)->GetStorageShape();
    int32_t M = static_cast<int32_t>(xShape.GetDim(0));
    int32_t K = static_cast<int32_t>(xShape.GetDim(1));
    int32_t N = static_cast<int32_t>(wShape.GetDim(0));   // nn.Linear weight is [N, K]

    // M is small (128) here, so every core takes all rows and a slab of columns.
    // Each slab is a multiple of BASE_N so every Iterate() step is a full tile.
    int32_t singleM = M;
    int32_t nTiles = (N + BASE_N - 1) / BASE_N;
    int32_t tilesPerCore = (nTiles + static_cast<int32_t>(aicNum) - 1) / static_cast<int32_t>(aicNum);
    int32_t singleN = tilesPerCore * BASE_N;
    uint32_t nBlocks = static_cast<uint32_t>((N + singleN - 1) / singleN);
    uint32_t usedCores = nBlocks;

    MultiCoreMatmulTiling mmTiling(platform);
    mmTiling.SetDim(usedCores);
    mmTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mmTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mmTiling.SetCType(TPosition::VECIN, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(M, N, K);
    mmTiling.SetOrgShape(M, N, K);
    mmTiling.SetSingleShape(singleM, singleN, K);
    mmTiling.SetFixSplit(BASE_M, BASE_N, -1);
    mmTiling.SetBias(true);
    mmTiling.SetBufferSpace(-1, -1, -1);

    MatmulMinSubtractCustomTilingData tiling;
    if (mmTiling.GetTiling(tiling.cubeTiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_usedCoreNum(usedCores);
    tiling.set_nBlocks(nBlocks);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(platform.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    const gert::Shape* wShape = context->GetInputShape(1);
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(2);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, wShape->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MatmulMinSubtractCustom : public OpDef {
public:
    explicit MatmulMinSubtractCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("constant").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatmulMinSubtractCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// y = min(x * W^T + b, c) - c
// Cube unit does the GEMM (+bias); every baseM x baseN result tile is pulled into UB
// and the min/subtract epilogue is applied there before it is written to GM.
class MatmulMinSubtractKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;   // weight is [N, K]
    using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    Matmul<AType, BType, CType, BiasType> mm;

    __aicore__ inline MatmulMinSubtractKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR cst, GM_ADDR y,
                                const TCubeTiling &t, uint32_t nBlocks)
    {
        tiling = t;
        uint32_t blk = GetBlockIdx();
        // M is not split (nBlocks slabs along N only), but keep the general mapping
        uint32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
        uint32_t mIdx = blk % mBlocks;
        uint32_t nIdx = blk / mBlocks;

        rowStart = mIdx * tiling.singleCoreM;
        colStart = nIdx * tiling.singleCoreN;
        curM = tiling.M - rowStart < (uint32_t)tiling.singleCoreM ? tiling.M - rowStart : tiling.singleCoreM;
        curN = tiling.N - colStart < (uint32_t)tiling.singleCoreN ? tiling.N - colStart : tiling.singleCoreN;

        xGm.SetGlobalBuffer((__gm__ float *)x + rowStart * tiling.Ka);
        wGm.SetGlobalBuffer((__gm__ float *)w + colStart * tiling.Kb);
        biasGm.SetGlobalBuffer((__gm__ float *)bias + colStart);
        yGm.SetGlobalBuffer((__gm__ float *)y + rowStart * tiling.N + colStart);
        cstGm.SetGlobalBuffer((__gm__ float *)cst, 1);

        constVal = cstGm.GetValue(0);
        uint32_t tileElems = tiling.baseM * tiling.baseN;
        pipe.InitBuffer(mmOutQue, 2, tileElems * sizeof(float));
        pipe.InitBuffer(resQue, 2, tileElems * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        mm.SetTensorA(xGm);
        mm.SetTensorB(wGm, true);
        mm.SetBias(biasGm);
        mm.SetTail(curM, curN);

        uint32_t mIter = (curM + tiling.baseM - 1) / tiling.baseM;
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<float> cLocal = mmOutQue.AllocTensor<float>();
            mm.template GetTensorC<true>(cLocal, false, true);
            mmOutQue.EnQue(cLocal);

            Epilogue();
            // default iterate order walks M first, then N
            uint32_t mi = step % mIter;
            uint32_t ni = step / mIter;
            CopyOut(mi, ni);
            ++step;
        }
        mm.End();
    }

private:
    __aicore__ inline void Epilogue()
    {
        LocalTensor<float> cLocal = mmOutQue.DeQue<float>();
        LocalTensor<float> rLocal = resQue.AllocTensor<float>();
        uint32_t cnt = tiling.baseM * tiling.baseN;
        Mins(rLocal, cLocal, constVal, cnt);   // min(v, c)
        Adds(rLocal, rLocal, -constVal, cnt);  // - c
        resQue.EnQue(rLocal);
        mmOutQue.FreeTensor(cLocal);
    }

    __aicore__ inline void CopyOut(uint32_t mi, uint32_t ni)
    {
        LocalTensor<float> rLocal = resQue.DeQue<float>();
        uint32_t rows = curM - mi * tiling.baseM;
        rows = rows > (uint32_t)tiling.baseM ? tiling.baseM : rows;
        uint32_t cols = curN - ni * tiling.baseN;
        cols = cols > (uint32_t)tiling.baseN ? tiling.baseN : cols;

        DataCopyExtParams params;
        params.blockCount = static_cast<uint16_t>(rows);
        params.blockLen = cols * sizeof(float);
        params.srcStride = (tiling.baseN - cols) * sizeof(float) / 32;   // UB stride in 32B blocks
        params.dstStride = (tiling.N - cols) * sizeof(float);            // GM stride in bytes
        params.rsv = 0;
        uint64_t off = (uint64_t)mi * tiling.baseM * tiling.N + ni * tiling.baseN;
        DataCopyPad(yGm[off], rLocal, params);
        resQue.FreeTensor(rLocal);
    }

private:
    TPipe pipe;
    TCubeTiling tiling;
    TQue<QuePosition::VECIN, 2> mmOutQue;
    TQue<QuePosition::VECOUT, 2> resQue;
    GlobalTensor<float> xGm, wGm, biasGm, yGm, cstGm;
    uint32_t rowStart = 0, colStart = 0, curM = 0, curN = 0;
    float constVal = 0.0f;

public:
    __aicore__ inline TPipe *GetPipe() { return &pipe; }
};

extern "C" __global__ __aicore__ void matmul_min_subtract_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                 GM_ADDR constant, GM_ADDR y,
                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    GET_TILING_DATA(tilingData, tiling);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    if (GetBlockIdx() >= tilingData.usedCoreNum) {
        return;
    }
    MatmulMinSubtractKernel op;
    REGIST_MATMUL_OBJ(op.GetPipe(), GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTiling);
    op.Init(x, weight, bias, constant, y, tilingData.cubeTiling, tilingData.nBlocks);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matmul_min_subtract_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                               const at::Tensor& bias, const at::Tensor& constant)
{
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2, "x and weight must be 2-D");
    TORCH_CHECK(x.size(1) == weight.size(1), "in_features mismatch");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.contiguous();
    at::Tensor cst = constant.reshape({1}).contiguous();
    at::Tensor y = at::empty({x.size(0), weight.size(0)}, x.options());
    EXEC_NPU_CMD(aclnnMatmulMinSubtractCustom, xc, wc, bc, cst, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_min_subtract_custom", &matmul_min_subtract_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_min_subtract_custom", &matmul_min_subtract_custom_impl_npu,
          "min(linear(x), c) - c");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_features, out_features, constant):
        super(ModelNew, self).__init__()
        self.linear = torch.nn.Linear(in_features, out_features)
        self.constant = torch.nn.Parameter(torch.tensor(constant))

    def forward(self, x):
        return custom_ops_lib.matmul_min_subtract_custom(
            x, self.linear.weight, self.linear.bias, self.constant)
'''
