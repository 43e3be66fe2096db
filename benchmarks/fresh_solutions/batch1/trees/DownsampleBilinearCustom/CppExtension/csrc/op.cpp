#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// F.interpolate(x, size=(out_h, out_w), mode='bilinear', align_corners=False)
at::Tensor downsample_bilinear_custom_impl_npu(const at::Tensor& x, int64_t out_h, int64_t out_w)
{
    TORCH_CHECK(x.dim() == 4, "expected NCHW input");
    at::Tensor xc = x.contiguous();
    at::Tensor result = at::empty({xc.size(0), xc.size(1), out_h, out_w}, xc.options());
    EXEC_NPU_CMD(aclnnDownsampleBilinearCustom, xc, out_h, out_w, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("downsample_bilinear_custom", &downsample_bilinear_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("downsample_bilinear_custom", &downsample_bilinear_custom_impl_npu, "bilinear downsample",
          pybind11::arg("x"), pybind11::arg("out_h") = 60, pybind11::arg("out_w") = 80);
}
