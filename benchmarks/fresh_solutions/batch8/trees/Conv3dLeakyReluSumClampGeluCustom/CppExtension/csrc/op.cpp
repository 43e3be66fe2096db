#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// leaky_relu(0.2) -> + offset[c] -> clamp[-1, 1] -> gelu, on an (N, C, D, H, W) tensor
at::Tensor leaky_offset_saturate_gelu_impl_npu(const at::Tensor &x, const at::Tensor &offset)
{
    TORCH_CHECK(x.dim() >= 2, "expected an (N, C, ...) tensor");
    TORCH_CHECK(offset.numel() == x.size(1), "offset must hold one value per channel");
    at::Tensor xc = x.contiguous();
    at::Tensor oc = offset.reshape({-1}).contiguous();
    at::Tensor y = at::empty_like(xc);
    double slope = 0.2;
    double clipMin = -1.0;
    double clipMax = 1.0;
    EXEC_NPU_CMD(aclnnLeakyOffsetSaturateGeluCustom, xc, oc, slope, clipMin, clipMax, y);
    return y;
}

// Conv3d stays on the stock cube kernel; the element-wise tail is fused into one pass.
at::Tensor conv3d_leaky_offset_gelu_npu(const at::Tensor &x, const at::Tensor &weight, const at::Tensor &bias,
                                        const at::Tensor &offset)
{
    at::Tensor conv = at::conv3d(x, weight, bias);
    return leaky_offset_saturate_gelu_impl_npu(conv, offset);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("leaky_offset_saturate_gelu_custom", &leaky_offset_saturate_gelu_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("leaky_offset_saturate_gelu_custom", &leaky_offset_saturate_gelu_impl_npu,
          "gelu(clamp(leaky_relu(x) + offset, -1, 1))");
    m.def("conv3d_leaky_offset_gelu", &conv3d_leaky_offset_gelu_npu, "conv3d followed by the fused epilogue");
}
