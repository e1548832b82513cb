// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/daemon_loop.hpp"

#include <iostream>

#include <spdlog/spdlog.h>

#include "scx_burst/domain.hpp"
#include "scx_burst/exit_code.hpp"
#include "scx_burst/power_profile.hpp"
#include "scx_burst/tunables.hpp"

namespace scx_burst {
namespace {

// Which form of each changed kernel interface the BPF side runs; a
// choice other than the load check's is a bug in one of them.
void log_compat(const SchedulerApi &sched, uint64_t skip_new)
{
	CompatForms got = sched.compat_forms();
	spdlog::info("kernel interfaces: {}", compat_report(got, skip_new));
	if (got != sched.expected_compat_forms())
		spdlog::warn("kernel interfaces: the load check expected {}",
			     compat_report(sched.expected_compat_forms(), skip_new));
}

void log_exit(const ExitInfo &ei, bool error)
{
	std::string what = ei.reason.empty() ? "(no reason given)" : ei.reason;
	if (!ei.msg.empty() && ei.msg != ei.reason)
		what += ": " + ei.msg;
	if (error)
		spdlog::error("the kernel disabled scx_burst: {} ({}: exit kind {}, code {:#x})",
			      what, ei.kind_name(), ei.kind, ei.exit_code);
	else
		spdlog::info("scheduler disabled, kernel says: {} ({}: exit kind {})",
			     what, ei.kind_name(), ei.kind);
	if (error && !ei.dump.empty())
		std::cerr << "scx_burst: kernel debug dump:\n" << ei.dump << std::endl;
}

}  // namespace

int run_scheduler(DaemonEnv &env, LoadConfig cfg, std::string domain_spec,
		  const std::string &ctl_socket, const SysfsPaths &sys)
{
	for (bool first = true;; first = false) {
		// hotplug_seq before the topology: a CPU that comes or goes
		// after this makes the kernel refuse the scheduler with a
		// restart request instead of running it on a stale topology.
		cfg.hotplug_seq = env.hotplug_seq();
		auto topo = env.topology();
		if (!topo)
			return fail_with(topo.error().msg);
		// What the user asked for, applied to the CPUs online now.
		auto dom = resolve_domain(domain_spec, *topo, sys, !first);
		if (!dom)
			return fail_with(dom.error().msg);
		auto sched = env.load(*topo, cfg);
		if (!sched)
			return fail_with(sched.error().msg);
		SchedulerApi &s = **sched;
		if (auto r = s.set_domain(dom->cpus); !r)
			return fail_with(r.error().msg);
		if (!dom->why.empty() && domain_spec != "all")
			spdlog::info("primary domain {}: {}", domain_spec, dom->why);
		if (auto r = s.attach(); !r) {
			if (s.exited() && s.exit_info().should_restart()) {
				log_exit(s.exit_info(), false);
				spdlog::info("the kernel asked for a restart: loading again");
				continue;
			}
			return fail_with(r.error().msg);
		}
		spdlog::info("scheduler enabled: ops={} policy={} cpus={} llcs={} smt={} "
			     "primary={} ctl={}",
			     env.ops_name(), policy_name(cfg.tunables.policy),
			     topo->online.size(), topo->nr_llcs, topo->smt ? "on" : "off",
			     format_domain(dom->cpus) +
				     (dom->cpus.empty() ? "" : " (" + format_hex_mask(dom->cpus) + ")"),
			     ctl_socket);
		log_compat(s, cfg.compat_skip_new);

		Outcome out = env.watch(s, *topo, domain_spec);
		// Keep the settings changed at runtime across a restart.
		cfg.tunables = s.tunables();
		s.detach();
		ExitInfo ei = s.exit_info();

		if (out == Outcome::UserStop) {
			log_exit(ei, ei.is_error());
			return ei.is_error() ? kExitFailure : kExitOk;
		}
		if (ei.should_restart()) {
			log_exit(ei, false);
			spdlog::info("the kernel asked for a restart: loading again");
			continue;
		}
		log_exit(ei, true);
		return kExitFailure;
	}
}

SchedulerBackend::SchedulerBackend(SchedulerApi &sched, const Topology &topo,
				   TopologyReader read_topology, Clock::time_point start,
				   uint64_t &switches, std::string &domain_spec, SysfsPaths sys)
	: sched_(sched), topo_(topo), read_topology_(std::move(read_topology)),
	  start_(start), switches_(switches), domain_spec_(domain_spec),
	  profile_(std::move(sys))
{
}

std::string SchedulerBackend::domain()
{
	return format_domain(sched_.domain());
}

Result<std::vector<int>> SchedulerBackend::check_domain(const std::string &spec)
{
	// The CPUs online now, not at load: a hotplug may be under way.
	auto now = read_topology_();
	auto d = resolve_domain(spec, now ? *now : topo_, profile_.paths());
	if (!d)
		return std::unexpected(d.error());
	return d->cpus;
}

Result<> SchedulerBackend::move_domain(const std::vector<int> &cpus)
{
	return sched_.set_domain(cpus);
}

Result<> SchedulerBackend::set_domain(const std::vector<int> &cpus, const std::string &spec)
{
	auto r = move_domain(cpus);
	if (!r)
		return r;
	bool follow = follows_power_profile(spec);
	// Kept for a restart (a CPU that was offline at load came back) and
	// for `ctl save`: a keyword as the keyword, resolved again then with
	// the CPUs of that moment; CPUs as a mask, since a one-CPU list such
	// as "2" would read back as the mask 0x2.
	std::string kw = domain_keyword(spec);
	domain_spec_ = !kw.empty() ? kw : cpus.empty() ? "all" : format_hex_mask(cpus);
	// Following starts afresh: the next profile read compares CPUs.
	profile_domain_.clear();
	spdlog::info("primary domain: {}{}", domain(),
		     follow ? " (auto: follows the power profile)" : "");
	return r;
}

Result<SchedulerBackend::Moved> SchedulerBackend::move_to_keyword(const std::string &kw,
								 const Topology &cpus,
								 std::string_view cause)
{
	auto d = resolve_domain(kw, cpus, profile_.paths());
	Moved m{.before = domain()};
	if (d && format_domain(d->cpus) != m.before) {
		if (auto r = move_domain(d->cpus); !r)
			d = std::unexpected(r.error());
		else
			m = {.moved = true, .before = m.before, .why = d->why};
	}
	if (!d) {
		spdlog::warn("{}: {}; the primary domain stays {}", cause, d.error().msg, m.before);
		return std::unexpected(d.error());
	}
	return m;
}

bool SchedulerBackend::follow_power_profile()
{
	if (!follows_power_profile(domain_spec_)) {
		profile_domain_.clear();
		return false;
	}
	auto prof = profile_.read();
	std::string kw = prof ? profile_domain(prof->name) : "all";
	if (kw == profile_domain_)
		return false;
	auto now = read_topology_();
	auto m = move_to_keyword(kw, now ? *now : topo_, "power profile");
	// A failure is tried again at the next call.
	profile_domain_ = m ? kw : "";
	if (!m || !m->moved)
		return false;
	spdlog::info("power profile '{}' ({}): primary domain {} -> {} ({})",
		     prof ? prof->name : "none", prof ? prof->source : "no source", m->before,
		     domain(), m->why);
	return true;
}

bool SchedulerBackend::cpus_came_back()
{
	if (follows_power_profile(domain_spec_)) {
		// The same profile resolved against the CPUs online now.
		profile_domain_.clear();
		return follow_power_profile();
	}
	std::string kw = domain_keyword(domain_spec_);
	if (kw.empty())
		return false;
	auto now = read_topology_();
	if (!now) {
		spdlog::warn("CPU hotplug: {}; the primary domain stays {}", now.error().msg,
			     domain());
		return false;
	}
	auto m = move_to_keyword(kw, *now, "CPU hotplug");
	if (!m || !m->moved)
		return false;
	spdlog::info("CPU hotplug: primary domain {} -> {} ({})", m->before, domain(), m->why);
	return true;
}

bool reload_options(CtlBackend &backend, const Options &running, std::string &domain_spec)
{
	auto next = parse_options(running.args);
	if (!next) {
		spdlog::error("reload: {}; the running settings stay", next.error().msg);
		return false;
	}
	nlohmann::json args = tunables_json(next->tunables);
	args["primary_domain"] = next->primary_domain;
	nlohmann::json reply = ctl_set(backend, args);
	if (reply.value("errno", 0) != 0) {
		const auto &msg = reply["args"]["resp"];
		spdlog::error("reload: {}; the running settings stay",
			      msg.is_string() ? msg.get<std::string>() : msg.dump());
		return false;
	}
	domain_spec = next->primary_domain;

	const std::pair<const char *, bool> at_start[] = {
		{"stats", next->stats_interval_s != running.stats_interval_s},
		{"json", next->json != running.json},
		{"debug-tasks", next->debug_tasks != running.debug_tasks},
		{"exit-dump-len", next->exit_dump_len != running.exit_dump_len},
		{"verbose", next->verbose != running.verbose},
		{"ctl-socket", next->ctl_socket != running.ctl_socket},
		{"debug-error-after", next->debug_error_after_s != running.debug_error_after_s},
		{"debug-compat", next->debug_compat != running.debug_compat},
		{"debug-sched-ext-root", next->sched_ext_root != running.sched_ext_root},
		{"debug-sysfs-root", next->sysfs_root != running.sysfs_root},
	};
	for (const auto &[name, changed] : at_start)
		if (changed)
			spdlog::warn("reload: {} changed; it takes effect at the next start", name);
	spdlog::info("reloaded {}", next->config_file);
	return true;
}

Result<std::string> SchedulerBackend::save()
{
	if (!saver_)
		return fail("this daemon has no config file to save to");
	auto r = saver_(sched_.tunables(), domain_spec_);
	if (r)
		spdlog::info("settings saved to {}", *r);
	return r;
}

burst_tunables SchedulerBackend::get()
{
	return sched_.tunables();
}

void SchedulerBackend::set(const burst_tunables &t)
{
	burst_tunables old = sched_.tunables();
	sched_.set_tunables(t);
	if (old.policy != t.policy) {
		switches_++;
		spdlog::info("policy switched: {} -> {}", policy_name(old.policy),
			     policy_name(t.policy));
	}
	spdlog::info("settings: {}", tunables_json(t).dump());
}

nlohmann::json SchedulerBackend::stats()
{
	double elapsed_s = std::chrono::duration<double>(Clock::now() - start_).count();
	return stats_json(stats_context(sched_, switches_, elapsed_s, elapsed_s),
			  sched_.read_stats(false));
}

}  // namespace scx_burst
