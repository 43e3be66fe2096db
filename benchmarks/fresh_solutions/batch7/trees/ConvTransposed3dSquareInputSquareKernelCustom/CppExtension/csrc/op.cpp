#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

// Raw entry: x_pad [N, Dp, Hp, Wp, Cin] channels-last and pre-padded,
// tap_weight [K^3, Cin, Cout] (flipped kernel). Returns [N, Dout, Hout*Wp, Cout].
at::Tensor deconv3d_tap_gemm_impl_npu(const at::Tensor &x_pad, const at::Tensor &tap_weight, int64_t kernel_size)
{
    const int64_t n = x_pad.size(0);
    const int64_t dout = x_pad.size(1) - kernel_size + 1;
    const int64_t rows = (x_pad.size(2) - kernel_size) * x_pad.size(3);
    at::Tensor y = at::empty({n, dout, rows, tap_weight.size(2)}, x_pad.options());
    EXEC_NPU_CMD(aclnnDeconv3dTapGemmCustom, x_pad, tap_weight, kernel_size, y);
    return y;
}

// ConvTranspose3d (stride 1, groups 1, cubic kernel) with PyTorch semantics.
// weight: [Cin, Cout, K, K, K] as stored by nn.ConvTranspose3d.
at::Tensor conv_transpose3d_impl_npu(const at::Tensor &x, const at::Tensor &weight, int64_t padding)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "expected 5-D input and weight");
    const int64_t k = weight.size(2);
    TORCH_CHECK(weight.size(3) == k && weight.size(4) == k, "kernel must be cubic");
    TORCH_CHECK(padding >= 0 && padding <= k - 1, "unsupported padding");
    const int64_t cin = x.size(1);
    const int64_t cout = weight.size(1);
    const int64_t halo = k - 1 - padding;

    // channels-last + halo; one extra zero row at the bottom of H keeps the
    // last tap slab of a plane inside the plane
    at::Tensor xl = x.permute({0, 2, 3, 4, 1});
    at::Tensor xPad = at::constant_pad_nd(xl, {0, 0, halo, halo, halo, halo + 1, halo, halo}, 0).contiguous();

    // transposed conv == correlation with the spatially flipped kernel
    at::Tensor taps = weight.flip({2, 3, 4}).permute({2, 3, 4, 0, 1}).contiguous().view({k * k * k, cin, cout});

    at::Tensor y = deconv3d_tap_gemm_impl_npu(xPad, taps, k);

    const int64_t wp = xPad.size(3);
    const int64_t dout = y.size(1);
    const int64_t hout = y.size(2) / wp;
    const int64_t wout = wp - k + 1;
    return y.view({x.size(0), dout, hout, wp, cout})
        .narrow(3, 0, wout)
        .permute({0, 4, 1, 2, 3})
        .contiguous();
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m)
{
    m.impl("deconv3d_tap_gemm_custom", &deconv3d_tap_gemm_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("deconv3d_tap_gemm_custom", &deconv3d_tap_gemm_impl_npu, "tap-GEMM core of stride-1 ConvTranspose3d");
    m.def("conv_transpose3d", &conv_transpose3d_impl_npu, "ConvTranspose3d, stride 1 (NPU)",
          py::arg("x"), py::arg("weight"), py::arg("padding") = 0);
}
