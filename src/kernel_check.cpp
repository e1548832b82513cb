// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/kernel_check.hpp"

#include <cerrno>
#include <cstring>
#include <sstream>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <sys/utsname.h>

namespace scx_burst {

const std::array<CompatShim, BURST_NR_COMPAT> kCompatShims = {{
#define BURST_COMPAT(id, key, new_form, new_since, gated, old_form, old_kernels, \
		     legacy, why)						\
	{BURST_COMPAT_##id, key, new_form, new_since, gated != 0, old_form,	\
	 old_kernels, legacy, why},
#include "scx_burst/compat_table.h"
#undef BURST_COMPAT
}};

namespace {

constexpr const char *kLegacyKernels = "6.12-6.16";

std::vector<std::string> split_words(std::string_view s, char sep)
{
	std::vector<std::string> out;
	size_t pos = 0;

	while (pos <= s.size()) {
		size_t end = s.find(sep, pos);
		if (end == std::string_view::npos)
			end = s.size();
		if (end > pos)
			out.emplace_back(s.substr(pos, end - pos));
		pos = end + 1;
	}
	return out;
}

// "kfunc" or "kfunc and kfunc2"
std::string names_phrase(std::string_view names)
{
	auto w = split_words(names, ' ');
	std::string out;

	for (size_t i = 0; i < w.size(); i++)
		out += (i ? " and " : "") + w[i];
	return out;
}

bool new_usable(const CompatShim &s, const KernelSymbols &ks)
{
	return ks.has(s.new_form) &&
	       (!s.gated || ks.version() >= kernel_version_code(s.new_since));
}

}  // namespace

uint32_t kernel_version_code(std::string_view release)
{
	uint32_t part[3] = {0, 0, 0};
	size_t i = 0;

	if (release.empty() || release[0] < '0' || release[0] > '9')
		return 0;
	for (int n = 0; n < 3 && i < release.size(); n++) {
		uint32_t v = 0;
		bool digits = false;
		while (i < release.size() && release[i] >= '0' && release[i] <= '9') {
			v = std::min<uint32_t>(v * 10 + (release[i] - '0'), 1000000);
			digits = true;
			i++;
		}
		if (!digits)
			break;
		part[n] = v;
		if (i >= release.size() || release[i] != '.')
			break;
		i++;
	}
	// As the kernel's KERNEL_VERSION(): the sublevel saturates at 255.
	return (part[0] << 16) + (std::min<uint32_t>(part[1], 255) << 8) +
	       std::min<uint32_t>(part[2], 255);
}

std::string strip_flavour(std::string_view name)
{
	size_t pos = name.rfind("___");
	if (pos == std::string_view::npos || pos == 0)
		return std::string(name);
	return std::string(name.substr(0, pos));
}

KernelSymbols::KernelSymbols(std::set<std::string> names, uint32_t version,
			     std::string release)
	: names_(names.begin(), names.end()), version_(version),
	  release_(std::move(release))
{
}

Result<KernelSymbols> KernelSymbols::running()
{
	struct utsname u{};
	uname(&u);

	struct btf *btf = btf__load_vmlinux_btf();
	if (!btf)
		return fail(std::string("cannot read the kernel's BTF "
					"(/sys/kernel/btf/vmlinux): ") +
			    std::strerror(errno) +
			    "; scx_burst needs a kernel built with CONFIG_DEBUG_INFO_BTF");
	std::set<std::string> names;
	// sched_ext's enum values (a flag a form needs, SCX_ENQ_IMMED)
	auto add_scx = [&](uint32_t name_off) {
		const char *name = btf__name_by_offset(btf, name_off);
		if (name && std::string_view(name).starts_with("SCX_"))
			names.emplace(name);
	};
	uint32_t n = btf__type_cnt(btf);
	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		if (!t)
			continue;
		if (btf_is_func(t)) {
			names.emplace(btf__name_by_offset(btf, t->name_off));
			continue;
		}
		if (btf_is_enum(t)) {
			const struct btf_enum *e = btf_enum(t);
			for (uint16_t i = 0; i < btf_vlen(t); i++)
				add_scx(e[i].name_off);
		} else if (btf_is_enum64(t)) {
			const struct btf_enum64 *e = btf_enum64(t);
			for (uint16_t i = 0; i < btf_vlen(t); i++)
				add_scx(e[i].name_off);
		}
	}
	btf__free(btf);
	return KernelSymbols(std::move(names), kernel_version_code(u.release), u.release);
}

bool KernelSymbols::has(std::string_view names) const
{
	auto w = split_words(names, ' ');
	if (w.empty())
		return true;	// a form without a kfunc
	for (const auto &n : w)
		if (!names_.contains(n))
			return false;
	return true;
}

Result<CompatForms> expected_forms(const KernelSymbols &ks, uint64_t skip_new)
{
	CompatForms forms{};

	for (const auto &s : kCompatShims) {
		bool skip = (skip_new >> s.id) & 1;
		if (!skip && new_usable(s, ks)) {
			forms[s.id] = BURST_FORM_NEW;
		} else if (ks.has(s.old_form)) {
			forms[s.id] = BURST_FORM_OLD;
		} else if (*s.legacy && ks.has(s.legacy)) {
			forms[s.id] = BURST_FORM_LEGACY;
		} else {
			std::string msg = "kernel " + ks.release() + " lacks ";
			if (skip)
				return fail(msg + names_phrase(s.old_form) + ", which "
					    "--debug-compat " + s.key + " forces (Linux " +
					    s.old_kernels + "); this kernel only has " +
					    names_phrase(s.new_form));
			msg += names_phrase(s.new_form) + " (Linux " + s.new_since +
			       " and later) and " + names_phrase(s.old_form) +
			       " (Linux " + s.old_kernels + ")";
			if (*s.legacy)
				msg += std::string(" and ") + s.legacy + " (Linux " +
				       kLegacyKernels + ")";
			return fail(msg + ": scx_burst needs sched_ext from Linux 6.12 on");
		}
	}
	return forms;
}

bool wants_cpu_release(const CompatForms &forms)
{
	return forms[BURST_COMPAT_ENQ_IMMED] == BURST_FORM_OLD &&
	       forms[BURST_COMPAT_REENQ_LOCAL] == BURST_FORM_NEW;
}

Result<uint64_t> parse_debug_compat(std::string_view spec, const KernelSymbols &ks)
{
	uint64_t skip = 0;

	if (spec.empty() || spec == "none")
		return 0;
	if (spec == "all") {
		for (const auto &s : kCompatShims)
			if (ks.has(s.old_form))
				skip |= 1ULL << s.id;
		return skip;
	}
	for (const auto &key : split_words(spec, ',')) {
		const CompatShim *found = nullptr;
		for (const auto &s : kCompatShims)
			if (key == s.key)
				found = &s;
		if (!found) {
			std::string keys;
			for (const auto &s : kCompatShims)
				keys += std::string(keys.empty() ? "" : ", ") + s.key;
			return fail("--debug-compat: unknown interface '" + key +
				    "' (one of: all, none, " + keys + ")");
		}
		skip |= 1ULL << found->id;
	}
	if (auto f = expected_forms(ks, skip); !f)
		return fail(f.error().msg);
	return skip;
}

Result<> check_required_kfuncs(const std::vector<std::string> &object_kfuncs,
			       const KernelSymbols &ks)
{
	std::set<std::string> shimmed;
	for (const auto &s : kCompatShims)
		for (const char *forms : {s.new_form, s.old_form, s.legacy})
			for (auto &n : split_words(forms, ' '))
				shimmed.insert(n);

	std::vector<std::string> missing;
	for (const auto &k : object_kfuncs)
		if (!shimmed.contains(k) && !ks.has(k))
			missing.push_back(k);
	if (missing.empty())
		return {};
	std::string list;
	for (const auto &m : missing)
		list += (list.empty() ? "" : ", ") + m;
	return fail("kernel " + ks.release() + " lacks the kfunc" +
		    (missing.size() > 1 ? "s " : " ") + list +
		    " that scx_burst calls (every sched_ext kernel from Linux 6.12 "
		    "on has them)");
}

std::string compat_report(const CompatForms &forms, uint64_t skip_new)
{
	std::ostringstream os;

	for (const auto &s : kCompatShims) {
		const char *name = "?";
		switch (forms[s.id]) {
		case BURST_FORM_NEW:
			name = s.new_form;
			break;
		case BURST_FORM_OLD:
			name = *s.old_form ? s.old_form : "fallback";
			break;
		case BURST_FORM_LEGACY:
			name = s.legacy;
			break;
		default:
			break;
		}
		// The first kfunc of a form names it.
		std::string_view first(name);
		first = first.substr(0, first.find(' '));
		os << (s.id ? " " : "") << s.key << '=' << first;
		if ((skip_new >> s.id) & 1)
			os << "(forced)";
	}
	return os.str();
}

std::string compat_markdown()
{
	std::ostringstream os;
	auto code = [](std::string_view names) {
		std::string out;
		for (const auto &w : split_words(names, ' '))
			out += (out.empty() ? "`" : ", `") + w + "`";
		return out.empty() ? std::string("(no kfunc)") : out;
	};

	os << "| interface | new form | since | fallback | serves | 6.12 name | why |\n"
	   << "|---|---|---|---|---|---|---|\n";
	for (const auto &s : kCompatShims)
		os << "| `" << s.key << "` | " << code(s.new_form) << " | " << s.new_since
		   << (s.gated ? " (gated)" : "") << " | " << code(s.old_form) << " | "
		   << s.old_kernels << " | " << (*s.legacy ? code(s.legacy) : "") << " | "
		   << s.why << " |\n";
	return os.str();
}

}  // namespace scx_burst
