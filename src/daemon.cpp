// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/daemon.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <iostream>

#include <poll.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include "scx_burst/ctl_server.hpp"
#include "scx_burst/daemon_loop.hpp"
#include "scx_burst/domain.hpp"
#include "scx_burst/exit_code.hpp"
#include "scx_burst/notify.hpp"
#include "scx_burst/scheduler.hpp"
#include "scx_burst/signal_fd.hpp"
#include "scx_burst/sysfs.hpp"
#include "scx_burst/tasks.hpp"

namespace scx_burst {
namespace {

using Clock = std::chrono::steady_clock;

// Tells systemd (Type=notify) about the service's state; a failure is
// logged and the daemon runs on.
void notify(const std::string &state)
{
	if (auto r = sd_notify_send(state); !r)
		spdlog::warn("{}", r.error().msg);
}

void report_stats(const Options &opts, const SchedulerApi &sched,
		  const StatsContext &ctx, const StatsSample &delta)
{
	std::vector<TaskRow> tasks;
	if (opts.debug_tasks) {
		for (auto &t : read_task_rows(sched.task_ctx_map_fd()))
			if (t.runs)
				tasks.push_back(std::move(t));
	}
	const auto *tp = opts.debug_tasks ? &tasks : nullptr;
	if (opts.json)
		std::cout << stats_json(ctx, delta, tp).dump() << std::endl;
	else
		print_stats_table(std::cout, ctx, delta, tp);
}

// The sysfs online list went from @before to @now: logs the CPUs online and
// those of the primary domain, and returns whether a CPU online at load
// (@at_load) came back.  A CPU new since the load makes the BPF side ask for
// a restart, which resolves the domain anew: nothing is logged then.
bool hotplug(const std::string &before, const std::string &now, const Topology &at_load,
	     const SchedulerApi &sched)
{
	auto was = parse_cpulist(before), is = parse_cpulist(now);
	if (!is) {
		spdlog::warn("CPU hotplug: {}", is.error().msg);
		return false;
	}
	const std::vector<int> &domain = sched.domain();
	std::vector<int> dom;
	bool back = false;
	for (int c : *is) {
		if (!std::binary_search(at_load.online.begin(), at_load.online.end(), c))
			return false;
		if (was && std::find(was->begin(), was->end(), c) == was->end())
			back = true;
		if (std::find(domain.begin(), domain.end(), c) != domain.end())
			dom.push_back(c);
	}
	spdlog::info("CPU hotplug: CPUs {} online ({} of {} at load){}", format_cpulist(*is),
		     is->size(), at_load.online.size(),
		     domain.empty() ? std::string() :
		     ", primary domain " + (dom.empty() ? std::string("none online") :
							  format_cpulist(dom)));
	return back;
}

// Runs one loaded and attached scheduler until a signal or its ejection.
Outcome watch(const Options &opts, SchedulerApi &sched, const Topology &topo,
	      const SignalFd &sig, CtlServer &ctl, uint64_t &switches,
	      std::string &domain_spec)
{
	auto start = Clock::now();
	SchedulerBackend backend(sched, topo, [] { return read_topology(); }, start,
				 switches, domain_spec, domain_paths(opts));
	backend.set_saver([&opts](const burst_tunables &t, const std::string &spec)
				  -> Result<std::string> {
		if (auto r = save_config(opts.config_file, config_settings(t, spec)); !r)
			return std::unexpected(r.error());
		return opts.config_file;
	});
	// Attached: a Type=notify service is up now (again, after a restart).
	notify("READY=1\nSTATUS=scheduler enabled, policy " +
	       std::string(policy_name(sched.tunables().policy)));
	std::vector<pollfd> fds;
	auto interval = std::chrono::duration<double>(opts.stats_interval_s);
	auto next = start + std::chrono::duration_cast<Clock::duration>(interval);
	StatsSample prev = sched.read_stats(true);
	auto prev_at = start;
	auto next_profile = start + SchedulerBackend::kProfilePeriod;
	// Read at every wakeup: the kernel's hotplug_seq counts a CPU going
	// offline before the CPU leaves this list.
	const auto online_file = SysfsPaths{}.cpu / "online";
	std::string online = read_line(online_file);

	for (;;) {
		fds.assign(1, pollfd{sig.fd(), POLLIN, 0});
		ctl.add_pollfds(fds);
		int timeout_ms = 100;
		if (opts.stats_interval_s > 0) {
			auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
				next - Clock::now()).count();
			timeout_ms = std::clamp<long>(left, 0, 100);
		}
		if (poll(fds.data(), fds.size(), timeout_ms) < 0)
			for (auto &p : fds)
				p.revents = 0;
		if (fds[0].revents) {
			int signo = sig.take();
			if (signo == SIGHUP) {
				spdlog::info("received {}, reading {} again",
					     strsignal(signo), opts.config_file);
				notify(sd_notify_reloading());
				reload_options(backend, opts, domain_spec);
				notify("READY=1");
			} else if (signo) {
				spdlog::info("received {}, unregistering the scheduler",
					     strsignal(signo));
				notify("STOPPING=1");
				return Outcome::UserStop;
			}
		}
		// Also after a timeout: that is when idle control clients expire.
		ctl.serve(fds, backend);
		if (sched.exited())
			return Outcome::KernelExit;
		if (std::string now = read_line(online_file); !now.empty() && now != online) {
			bool back = hotplug(online, now, topo, sched);
			online = now;
			if (back)
				backend.cpus_came_back();
		}
		if (Clock::now() >= next_profile) {
			backend.follow_power_profile();
			next_profile = Clock::now() + SchedulerBackend::kProfilePeriod;
		}
		if (opts.stats_interval_s > 0 && Clock::now() >= next) {
			auto now = Clock::now();
			StatsSample cur = sched.read_stats(true);
			StatsContext ctx = stats_context(
				sched, switches, std::chrono::duration<double>(now - start).count(),
				std::chrono::duration<double>(now - prev_at).count());
			report_stats(opts, sched, ctx, stats_delta(cur, prev));
			prev = std::move(cur);
			prev_at = now;
			while (next <= now)
				next += std::chrono::duration_cast<Clock::duration>(interval);
		}
	}
}

}  // namespace

int run_daemon(const Options &opts)
{
	const SysfsPaths scx_root{.sched_ext = opts.sched_ext_root};

	// What needs no file first; whatever refuses the start later, the
	// control server takes its socket, lock file and directories along.
	if (auto r = check_sched_ext_present(scx_root); !r)
		return fail_with(r.error().msg);
	if (auto r = check_root(); !r)
		return fail_with(r.error().msg);
	// The control socket's lock before the scheduler check: a second
	// daemon is refused with that reason, not with "another scheduler is
	// active".
	auto ctl = CtlServer::listen(opts.ctl_socket);
	if (!ctl)
		return fail_with(ctl.error().msg);
	if (auto r = check_sched_ext(scx_root); !r)
		return fail_with(r.error().msg);

	auto kernel = KernelSymbols::running();
	if (!kernel)
		return fail_with(kernel.error().msg);
	auto skip_new = parse_debug_compat(opts.debug_compat, *kernel);
	if (!skip_new)
		return fail_with(skip_new.error().msg);

	// SIGINT/SIGTERM stop, SIGHUP re-reads the config file.
	SignalFd sig{SIGINT, SIGTERM, SIGHUP};
	if (sig.fd() < 0)
		return fail_with(std::string("signalfd: ") + strerror(errno));

	LoadConfig cfg;
	cfg.tunables = opts.tunables;
	cfg.exit_dump_len = opts.exit_dump_len;
	cfg.debug_error_after_ns = (uint64_t)(opts.debug_error_after_s * 1e9);
	cfg.kernel = &*kernel;
	cfg.compat_skip_new = *skip_new;
	cfg.verifier_stats = opts.verbose >= 1;
	// The system as the restart loop sees it.
	class Env : public DaemonEnv {
	public:
		Env(const Options &opts, const SysfsPaths &scx_root,
		    const SignalFd &sig, CtlServer &ctl)
			: opts_(opts), scx_root_(scx_root), sig_(sig), ctl_(ctl) {}

		uint64_t hotplug_seq() override { return sched_ext_hotplug_seq(scx_root_); }
		Result<Topology> topology() override { return read_topology(); }
		Result<std::unique_ptr<SchedulerApi>> load(const Topology &topo,
							   const LoadConfig &cfg) override
		{
			auto s = Scheduler::load(topo, cfg);
			if (!s)
				return std::unexpected(s.error());
			return std::make_unique<Scheduler>(std::move(*s));
		}
		std::string ops_name() override { return sched_ext_ops(scx_root_); }
		Outcome watch(SchedulerApi &sched, const Topology &topo,
			      std::string &domain_spec) override
		{
			return scx_burst::watch(opts_, sched, topo, sig_, ctl_, switches_,
						domain_spec);
		}

	private:
		const Options &opts_;
		const SysfsPaths &scx_root_;
		const SignalFd &sig_;
		CtlServer &ctl_;
		uint64_t switches_ = 0;
	} env(opts, scx_root, sig, *ctl);

	// The domain asked for (option, then `ctl set`) is applied again at
	// every reload to the CPUs online then.
	return run_scheduler(env, cfg, opts.primary_domain, opts.ctl_socket, domain_paths(opts));
}

}  // namespace scx_burst
