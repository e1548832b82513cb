// SPDX-License-Identifier: GPL-2.0
// Fields of a struct_ops map that the skeleton cannot set by name.
#pragma once

#include <string_view>

#include "error.hpp"

struct bpf_object;
struct bpf_map;

namespace scx_burst {

// Writes @value, NUL-terminated, into the char array @member of the
// struct_ops map @map of @obj, before the object is loaded.  The member is
// found in the object's BTF: bpftool's skeleton leaves arrays out of its
// struct_ops view (sched_ext_ops.name is "__unsupported_NN" there).
Result<> set_struct_ops_string(struct bpf_object *obj, struct bpf_map *map,
			       std::string_view member, std::string_view value);

}  // namespace scx_burst
