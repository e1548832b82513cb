// SPDX-License-Identifier: GPL-2.0
// CPU topology from sysfs: which CPUs exist, their LLCs and SMT siblings.
#pragma once

#include <string>
#include <vector>

#include "error.hpp"
#include "sysfs.hpp"

namespace scx_burst {

// Parses a CPU list in the kernel's/taskset's syntax ("0-3,8,10-11").
Result<std::vector<int>> parse_cpulist(const std::string &text);

struct Topology {
	int nr_cpu_ids = 0;		// highest possible CPU + 1
	std::vector<int> online;	// online CPUs, ascending
	std::vector<int> llc_of;	// CPU -> LLC index (0 for offline)
	std::vector<int> sibling;	// CPU -> an SMT sibling, or -1
	int nr_llcs = 1;
	bool smt = false;
};

// Reads @sys.cpu.  Missing cache or topology files are not errors: those
// CPUs then share one LLC and have no SMT sibling.
Result<Topology> read_topology(const SysfsPaths &sys = {});

}  // namespace scx_burst
