project_json_src='''
[
    {
        "op": "ConvTransposed2dAsymmetricInputAsymmetricKernelCustom",
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
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTransposed2dAsymmetricInputAsymmetricKernelCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerChunk);
  TILING_DATA_FIELD_DEF(uint32_t, chunksPerImage);
  TILING_DATA_FIELD_DEF(uint32_t, totalJobs);
  TILING_DATA_FIELD_DEF(uint32_t, colBytesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, wBytesPerCore);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTransposed2dAsymmetricInputAsymmetricKernelCustom, ConvTransposed2dAsymmetricInputAsymmetricKernelCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transposed2d_asymmetric_input_asymmetric_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// output rows handled per matmul call
constexpr uint32_t ROWS_PER_CHUNK = 10;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    // weight: [Cin, Cout, kH, kW]
    uint32_t cout = ws.GetDim(1), kh = ws.GetDim(2), kw = ws.GetDim(3);
    // stride 1, no padding, no dilation
    uint32_t oh = h + kh - 1;
    uint32_t ow = w + kw - 1;

    uint32_t rows = ROWS_PER_CHUNK < oh ? ROWS_PER_CHUNK : oh;
    uint32_t chunks = (oh + rows - 1) / rows;
    uint32_t kdim = cin * kh * kw;
    uint32_t chunkN = rows * ow;

    uint32_t coreNum = plat.GetCoreNumAic();
    uint32_t jobs = n * chunks;
    if (coreNum > jobs) coreNum = jobs;
    if (coreNum == 0) coreNum = 1;

    ConvTransposed2dAsymmetricInputAsymmetricKernelCustomTilingData tiling;
    tiling.set_batch(n);
    tiling.set_inC(cin);
    tiling.set_outC(cout);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_kH(kh);
    tiling.set_kW(kw);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_rowsPerChunk(rows);
    tiling.set_chunksPerImage(chunks);
    tiling.set_totalJobs(jobs);
    uint32_t colBytes = ((kdim * chunkN * sizeof(float) + 511) / 512) * 512;
    uint32_t wBytes = ((cout * kdim * sizeof(float) + 511) / 512) * 512;
    tiling.set_colBytesPerCore(colBytes);
    tiling.set_wBytesPerCore(wBytes);

    // C[Cout, chunkN] = Wmat[Cout, K] * Col[K, chunkN]
    matmul_tiling::MatmulApiTiling mmTiling(plat);
    mmTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(cout, chunkN, kdim);
    mmTiling.SetOrgShape(cout, chunkN, kdim);
    mmTiling.SetBias(false);
    mmTiling.SetBufferSpace(-1, -1, -1);
    if (mmTiling.GetTiling(tiling.cubeTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(coreNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t sysWs = plat.GetLibApiWorkSpaceSize();
    size_t* wsSizes = context->GetWorkspaceSizes(1);
    // every vector core gets its own col buffer + repacked weight
    wsSizes[0] = sysWs + static_cast<size_t>(colBytes + wBytes) * coreNum * 2;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1));
    ys->SetDim(2, xs->GetDim(2) + ws->GetDim(2) - 1);
    ys->SetDim(3, xs->GetDim(3) + ws->GetDim(3) - 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTransposed2dAsymmetricInputAsymmetricKernelCustom : public OpDef {
public:
    explicit ConvTransposed2dAsymmetricInputAsymmetricKernelCustom(const char* name) : OpDef(name)
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

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTransposed2dAsymmetricInputAsymmetricKernelCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

constexpr int32_t BUFFER_NUM = 2;

class KernelConvTranspose2d {
public:
    using AType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
    using BType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
    using CType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
    using BiasType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
    Matmul<AType, BType, CType, BiasType> mm;

    __aicore__ inline KernelConvTranspose2d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR usrWs,
                                const ConvTransposed2dAsymmetricInputAsymmetricKernelCustomTilingData& td)
    {
        n = td.batch; cin = td.inC; cout = td.outC;
        ih = td.inH; iw = td.inW; kh = td.kH; kw = td.kW;
        oh = td.outH; ow = td.outW;
        rows = td.rowsPerChunk; chunks = td.chunksPerImage; jobs = td.totalJobs;
        kdim = cin * kh * kw;
        taps = kh * kw;

        coreId = AscendC::GetBlockIdx();
        coreNum = AscendC::GetBlockNum();

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        // per-core scratch: [col | wmat]
        uint64_t perCore = (uint64_t)td.colBytesPerCore + td.wBytesPerCore;
        __gm__ uint8_t* base = (__gm__ uint8_t*)usrWs + perCore * coreId;
        colGm.SetGlobalBuffer((__gm__ float*)base);
        wmatGm.SetGlobalBuffer((__gm__ float*)(base + td.colBytesPerCore));

        owAlign = (ow + 7) / 8 * 8;
        wRowAlign = (taps + 7) / 8 * 8;
        pipe.InitBuffer(rowQue, BUFFER_NUM, owAlign * sizeof(float));
        pipe.InitBuffer(zeroBuf, owAlign * sizeof(float));
        pipe.InitBuffer(wQue, 1, cout * wRowAlign * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> zeros = zeroBuf.Get<float>();
        AscendC::Duplicate(zeros, 0.0f, owAlign);
        AscendC::PipeBarrier<PIPE_ALL>();

        RepackWeight();
        AscendC::PipeBarrier<PIPE_ALL>();

        for (uint32_t job = coreId; job < jobs; job += coreNum) {
            uint32_t b = job / chunks;
            uint32_t oh0 = (job % chunks) * rows;
            uint32_t nr = (oh0 + rows <= oh) ? rows : (oh - oh0);
            BuildCol(b, oh0, nr);
            // col must be in GM before cube reads it
            AscendC::PipeBarrier<PIPE_ALL>();
            uint32_t chunkN = nr * ow;
            mm.SetOrgShape(cout, chunkN, kdim, kdim, oh * ow);
            mm.SetSingleShape(cout, chunkN, kdim);
            mm.SetTensorA(wmatGm);
            mm.SetTensorB(colGm);
            mm.IterateAll(yGm[(uint64_t)b * cout * oh * ow + (uint64_t)oh0 * ow]);
            mm.End();
        }
    }

private:
    // Wmat[co][ci*taps + t] = w[ci][co][t]
    __aicore__ inline void RepackWeight()
    {
        for (uint32_t ci = 0; ci < cin; ci++) {
            AscendC::LocalTensor<float> wl = wQue.AllocTensor<float>();
            AscendC::DataCopyExtParams inP{(uint16_t)cout, (uint32_t)(taps * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(wl, wGm[(uint64_t)ci * cout * taps], inP, pad);
            wQue.EnQue(wl);
            wl = wQue.DeQue<float>();
            AscendC::DataCopyExtParams outP{(uint16_t)cout, (uint32_t)(taps * sizeof(float)), 0,
                                            (uint32_t)((kdim - taps) * sizeof(float)), 0};
            AscendC::DataCopyPad(wmatGm[ci * taps], wl, outP);
            wQue.FreeTensor(wl);
        }
    }

    // col[(ci,r,s)][(o - oh0)*ow + q] = x[b, ci, o - r, q - s]
    __aicore__ inline void BuildCol(uint32_t b, uint32_t oh0, uint32_t nr)
    {
        AscendC::LocalTensor<float> zeros = zeroBuf.Get<float>();
        uint32_t chunkN = nr * ow;
        for (uint32_t ci = 0; ci < cin; ci++) {
            uint64_t xPlane = ((uint64_t)b * cin + ci) * ih * iw;
            for (uint32_t r = 0; r < kh; r++) {
                for (uint32_t s = 0; s < kw; s++) {
                    uint64_t colRow = (uint64_t)(ci * taps + r * kw + s) * chunkN;
                    for (uint32_t i = 0; i < nr; i++) {
                        int32_t srcRow = (int32_t)(oh0 + i) - (int32_t)r;
                        uint64_t dst = colRow + (uint64_t)i * ow;
                        if (srcRow < 0 || srcRow >= (int32_t)ih) {
                            CopyZeros(zeros, dst, ow);
                            continue;
                        }
                        AscendC::LocalTensor<float> buf = rowQue.AllocTensor<float>();
                        // left pad s zeros so x lands at column s
                        uint8_t rpad = (uint8_t)((8 - (s + iw) % 8) % 8);
                        AscendC::DataCopyExtParams inP{1, (uint32_t)(iw * sizeof(float)), 0, 0, 0};
                        AscendC::DataCopyPadExtParams<float> pad{true, (uint8_t)s, rpad, 0.0f};
                        AscendC::DataCopyPad(buf, xGm[xPlane + (uint64_t)srcRow * iw], inP, pad);
                        rowQue.EnQue(buf);
                        buf = rowQue.DeQue<float>();
                        AscendC::DataCopyExtParams outP{1, (uint32_t)((s + iw) * sizeof(float)), 0, 0, 0};
                        AscendC::DataCopyPad(colGm[dst], buf, outP);
                        rowQue.FreeTensor(buf);
                        uint32_t tail = ow - s - iw;
                        if (tail > 0) {
                            CopyZeros(zeros, dst + s + iw, tail);
                        }
                    }
                }
            }
        }
    }

    __aicore__ inline void CopyZeros(const AscendC::LocalTensor<float>& zeros, uint64_t dst, uint32_t len)
    {
        AscendC::DataCopyExtParams p{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(colGm[dst], zeros, p);
    }

public:
    AscendC::TPipe pipe;

private:
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, BUFFER_NUM> rowQue;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1> wQue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> zeroBuf;
    AscendC::GlobalTensor<float> xGm, wGm, yGm, colGm, wmatGm;
    uint32_t n, cin, cout, ih, iw, kh, kw, oh, ow;
    uint32_t rows, chunks, jobs, kdim, taps;
    uint32_t owAlign, wRowAlign;
    uint32_t coreId, coreNum;
};

extern "C" __global__ __aicore__ void conv_transposed2d_asymmetric_input_asymmetric_kernel_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = AscendC::GetUserWorkspace(workspace);
    if (usrWs == nullptr) {
        return;
    }
    KernelConvTranspose2d op;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), op.mm, &td.cubeTiling);
    op.Init(x, weight, y, usrWs, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transposed2d_asymmetric_input_asymmetric_kernel_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expect NCHW input and [Cin, Cout, kH, kW] weight");
    int64_t oh = x.size(2) + weight.size(2) - 1;
    int64_t ow = x.size(3) + weight.size(3) - 1;
    at::Tensor y = at::empty({x.size(0), weight.size(1), oh, ow}, x.options());
    EXEC_NPU_CMD(aclnnConvTransposed2dAsymmetricInputAsymmetricKernelCustom, x, weight, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed2d_asymmetric_input_asymmetric_kernel_custom", &conv_transposed2d_asymmetric_input_asymmetric_kernel_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed2d_asymmetric_input_asymmetric_kernel_custom", &conv_transposed2d_asymmetric_input_asymmetric_kernel_custom_impl_npu, "conv_transpose2d, stride 1");
}
"""
