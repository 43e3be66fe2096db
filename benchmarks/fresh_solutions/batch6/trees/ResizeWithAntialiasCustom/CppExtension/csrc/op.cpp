#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// F.interpolate(x, size=(out_h, out_w), mode='bilinear', align_corners=False, antialias=True)
at::Tensor resize_with_antialias_custom_impl_npu(const at::Tensor &x, int64_t out_h, int64_t out_w)
{
    TORCH_CHECK(x.dim() == 4, "expected NCHW input");
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty({xc.size(0), xc.size(1), out_h, out_w}, xc.options());
    EXEC_NPU_CMD(aclnnResizeWithAntialiasCustom, xc, out_h, out_w, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("resize_with_antialias_custom", &resize_with_antialias_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("resize_with_antialias_custom", &resize_with_antialias_custom_impl_npu,
          "antialiased bilinear resize (align_corners=False)",
          pybind11::arg("x"), pybind11::arg("out_h") = 128, pybind11::arg("out_w") = 128);
}
