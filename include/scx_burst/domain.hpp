// SPDX-License-Identifier: GPL-2.0
// The primary domain: which CPUs take work first (scx_bpfland's idea).
// Accepts hex masks of any width, taskset-style CPU lists and keywords.
#pragma once

#include <string>
#include <vector>

#include "error.hpp"
#include "sysfs.hpp"
#include "topology.hpp"

namespace scx_burst {

// "0x00fff", "ff000", "FF,ffffffff" (commas between 32-bit groups as in
// /proc masks); bit N is CPU N.  Case-insensitive, surrounding space ok.
Result<std::vector<int>> parse_hex_mask(const std::string &text);

// "0x3" -> {0,1}, "0-5,12" -> {0..5,12}.  A value with "0x", or hex
// letters, or only digits, is a mask (as taskset without -c takes it); one
// with '-' or ',' between decimal numbers is a CPU list.  Keywords are not
// handled here (see resolve_domain).
Result<std::vector<int>> parse_cpus(const std::string &text);

std::string format_cpulist(const std::vector<int> &cpus);
std::string format_hex_mask(const std::vector<int> &cpus);
// A primary domain as shown to users: "all" for none, else a CPU list.
std::string format_domain(const std::vector<int> &cpus);

struct Domain {
	std::vector<int> cpus;	// empty: no domain (all CPUs)
	std::string why;	// how a keyword was resolved, for the log
};

// The keyword @spec names, as resolve_domain() reads it ("all",
// "performance", "powersave" or "auto"; case and space do not matter), or
// "" if it is a mask or a list.  A keyword depends on the CPUs and the
// power profile of the moment, so it is kept as the keyword for a restart
// or a saved config, never as the CPUs it resolved to.
std::string domain_keyword(const std::string &spec);

// Resolves @spec ("all", "performance", "powersave", "auto", a mask or a
// list) and checks the CPUs exist and are online.  With @online_part (a
// domain asked for earlier, applied again after CPU hotplug), offline CPUs
// are left out instead, and a domain with none online is no domain until
// they return; Domain::why says so.
Result<Domain> resolve_domain(const std::string &spec, const Topology &topo,
			      const SysfsPaths &paths = {}, bool online_part = false);

}  // namespace scx_burst
