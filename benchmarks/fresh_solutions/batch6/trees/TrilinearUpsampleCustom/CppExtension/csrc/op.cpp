// pybind binding for TrilinearUpsampleCustom
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor trilinear_upsample_custom_impl_npu(const at::Tensor& x)
{
    at::Tensor xc = x.contiguous();
    int64_t s = 2;
    at::Tensor y = at::empty({xc.size(0), xc.size(1), xc.size(2) * s, xc.size(3) * s, xc.size(4) * s},
                             xc.options());
    EXEC_NPU_CMD(aclnnTrilinearUpsampleCustom, xc, s, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("trilinear_upsample_custom", &trilinear_upsample_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("trilinear_upsample_custom", &trilinear_upsample_custom_impl_npu, "trilinear x2, align_corners");
}
