// SPDX-License-Identifier: GPL-2.0
// A CtlBackend without a scheduler, for the unit tests and the fuzz
// targets: settings in memory, domains checked against a 4-CPU machine.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scx_burst/ctl.hpp"
#include "scx_burst/domain.hpp"
#include "scx_burst/tunables.hpp"

namespace scx_burst::test {

class FakeBackend : public CtlBackend {
public:
	FakeBackend() { t = default_tunables(); }
	burst_tunables get() override { return t; }
	void set(const burst_tunables &n) override
	{
		t = n;
		sets++;
	}
	nlohmann::json stats() override
	{
		return {{"policy", policy_name(t.policy)}, {"cpus", nlohmann::json::array()}};
	}
	std::string domain() override { return format_domain(dom); }
	Result<std::vector<int>> check_domain(const std::string &spec) override
	{
		Topology topo;
		topo.nr_cpu_ids = 4;
		topo.online = {0, 1, 2, 3};
		auto d = resolve_domain(spec, topo, SysfsPaths::under("/nonexistent"));
		if (!d)
			return std::unexpected(d.error());
		return d->cpus;
	}
	Result<> set_domain(const std::vector<int> &cpus, const std::string &s) override
	{
		dom = cpus;
		dom_spec = s;
		sets++;
		return {};
	}

	burst_tunables t;
	std::vector<int> dom;
	std::string dom_spec;	// as the last set asked
	int sets = 0;
};

}  // namespace scx_burst::test
