// SPDX-License-Identifier: GPL-2.0
// The loaded BPF scheduler: skeleton and struct_ops link, owned RAII.
#pragma once

#include <memory>
#include <string>

#include "error.hpp"
#include "intf.h"
#include "kernel_check.hpp"
#include "stats.hpp"
#include "topology.hpp"

struct burst_bpf;	// generated skeleton
struct bpf_link;

namespace scx_burst {

struct LoadConfig {
	burst_tunables tunables{};
	uint32_t exit_dump_len = 0;
	// /sys/kernel/sched_ext/hotplug_seq read before the topology: a CPU
	// going on- or offline before the scheduler is enabled makes the
	// kernel refuse it with a restart request.  0: not checked.
	uint64_t hotplug_seq = 0;
	uint64_t debug_error_after_ns = 0;	// --debug-error-after
	// The running kernel's kfuncs: checked against what the BPF object
	// calls before loading.  nullptr: not checked.
	const KernelSymbols *kernel = nullptr;
	uint64_t compat_skip_new = 0;		// --debug-compat
	// -v: the verifier's statistics of each program (instructions
	// processed, states, time) logged at debug level after the load.
	bool verifier_stats = false;
};

// What the kernel said when it disabled the scheduler.
struct ExitInfo {
	int32_t kind = 0;
	int64_t exit_code = 0;
	std::string reason;
	std::string msg;
	std::string dump;

	bool should_restart() const;	// SCX_ECODE_ACT_RESTART
	bool is_error() const;		// kind >= SCX_EXIT_ERROR
	// enum scx_exit_kind in words: "BPF error", "watchdog stall", ...
	std::string kind_name() const;
};

// What the daemon needs of a loaded scheduler: the BPF one (Scheduler),
// or a fake in the unit tests of the restart loop and the ctl backend.
class SchedulerApi {
public:
	virtual ~SchedulerApi() = default;

	// Enables the scheduler: from here on the kernel runs it, until the
	// link is destroyed (detach(), or this process dies).
	virtual Result<> attach() = 0;
	virtual void detach() = 0;

	virtual burst_tunables tunables() const = 0;
	virtual void set_tunables(const burst_tunables &t) = 0;

	// Switches the primary domain (empty: none) without reloading.
	virtual Result<> set_domain(const std::vector<int> &cpus) = 0;
	virtual const std::vector<int> &domain() const = 0;
	virtual bool overflowing() const = 0;

	// Counters since enable; MAX slots hold the current stats interval's
	// values.  @close_interval: start a new interval after reading (one
	// reader, the daemon's stats loop, does that).
	virtual StatsSample read_stats(bool close_interval) = 0;
	// The task-context map (--debug-tasks); -1 if there is none.
	virtual int task_ctx_map_fd() const = 0;

	virtual bool exited() const = 0;
	virtual ExitInfo exit_info() const = 0;

	// The form of each compat shim: what the BPF side chose (valid once
	// attached) and what the load check expected from the kernel's BTF.
	virtual CompatForms compat_forms() const = 0;
	virtual const CompatForms &expected_compat_forms() const = 0;
};

class Scheduler final : public SchedulerApi {
public:
	// Opens, configures and loads the BPF program (the verifier runs
	// here), without enabling it.
	static Result<Scheduler> load(const Topology &topo,
				      const LoadConfig &cfg);

	Result<> attach() override;
	void detach() override;
	burst_tunables tunables() const override;
	void set_tunables(const burst_tunables &t) override;
	Result<> set_domain(const std::vector<int> &cpus) override;
	const std::vector<int> &domain() const override { return domain_; }
	bool overflowing() const override;
	StatsSample read_stats(bool close_interval) override;
	int task_ctx_map_fd() const override;
	bool exited() const override;
	ExitInfo exit_info() const override;
	CompatForms compat_forms() const override;
	const CompatForms &expected_compat_forms() const override { return expected_forms_; }

	Scheduler(Scheduler &&) noexcept;
	Scheduler &operator=(Scheduler &&) noexcept;
	~Scheduler();

private:
	struct SkelDeleter {
		void operator()(struct ::burst_bpf *skel) const;
	};
	struct LinkDeleter {
		void operator()(struct ::bpf_link *link) const;
	};

	Scheduler() = default;

	std::unique_ptr<struct ::burst_bpf, SkelDeleter> skel_;
	std::unique_ptr<struct ::bpf_link, LinkDeleter> link_;
	std::vector<int> cpus_;
	std::vector<int> domain_;
	int nr_possible_ = 0;
	CompatForms expected_forms_{};
};

}  // namespace scx_burst
