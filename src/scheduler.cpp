// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/scheduler.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <vector>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <spdlog/spdlog.h>

#include "burst_bpf.skel.h"
#include "scx_burst/log.hpp"
#include "scx_burst/struct_ops.hpp"
#include "scx_burst/sysfs.hpp"
#include "scx_burst/tunables.hpp"
#include "scx_burst/version.hpp"

namespace scx_burst {
namespace {

// enum scx_exit_kind and enum scx_exit_code bits (kernel/sched/ext.h,
// stable UAPI-like values since 6.12).
constexpr int32_t kScxExitError = 1024;
constexpr int64_t kScxEcodeActRestart = 1LL << 48;

// The skeleton names intf.h's types for .data/.bss: same bytes both sides.
static_assert(sizeof(burst_bpf::burst_bpf__data::tunables) == sizeof(burst_tunables));
static_assert(sizeof(burst_bpf::burst_bpf__bss::exit_dump) == BURST_EXIT_DUMP_MAX);
static_assert(sizeof(burst_bpf::burst_bpf__bss::domain_req) == sizeof(burst_domain_req));
static_assert(sizeof(burst_bpf::burst_bpf__bss::compat_form) == sizeof(CompatForms));

std::string errstr(int err)
{
	return std::strerror(err < 0 ? -err : err);
}

// BPF_LOG_STATS of the kernel's bpf_verifier_log: the summary lines.  The
// kernels before 6.19 also print a line at this level for every state
// that reaches a call of a global subprogram ("Func#N ('warm_take') is
// global and assumed valid."), and since 6.4 a log that overflows its
// buffer fails the load (ENOSPC): room for some thousands of those.
constexpr uint32_t kBpfLogStats = 4;
constexpr size_t kVerifierStatsLogSize = 1 << 20;

// The lines that start "verification time", "stack depth" and
// "processed" ("processed 1234 insns (limit 1000000) max_states_per_insn
// 4 total_states 99 peak_states 99 mark_read 12"): one debug line per
// program.
void log_verifier_stats(const char *prog, const char *log)
{
	std::istringstream in(log);
	std::string line, text;
	while (std::getline(in, line))
		if (line.starts_with("verification time") || line.starts_with("stack depth") ||
		    line.starts_with("processed"))
			text += (text.empty() ? "" : " ") + line;
	spdlog::debug("verifier: {}: {}", prog, text);
}

// The kfuncs @obj calls: the functions of its .ksyms section, by the
// kernel name libbpf binds them to.
std::vector<std::string> object_kfuncs(const struct bpf_object *obj)
{
	std::vector<std::string> out;
	const struct btf *btf = bpf_object__btf(obj);
	if (!btf)
		return out;
	int id = btf__find_by_name_kind(btf, ".ksyms", BTF_KIND_DATASEC);
	if (id < 0)
		return out;
	const struct btf_type *sec = btf__type_by_id(btf, id);
	const struct btf_var_secinfo *v = btf_var_secinfos(sec);
	for (int i = 0; i < btf_vlen(sec); i++, v++) {
		const struct btf_type *t = btf__type_by_id(btf, v->type);
		if (t && btf_is_func(t))
			out.push_back(strip_flavour(btf__name_by_offset(btf, t->name_off)));
	}
	return out;
}

}  // namespace

bool ExitInfo::should_restart() const
{
	return exit_code & kScxEcodeActRestart;
}

bool ExitInfo::is_error() const
{
	return kind >= kScxExitError;
}

std::string ExitInfo::kind_name() const
{
	// enum scx_exit_kind (kernel/sched/ext_internal.h), values fixed since 6.12
	switch (kind) {
	case 0:
		return "still running";
	case 1:
		return "done";
	case 64:
		return "unregistered";
	case 65:
		return "unregistered by the BPF program";
	case 66:
		return "unregistered by the kernel";
	case 67:
		return "SysRq-S";
	case 68:
		return "parent scheduler left";
	case 1024:
		return "error";
	case 1025:
		return "BPF error";
	case 1026:
		return "watchdog stall";
	default:
		return kind >= kScxExitError ? "error" : "unregistered";
	}
}

void Scheduler::SkelDeleter::operator()(struct ::burst_bpf *skel) const
{
	burst_bpf__destroy(skel);
}

void Scheduler::LinkDeleter::operator()(struct ::bpf_link *link) const
{
	bpf_link__destroy(link);
}

Scheduler::Scheduler(Scheduler &&) noexcept = default;
Scheduler &Scheduler::operator=(Scheduler &&) noexcept = default;

Scheduler::~Scheduler()
{
	// The link goes first: the kernel disables the scheduler while the
	// skeleton (and ops.exit's view of .bss) is still mapped.
	link_.reset();
}

Result<Scheduler> Scheduler::load(const Topology &topo, const LoadConfig &cfg)
{
	Scheduler s;

	if (topo.nr_cpu_ids > BURST_MAX_CPUS)
		return fail("this machine has " + std::to_string(topo.nr_cpu_ids) +
			    " CPUs; scx_burst supports " +
			    std::to_string(BURST_MAX_CPUS));

	clear_libbpf_log();
	s.skel_.reset(burst_bpf__open());
	if (!s.skel_)
		return fail("failed to open the BPF object: " + errstr(errno));
	auto *skel = s.skel_.get();

	skel->rodata->nr_cpu_ids = topo.nr_cpu_ids;
	skel->rodata->nr_llcs = topo.nr_llcs;
	skel->rodata->smt_enabled = topo.smt;
	for (int cpu = 0; cpu < topo.nr_cpu_ids; cpu++) {
		skel->rodata->cpu_llc[cpu] = topo.llc_of[cpu];
		skel->rodata->cpu_sibling[cpu] = topo.sibling[cpu];
	}
	uint32_t pos = 0;
	for (int cpu : topo.online)
		skel->rodata->online_cpus[pos++] = cpu;
	skel->rodata->nr_online = pos;
	skel->rodata->debug_error_after_ns = cfg.debug_error_after_ns;
	skel->rodata->compat_skip_new = cfg.compat_skip_new;
	if (cfg.kernel) {
		auto forms = expected_forms(*cfg.kernel, cfg.compat_skip_new);
		if (!forms)
			return fail(forms.error().msg);
		s.expected_forms_ = *forms;
		if (auto r = check_required_kfuncs(object_kfuncs(skel->obj), *cfg.kernel); !r)
			return fail(r.error().msg);
		if (!wants_cpu_release(*forms)) {
			skel->struct_ops.burst_ops->cpu_release = nullptr;
			bpf_program__set_autoload(skel->progs.burst_cpu_release, false);
		}
	}
	skel->struct_ops.burst_ops->hotplug_seq = cfg.hotplug_seq;
	// root/ops then names the build: "burst_0.1.0_g<rev>".
	if (auto r = set_struct_ops_string(skel->obj, skel->maps.burst_ops, "name",
					   ops_name()); !r)
		return fail(r.error().msg);

	std::memcpy(&skel->data->tunables, &cfg.tunables, sizeof(cfg.tunables));
	if (cfg.exit_dump_len)
		skel->struct_ops.burst_ops->exit_dump_len = cfg.exit_dump_len;

	// -v: each program's verifier statistics (BPF_LOG_STATS, a few
	// lines) into a buffer of its own, logged once the load succeeds.
	std::vector<std::pair<struct bpf_program *, std::vector<char>>> stats_logs;
	if (cfg.verifier_stats) {
		struct bpf_program *prog;
		bpf_object__for_each_program(prog, skel->obj) {
			if (!bpf_program__autoload(prog))
				continue;
			stats_logs.emplace_back(prog, std::vector<char>(kVerifierStatsLogSize, 0));
			auto &buf = stats_logs.back().second;
			bpf_program__set_log_buf(prog, buf.data(), buf.size());
			bpf_program__set_log_level(prog, kBpfLogStats);
		}
	}
	int err = burst_bpf__load(skel);
	if (err && cfg.verifier_stats) {
		// With a buffer of its own, libbpf passes on no verifier log
		// when a program is refused (and a log too long for its
		// buffer is itself a refusal, ENOSPC): load once more without
		// the statistics, for the error's lines.
		spdlog::debug("the load with verifier statistics failed ({}): loading without them",
			      errstr(err));
		LoadConfig plain = cfg;
		plain.verifier_stats = false;
		return load(topo, plain);
	}
	for (const auto &[prog, buf] : stats_logs)
		log_verifier_stats(bpf_program__name(prog), buf.data());
	if (err) {
		std::string msg = "the kernel refused to load the BPF scheduler (" +
				  errstr(err) + ")";
		auto tail = libbpf_log_tail(30);
		if (!tail.empty()) {
			msg += "; last verifier/libbpf lines:";
			for (const auto &l : tail)
				msg += "\n    " + l;
		}
		return fail(msg);
	}
	s.cpus_ = topo.online;
	s.nr_possible_ = libbpf_num_possible_cpus();
	if (s.nr_possible_ <= 0)
		return fail("cannot count possible CPUs: " + errstr(s.nr_possible_));
	return s;
}

Result<> Scheduler::attach()
{
	struct bpf_link *link = bpf_map__attach_struct_ops(skel_->maps.burst_ops);
	if (!link) {
		int err = errno;
		if (exited()) {
			ExitInfo ei = exit_info();
			return fail("the scheduler failed to start: " + ei.reason +
				    (ei.msg.empty() ? "" : " (" + ei.msg + ")"));
		}
		if (err == EBUSY || err == EEXIST)
			return fail(active_scheduler_error(sched_ext_ops(), sched_ext_state()));
		return fail("failed to enable the scheduler: " + errstr(err));
	}
	link_.reset(link);
	return {};
}

void Scheduler::detach()
{
	link_.reset();
}

burst_tunables Scheduler::tunables() const
{
	burst_tunables t;
	std::memcpy(&t, (const void *)&skel_->data->tunables, sizeof(t));
	return t;
}

void Scheduler::set_tunables(const burst_tunables &t)
{
	store_tunables(reinterpret_cast<volatile burst_tunables *>(&skel_->data->tunables), t);
}

Result<> Scheduler::set_domain(const std::vector<int> &cpus)
{
	auto *req = &skel_->bss->domain_req;
	burst_domain_req r{};

	for (int c : cpus) {
		if (c < 0 || c >= BURST_MAX_CPUS)
			return fail("CPU " + std::to_string(c) + " out of range");
		r.bits[c / 64] |= 1ULL << (c % 64);
	}
	r.nr_cpus = cpus.size();
	std::memcpy((void *)req, &r, sizeof(r));

	LIBBPF_OPTS(bpf_test_run_opts, opts);
	int err = bpf_prog_test_run_opts(bpf_program__fd(skel_->progs.burst_set_domain), &opts);
	if (err)
		return fail("failed to apply the primary domain: " + errstr(errno));
	if (opts.retval)
		return fail("failed to apply the primary domain: " + errstr((int)opts.retval));
	domain_ = cpus;
	return {};
}

bool Scheduler::overflowing() const
{
	return __atomic_load_n(&skel_->bss->overflow, __ATOMIC_RELAXED) != 0;
}

StatsSample Scheduler::read_stats(bool close_interval)
{
	static_assert(sizeof(burst_stats) % 8 == 0);
	static_assert(sizeof(Counters) == sizeof(burst_stats::cnt));
	StatsSample sample;
	std::vector<burst_stats> buf(nr_possible_);
	uint32_t zero = 0;
	uint64_t epoch = __atomic_load_n(&skel_->bss->stats_epoch, __ATOMIC_RELAXED);

	sample.cpus = cpus_;
	sample.primary = domain_;
	sample.per_cpu.assign(cpus_.size(), Counters{});
	if (bpf_map__lookup_elem(skel_->maps.stats, &zero, sizeof(zero), buf.data(),
				 buf.size() * sizeof(burst_stats), 0)) {
		spdlog::warn("failed to read the stats map: {}", errstr(errno));
		return sample;
	}
	if (close_interval)
		__atomic_store_n(&skel_->bss->stats_epoch, epoch + 1, __ATOMIC_RELAXED);
	for (size_t i = 0; i < cpus_.size(); i++) {
		if (cpus_[i] >= nr_possible_)
			continue;
		const burst_stats &st = buf[cpus_[i]];
		std::memcpy(sample.per_cpu[i].data(), st.cnt, sizeof(Counters));
		// MAX slots of an older interval: nothing seen in this one.
		for (size_t k = 0; k < BURST_NR_STATS; k++)
			if (((burst_stat_max_mask >> k) & 1) && st.epoch != epoch)
				sample.per_cpu[i][k] = 0;
	}
	return sample;
}

int Scheduler::task_ctx_map_fd() const
{
	return bpf_map__fd(skel_->maps.task_ctxs);
}

bool Scheduler::exited() const
{
	return __atomic_load_n(&skel_->bss->exit_info.kind, __ATOMIC_ACQUIRE) != 0;
}

CompatForms Scheduler::compat_forms() const
{
	CompatForms f;
	std::memcpy(f.data(), (const void *)skel_->bss->compat_form, f.size());
	return f;
}

ExitInfo Scheduler::exit_info() const
{
	const auto &bi = skel_->bss->exit_info;
	ExitInfo ei;

	ei.kind = __atomic_load_n(&bi.kind, __ATOMIC_ACQUIRE);
	ei.exit_code = bi.exit_code;
	ei.reason.assign(bi.reason, strnlen(bi.reason, sizeof(bi.reason)));
	ei.msg.assign(bi.msg, strnlen(bi.msg, sizeof(bi.msg)));
	size_t n = std::min<size_t>(bi.dump_len, sizeof(skel_->bss->exit_dump));
	ei.dump.assign(skel_->bss->exit_dump,
		       strnlen(skel_->bss->exit_dump, n));
	return ei;
}

}  // namespace scx_burst
