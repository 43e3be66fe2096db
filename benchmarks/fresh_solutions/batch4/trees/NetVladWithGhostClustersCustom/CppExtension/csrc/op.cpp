#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// NetVLAD with ghost clusters.
// Soft-assignment (matmul + batchnorm + softmax) and the B x K x D aggregation
// are left to the stock NPU ops. The custom kernel fuses the tail of the model:
//   vlad - a_sum * clusters2, intra L2 norm per cluster, global L2 norm.
// It works on the (B, K, D) layout; the transpose to (B, D, K) is applied afterwards,
// which is fine because both norms do not depend on element order.
at::Tensor net_vlad_with_ghost_clusters_impl_npu(const at::Tensor& x, const at::Tensor& clusters,
                                                 const at::Tensor& bn_weight, const at::Tensor& bn_bias,
                                                 const at::Tensor& bn_running_mean, const at::Tensor& bn_running_var,
                                                 const at::Tensor& clusters2, int64_t cluster_size, bool training)
{
    TORCH_CHECK(x.dim() == 3, "x must be B x N x D");
    const int64_t b = x.size(0);
    const int64_t n = x.size(1);
    const int64_t d = x.size(2);
    const int64_t k = cluster_size;

    at::Tensor x_flat = x.reshape({b * n, d});
    at::Tensor assign = at::matmul(x_flat, clusters);                       // BN x (K+G)
    assign = at::batch_norm(assign, bn_weight, bn_bias, bn_running_mean, bn_running_var,
                            training, 0.1, 1e-5, false);
    assign = at::softmax(assign, 1);
    assign = assign.narrow(1, 0, k).reshape({b, n, k});                     // drop ghosts

    at::Tensor a_sum = assign.sum(1).contiguous();                          // B x K
    at::Tensor vlad = at::bmm(assign.transpose(1, 2), x.reshape({b, n, d})).contiguous();  // B x K x D
    at::Tensor c2t = clusters2.reshape({d, k}).transpose(0, 1).contiguous(); // K x D

    at::Tensor out = at::empty({b, k, d}, x.options());
    EXEC_NPU_CMD(aclnnNetVladWithGhostClustersCustom, vlad, a_sum, c2t, out);
    // (B, K, D) -> (B, D, K) -> (B, D*K)
    return out.transpose(1, 2).reshape({b, d * k});
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("net_vlad_with_ghost_clusters_custom", &net_vlad_with_ghost_clusters_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("net_vlad_with_ghost_clusters_custom", &net_vlad_with_ghost_clusters_impl_npu,
          "NetVLAD (ghost clusters) residual + double L2 normalisation");
}
