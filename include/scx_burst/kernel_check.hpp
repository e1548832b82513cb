// SPDX-License-Identifier: GPL-2.0
// What the running kernel offers the BPF scheduler, checked before loading:
// a kernel that lacks a kfunc is named in one line instead of a verifier
// log.  The interfaces that changed form between kernels are the
// entries of compat_table.h; the BPF side picks the same forms.
#pragma once

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "error.hpp"
#include "intf.h"

namespace scx_burst {

// One entry of compat_table.h.
struct CompatShim {
	int id;
	const char *key;
	const char *new_form;
	const char *new_since;
	bool gated;		// new form only from new_since on
	const char *old_form;	// "" : no kfunc needed
	const char *old_kernels;
	const char *legacy;	// the 6.12 name, or ""
	const char *why;
};

extern const std::array<CompatShim, BURST_NR_COMPAT> kCompatShims;

// The kfuncs (BTF functions) and sched_ext enum values (SCX_*) of a
// kernel, and its version.
class KernelSymbols {
public:
	// The running kernel: /sys/kernel/btf/vmlinux and uname.
	static Result<KernelSymbols> running();
	// For tests: @version as from kernel_version_code().
	KernelSymbols(std::set<std::string> names, uint32_t version,
		      std::string release);

	// @names: one kfunc or SCX_ enum value, or several separated by
	// spaces (all needed).
	bool has(std::string_view names) const;
	uint32_t version() const { return version_; }
	const std::string &release() const { return release_; }

private:
	std::set<std::string, std::less<>> names_;
	uint32_t version_;
	std::string release_;
};

// KERNEL_VERSION(a, b, c) of a release string such as "7.2.13+deb14-amd64"
// or a table version "6.19"; 0 if it does not start with a number.
uint32_t kernel_version_code(std::string_view release);

using CompatForms = std::array<uint8_t, BURST_NR_COMPAT>;

// The form each shim takes on @ks with the new forms of @skip_new
// (bits of BURST_COMPAT_*) skipped: what the BPF side's
// compat_form_*() decide.  Fails naming the kfuncs a shim lacks.
Result<CompatForms> expected_forms(const KernelSymbols &ks, uint64_t skip_new);

// Whether the scheduler needs ops.cpu_release with these forms: to hand
// back the tasks a higher class preempts, where the kernel lacks
// SCX_ENQ_IMMED and has the deferred re-enqueue (6.19-7.0).  The BPF
// side's burst_reenq_on_release() is the same rule; elsewhere the daemon
// leaves the callback out (7.1 on warns that it is deprecated).
bool wants_cpu_release(const CompatForms &forms);

// Parses --debug-compat: "" (none), "all" (every shim whose fallback
// this kernel has), or a comma-separated list of shim keys.  A named
// shim whose fallback the kernel lacks is an error.
Result<uint64_t> parse_debug_compat(std::string_view spec, const KernelSymbols &ks);

// @object_kfuncs: the kfuncs the BPF object calls (flavour suffixes
// stripped).  Those outside the shims must all exist.
Result<> check_required_kfuncs(const std::vector<std::string> &object_kfuncs,
			       const KernelSymbols &ks);

// "dsq-insert=scx_bpf_dsq_insert___v2 dsq-peek=bpf_iter_scx_dsq_new (forced) ..."
std::string compat_report(const CompatForms &forms, uint64_t skip_new);

// The table of docs/kernels.md: one row per shim.
std::string compat_markdown();

// The kfunc name libbpf binds for an extern: without a ___flavour suffix.
std::string strip_flavour(std::string_view name);

}  // namespace scx_burst
