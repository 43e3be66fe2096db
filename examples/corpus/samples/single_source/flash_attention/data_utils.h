/*
 * Copyright 2026 Ascend-CoT curate authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * Host-side helpers shared by the kernel-launch samples: binary file I/O and
 * an ACL return-code check that stops the sample at the first failure.
 */
#ifndef SAMPLES_DATA_UTILS_H
#define SAMPLES_DATA_UTILS_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
#define CHECK_ACL(expr)                                                                  \
    do {                                                                                 \
        aclError ret_ = (expr);                                                          \
        if (ret_ != ACL_SUCCESS) {                                                       \
            std::fprintf(stderr, "%s:%d: %s failed with %d\n", __FILE__, __LINE__, #expr, \
                         static_cast<int>(ret_));                                        \
            std::exit(EXIT_FAILURE);                                                     \
        }                                                                                \
    } while (0)
#endif

// Reads exactly `expected` bytes of `path` into `buffer` (capacity `capacity`).
inline bool ReadFile(const std::string &path, size_t expected, void *buffer, size_t capacity)
{
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) {
        std::fprintf(stderr, "cannot open %s\n", path.c_str());
        return false;
    }
    const auto size = static_cast<size_t>(in.tellg());
    if (size != expected || size > capacity) {
        std::fprintf(stderr, "%s holds %zu bytes, expected %zu\n", path.c_str(), size, expected);
        return false;
    }
    in.seekg(0, std::ios::beg);
    in.read(static_cast<char *>(buffer), static_cast<std::streamsize>(size));
    return static_cast<bool>(in);
}

inline bool WriteFile(const std::string &path, const void *buffer, size_t size)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) {
        std::fprintf(stderr, "cannot create %s\n", path.c_str());
        return false;
    }
    out.write(static_cast<const char *>(buffer), static_cast<std::streamsize>(size));
    return static_cast<bool>(out);
}

#endif // SAMPLES_DATA_UTILS_H
