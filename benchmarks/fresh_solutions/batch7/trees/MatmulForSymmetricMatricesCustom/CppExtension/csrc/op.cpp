#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

// out = lhs @ rhs where rhs is symmetric (the kernel relies on rhs == rhs^T)
at::Tensor symmetric_pair_matmul_impl_npu(const at::Tensor &lhs, const at::Tensor &rhs)
{
    TORCH_CHECK(lhs.dim() == 2 && rhs.dim() == 2, "expected matrices");
    TORCH_CHECK(rhs.size(0) == rhs.size(1), "rhs must be square (symmetric)");
    TORCH_CHECK(lhs.size(1) == rhs.size(0), "shape mismatch");
    at::Tensor l = lhs.contiguous();
    at::Tensor r = rhs.contiguous();
    at::Tensor out = at::empty({lhs.size(0), rhs.size(1)}, lhs.options());
    EXEC_NPU_CMD(aclnnSymmetricPairMatmulCustom, l, r, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m)
{
    m.impl("symmetric_pair_matmul_custom", &symmetric_pair_matmul_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("symmetric_pair_matmul_custom", &symmetric_pair_matmul_impl_npu,
          "matmul with a symmetric right operand (NPU)");
}
