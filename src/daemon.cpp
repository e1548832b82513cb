// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/daemon.hpp"

#include <chrono>
#include <csignal>
#include <iostream>

#include <poll.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include "scx_burst/ctl_server.hpp"
#include "scx_burst/domain.hpp"
#include "scx_burst/scheduler.hpp"
#include "scx_burst/sysfs.hpp"
#include "scx_burst/tasks.hpp"

namespace scx_burst {
namespace {

using Clock = std::chrono::steady_clock;

// SIGINT/SIGTERM as a file descriptor, blocked for the whole process.
class SignalFd {
public:
	SignalFd()
	{
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, SIGINT);
		sigaddset(&set, SIGTERM);
		sigprocmask(SIG_BLOCK, &set, nullptr);
		fd_ = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	}
	~SignalFd()
	{
		if (fd_ >= 0)
			close(fd_);
	}
	SignalFd(const SignalFd &) = delete;
	SignalFd &operator=(const SignalFd &) = delete;

	int fd() const { return fd_; }

	// The signal received, 0 if none.
	int take() const
	{
		signalfd_siginfo si;
		if (read(fd_, &si, sizeof(si)) == (ssize_t)sizeof(si))
			return si.ssi_signo;
		return 0;
	}

private:
	int fd_ = -1;
};

void report_stats(const Options &opts, const Scheduler &sched,
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

// The control socket's view of the running scheduler.
class Backend : public CtlBackend {
public:
	Backend(Scheduler &sched, const Topology &topo, Clock::time_point start,
		uint64_t &switches, std::string &domain_spec)
		: sched_(sched), topo_(topo), start_(start), switches_(switches),
		  domain_spec_(domain_spec) {}

	std::string domain() override
	{
		return sched_.domain().empty() ? "all" : format_cpulist(sched_.domain());
	}

	Result<std::vector<int>> check_domain(const std::string &spec) override
	{
		// The CPUs online now, not at load: a hotplug may be under way.
		auto now = read_topology();
		auto d = resolve_domain(spec, now ? *now : topo_);
		if (!d)
			return std::unexpected(d.error());
		return d->cpus;
	}

	Result<> set_domain(const std::vector<int> &cpus) override
	{
		auto r = sched_.set_domain(cpus);
		if (r) {
			domain_spec_ = domain();
			spdlog::info("primary domain: {}", domain_spec_);
		}
		return r;
	}

	burst_tunables get() override { return sched_.tunables(); }

	void set(const burst_tunables &t) override
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

	nlohmann::json stats() override
	{
		StatsContext ctx;
		ctx.elapsed_s = std::chrono::duration<double>(Clock::now() - start_).count();
		ctx.interval_s = ctx.elapsed_s;
		ctx.policy = policy_name(sched_.tunables().policy);
		ctx.overflow = sched_.overflowing();
		ctx.policy_switches = switches_;
		return stats_json(ctx, sched_.read_stats());
	}

private:
	Scheduler &sched_;
	const Topology &topo_;
	Clock::time_point start_;
	uint64_t &switches_;
	std::string &domain_spec_;	// what the user asked for, kept across reloads
};

enum class Outcome { UserStop, KernelExit };

// Runs one loaded and attached scheduler until a signal or its ejection.
Outcome watch(const Options &opts, Scheduler &sched, const Topology &topo,
	      const SignalFd &sig, CtlServer &ctl, uint64_t &switches,
	      std::string &domain_spec)
{
	auto start = Clock::now();
	Backend backend(sched, topo, start, switches, domain_spec);
	std::vector<pollfd> fds;
	auto interval = std::chrono::duration<double>(opts.stats_interval_s);
	auto next = start + std::chrono::duration_cast<Clock::duration>(interval);
	StatsSample prev = sched.read_stats(true);
	auto prev_at = start;

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
			if (signo) {
				spdlog::info("received {}, unregistering the scheduler",
					     strsignal(signo));
				return Outcome::UserStop;
			}
		}
		// Also after a timeout: that is when idle control clients expire.
		ctl.serve(fds, backend);
		if (sched.exited())
			return Outcome::KernelExit;
		if (opts.stats_interval_s > 0 && Clock::now() >= next) {
			auto now = Clock::now();
			StatsSample cur = sched.read_stats(true);
			StatsContext ctx;
			ctx.elapsed_s = std::chrono::duration<double>(now - start).count();
			ctx.interval_s = std::chrono::duration<double>(now - prev_at).count();
			ctx.policy = policy_name(sched.tunables().policy);
			ctx.overflow = sched.overflowing();
			ctx.policy_switches = switches;
			report_stats(opts, sched, ctx, stats_delta(cur, prev));
			prev = std::move(cur);
			prev_at = now;
			while (next <= now)
				next += std::chrono::duration_cast<Clock::duration>(interval);
		}
	}
}

void log_exit(const ExitInfo &ei, bool error)
{
	std::string what = ei.reason.empty() ? "(no reason given)" : ei.reason;
	if (!ei.msg.empty() && ei.msg != ei.reason)
		what += ": " + ei.msg;
	if (error)
		spdlog::error("the kernel disabled scx_burst: {} (exit kind {}, code {:#x})",
			      what, ei.kind, ei.exit_code);
	else
		spdlog::info("scheduler disabled, kernel says: {} (exit kind {})",
			     what, ei.kind);
	if (error && !ei.dump.empty())
		std::cerr << "scx_burst: kernel debug dump:\n" << ei.dump << std::endl;
}

}  // namespace

int run_daemon(const Options &opts)
{
	if (auto r = check_root(); !r) {
		spdlog::error("{}", r.error().msg);
		return 1;
	}
	// The control socket's lock first: a second daemon is refused with
	// that reason, not with "another scheduler is active".
	auto ctl = CtlServer::listen(opts.ctl_socket);
	if (!ctl) {
		spdlog::error("{}", ctl.error().msg);
		return 1;
	}
	if (auto r = check_sched_ext(); !r) {
		spdlog::error("{}", r.error().msg);
		return 1;
	}

	SignalFd sig;
	uint64_t switches = 0;
	if (sig.fd() < 0) {
		spdlog::error("signalfd: {}", strerror(errno));
		return 1;
	}

	LoadConfig cfg;
	cfg.tunables = opts.tunables;
	cfg.exit_dump_len = opts.exit_dump_len;
	cfg.debug_error_after_ns = (uint64_t)(opts.debug_error_after_s * 1e9);
	// What the user asked for (option, then `ctl set`), applied again at
	// every reload to the CPUs online then.
	std::string domain_spec = opts.primary_domain;

	for (bool first = true;; first = false) {
		// hotplug_seq before the topology: a CPU that comes or goes
		// after this makes the kernel refuse the scheduler with a
		// restart request instead of running it on a stale topology.
		cfg.hotplug_seq = sched_ext_hotplug_seq();
		auto topo = read_topology();
		if (!topo) {
			spdlog::error("{}", topo.error().msg);
			return 1;
		}
		auto dom = resolve_domain(domain_spec, *topo, {}, !first);
		if (!dom) {
			spdlog::error("{}", dom.error().msg);
			return 1;
		}
		auto sched = Scheduler::load(*topo, cfg);
		if (!sched) {
			spdlog::error("{}", sched.error().msg);
			return 1;
		}
		if (auto r = sched->set_domain(dom->cpus); !r) {
			spdlog::error("{}", r.error().msg);
			return 1;
		}
		if (!dom->why.empty() && domain_spec != "all")
			spdlog::info("primary domain {}: {}", domain_spec, dom->why);
		if (auto r = sched->attach(); !r) {
			if (sched->exited() && sched->exit_info().should_restart()) {
				log_exit(sched->exit_info(), false);
				spdlog::info("the kernel asked for a restart: loading again");
				continue;
			}
			spdlog::error("{}", r.error().msg);
			return 1;
		}
		spdlog::info("scheduler enabled: ops={} policy={} cpus={} llcs={} smt={} "
			     "primary={} ctl={}",
			     sched_ext_ops(), policy_name(cfg.tunables.policy),
			     topo->online.size(), topo->nr_llcs, topo->smt ? "on" : "off",
			     dom->cpus.empty() ? "all" : format_cpulist(dom->cpus) + " (" +
							 format_hex_mask(dom->cpus) + ")",
			     opts.ctl_socket);

		Outcome out = watch(opts, *sched, *topo, sig, *ctl, switches, domain_spec);
		// Keep the settings changed at runtime across a restart.
		cfg.tunables = sched->tunables();
		sched->detach();
		ExitInfo ei = sched->exit_info();

		if (out == Outcome::UserStop) {
			log_exit(ei, ei.is_error());
			return ei.is_error() ? 1 : 0;
		}
		if (ei.should_restart()) {
			log_exit(ei, false);
			spdlog::info("the kernel asked for a restart: loading again");
			continue;
		}
		log_exit(ei, true);
		return 1;
	}
}

}  // namespace scx_burst
