// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/struct_ops.hpp"

#include <cstring>
#include <string>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

namespace scx_burst {

Result<> set_struct_ops_string(struct bpf_object *obj, struct bpf_map *map,
			       std::string_view member, std::string_view value)
{
	const struct btf *btf = bpf_object__btf(obj);
	size_t size = 0;
	auto *data = static_cast<char *>(bpf_map__initial_value(map, &size));
	const char *map_name = bpf_map__name(map);

	if (!btf || !data)
		return fail(std::string("struct_ops map ") + map_name + " has no BTF or data");
	const struct btf_type *t = btf__type_by_id(btf, bpf_map__btf_value_type_id(map));
	if (!t || !btf_is_struct(t))
		return fail(std::string("struct_ops map ") + map_name + " has no struct type");
	const struct btf_member *m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		if (btf__name_by_offset(btf, m->name_off) != member)
			continue;
		size_t off = btf_member_bit_offset(t, i) / 8;
		long len = btf__resolve_size(btf, m->type);
		if (len <= 0 || off + len > size)
			break;
		if (value.size() >= (size_t)len)
			return fail(std::string(map_name) + "." + std::string(member) + " holds " +
				    std::to_string(len - 1) + " characters, not " +
				    std::to_string(value.size()));
		std::memset(data + off, 0, len);
		std::memcpy(data + off, value.data(), value.size());
		return {};
	}
	return fail(std::string("struct_ops map ") + map_name + " has no usable member " +
		    std::string(member));
}

}  // namespace scx_burst
