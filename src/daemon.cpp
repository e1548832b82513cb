// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/daemon.hpp"

#include <chrono>
#include <csignal>
#include <iostream>

#include <poll.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

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

enum class Outcome { UserStop, KernelExit };

// Runs one loaded and attached scheduler until a signal or its ejection.
Outcome watch(const Options &opts, Scheduler &sched, const SignalFd &sig)
{
	auto start = Clock::now();
	auto interval = std::chrono::duration<double>(opts.stats_interval_s);
	auto next = start + std::chrono::duration_cast<Clock::duration>(interval);
	StatsSample prev = sched.read_stats();
	auto prev_at = start;

	for (;;) {
		pollfd pfd{sig.fd(), POLLIN, 0};
		int timeout_ms = 100;
		if (opts.stats_interval_s > 0) {
			auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
				next - Clock::now()).count();
			timeout_ms = std::clamp<long>(left, 0, 100);
		}
		if (poll(&pfd, 1, timeout_ms) > 0) {
			int signo = sig.take();
			if (signo) {
				spdlog::info("received {}, unregistering the scheduler",
					     strsignal(signo));
				return Outcome::UserStop;
			}
		}
		if (sched.exited())
			return Outcome::KernelExit;
		if (opts.stats_interval_s > 0 && Clock::now() >= next) {
			auto now = Clock::now();
			StatsSample cur = sched.read_stats();
			StatsContext ctx;
			ctx.elapsed_s = std::chrono::duration<double>(now - start).count();
			ctx.interval_s = std::chrono::duration<double>(now - prev_at).count();
			ctx.policy = policy_name(sched.tunables().policy);
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
	if (auto r = check_sched_ext(); !r) {
		spdlog::error("{}", r.error().msg);
		return 1;
	}

	SignalFd sig;
	if (sig.fd() < 0) {
		spdlog::error("signalfd: {}", strerror(errno));
		return 1;
	}

	LoadConfig cfg;
	cfg.tunables = make_tunables(opts);
	cfg.exit_dump_len = opts.exit_dump_len;

	for (;;) {
		auto topo = read_topology();
		if (!topo) {
			spdlog::error("{}", topo.error().msg);
			return 1;
		}
		auto sched = Scheduler::load(*topo, cfg);
		if (!sched) {
			spdlog::error("{}", sched.error().msg);
			return 1;
		}
		if (auto r = sched->attach(); !r) {
			spdlog::error("{}", r.error().msg);
			return 1;
		}
		spdlog::info("scheduler enabled: ops={} policy={} cpus={} llcs={} smt={}",
			     sched_ext_ops(), opts.policy, topo->online.size(),
			     topo->nr_llcs, topo->smt ? "on" : "off");

		Outcome out = watch(opts, *sched, sig);
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
