#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

// C = A @ B for 2-D fp32 matrices of any size
at::Tensor dense_gemm_any_shape_impl_npu(const at::Tensor &a, const at::Tensor &b)
{
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2, "expected 2-D matrices");
    TORCH_CHECK(a.size(1) == b.size(0), "inner dimensions differ: ", a.size(1), " vs ", b.size(0));
    at::Tensor lhs = a.contiguous();
    at::Tensor rhs = b.contiguous();
    at::Tensor c = at::empty({a.size(0), b.size(1)}, a.options());
    EXEC_NPU_CMD(aclnnDenseGemmAnyShapeCustom, lhs, rhs, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m)
{
    m.impl("dense_gemm_any_shape_custom", &dense_gemm_any_shape_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("dense_gemm_any_shape_custom", &dense_gemm_any_shape_impl_npu, "fp32 GEMM, arbitrary shapes (NPU)");
}
