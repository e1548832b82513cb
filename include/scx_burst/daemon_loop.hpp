// SPDX-License-Identifier: GPL-2.0
// The daemon's restart loop and the control socket's view of a running
// scheduler, written against SchedulerApi and DaemonEnv so that unit tests
// drive them with fakes (tests/unit/daemon_loop_test.cpp).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "ctl.hpp"
#include "options.hpp"
#include "power_profile.hpp"
#include "scheduler.hpp"
#include "sysfs.hpp"
#include "topology.hpp"

namespace scx_burst {

// How one attached scheduler's run ended.
enum class Outcome { UserStop, KernelExit };

// What the restart loop needs from the system (the daemon's is real).
class DaemonEnv {
public:
	virtual ~DaemonEnv() = default;
	// sched_ext's hotplug_seq, read before the topology.
	virtual uint64_t hotplug_seq() = 0;
	virtual Result<Topology> topology() = 0;
	virtual Result<std::unique_ptr<SchedulerApi>> load(const Topology &topo,
							   const LoadConfig &cfg) = 0;
	// The name the kernel shows for the enabled scheduler.
	virtual std::string ops_name() = 0;
	// Runs an attached scheduler until a signal or its ejection;
	// @domain_spec follows `ctl set primary_domain`.
	virtual Outcome watch(SchedulerApi &sched, const Topology &topo,
			      std::string &domain_spec) = 0;
};

// Loads, attaches and watches the scheduler; loads it again when the
// kernel asks for a restart (CPU hotplug), with the settings changed at
// runtime and the primary domain asked for.  Returns the exit status: 0
// when the user stopped a healthy scheduler, 1 on any failure or ejection.
// @sys: where keywords of the domain are resolved (capacities, power
// profile).
int run_scheduler(DaemonEnv &env, LoadConfig cfg, std::string domain_spec,
		  const std::string &ctl_socket, const SysfsPaths &sys = {});

// SIGHUP: the options the command line of @running gives now (the config
// file read again, the command line over it) applied to the running
// scheduler as `ctl set` applies them, without reloading BPF; @domain_spec
// then follows the file's primary-domain.  Options only a start applies
// (--stats, --ctl-socket ...) are named in a warning.  A file that does
// not parse or a value `set` refuses changes nothing and returns false.
bool reload_options(CtlBackend &backend, const Options &running, std::string &domain_spec);

// The control socket's view of the running scheduler.
class SchedulerBackend : public CtlBackend {
public:
	using Clock = std::chrono::steady_clock;
	using TopologyReader = std::function<Result<Topology>()>;
	// Writes the tunables and the domain spec to the config file,
	// returns its path (`ctl save`).
	using Saver = std::function<Result<std::string>(const burst_tunables &,
							const std::string &domain_spec)>;

	// @read_topology: the CPUs online now (a request may come during a
	// hotplug); @topo is used when that fails.  @switches counts policy
	// switches, @domain_spec is what the user asked for; @sys is where
	// keywords are resolved.
	SchedulerBackend(SchedulerApi &sched, const Topology &topo,
			 TopologyReader read_topology, Clock::time_point start,
			 uint64_t &switches, std::string &domain_spec, SysfsPaths sys = {});

	burst_tunables get() override;
	void set(const burst_tunables &t) override;
	nlohmann::json stats() override;
	std::string domain() override;
	Result<std::vector<int>> check_domain(const std::string &spec) override;
	// Keeps @spec when it is `auto`, else the CPUs as a mask.
	Result<> set_domain(const std::vector<int> &cpus, const std::string &spec) override;
	Result<std::string> save() override;
	void set_saver(Saver saver) { saver_ = std::move(saver); }

	// `--primary-domain auto` while running: reads the power profile
	// again and, when it maps to another keyword than at the last call
	// and that to other CPUs, moves the domain as `ctl set` does and
	// logs one line.  Does nothing while the spec is not `auto`: a
	// domain set explicitly wins until `ctl set primary_domain=auto`
	// (or SIGHUP with auto in the file).  Returns whether it moved the
	// domain.  The daemon calls it every kProfilePeriod.
	bool follow_power_profile();
	static constexpr std::chrono::seconds kProfilePeriod{1};

	// A CPU that was online at load came back online: a keyword domain
	// (`auto` included) is resolved again with the CPUs online now, so
	// a CPU that was offline when the keyword was last resolved (a
	// profile change, `ctl set`) joins now instead of at the next
	// change.  CPUs named as a mask or list stay as named.  Returns
	// whether it moved the domain; the daemon calls it on every such
	// hotplug.
	bool cpus_came_back();

private:
	Result<> move_domain(const std::vector<int> &cpus);
	// Resolves the keyword @kw against the topology @cpus and moves the
	// domain there when that names other CPUs.  A failure is logged as
	// "@cause: why; the primary domain stays ..." and returned.
	struct Moved {
		bool moved = false;
		std::string before;	// the domain before, formatted
		std::string why;	// how the keyword resolved, when moved
	};
	Result<Moved> move_to_keyword(const std::string &kw, const Topology &cpus,
				      std::string_view cause);

	SchedulerApi &sched_;
	const Topology &topo_;
	TopologyReader read_topology_;
	Clock::time_point start_;
	uint64_t &switches_;
	std::string &domain_spec_;
	PowerProfileReader profile_;	// its sysfs paths; under auto, asked once a second
	std::string profile_domain_;	// keyword of the last profile read
	Saver saver_;
};

}  // namespace scx_burst
