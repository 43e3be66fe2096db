#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor bicubic_upsample_custom_impl_npu(const at::Tensor& x, int64_t out_h, int64_t out_w)
{
    at::Tensor y = at::empty({x.size(0), x.size(1), out_h, out_w}, x.options());
    EXEC_NPU_CMD(aclnnBicubicUpsampleCustom, x, out_h, out_w, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("bicubic_upsample_custom", &bicubic_upsample_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("bicubic_upsample_custom", &bicubic_upsample_custom_impl_npu, "bicubic upsample, align_corners=True");
}
