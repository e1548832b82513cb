// SPDX-License-Identifier: GPL-2.0
// `scx_burst trace`: loads bpf/trace.bpf.c, drains its ring buffer until
// --duration or a signal, and hands the recording to the analysis
// (trace.hpp).  The BPF side's design is written at its top.
#include "scx_burst/trace_record.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>

#include <poll.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <spdlog/spdlog.h>

#include "burst_trace.skel.h"
#include "scx_burst/ctl_client.hpp"
#include "scx_burst/exit_code.hpp"
#include "scx_burst/log.hpp"
#include "scx_burst/signal_fd.hpp"
#include "scx_burst/sysfs.hpp"
#include "scx_burst/topology.hpp"
#include "scx_burst/trace_window.hpp"
#include "scx_burst/tunables.hpp"

namespace scx_burst::trace {
namespace {

std::string errstr(int err)
{
	return std::strerror(err < 0 ? -err : err);
}

uint64_t monotonic_ns()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);	// bpf_ktime_get_ns()'s clock
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

// An owned file descriptor.
class Fd {
public:
	explicit Fd(int fd = -1) : fd_(fd) {}
	Fd(Fd &&o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
	Fd &operator=(Fd &&o) noexcept
	{
		std::swap(fd_, o.fd_);
		return *this;
	}
	~Fd()
	{
		if (fd_ >= 0)
			close(fd_);
	}
	int get() const { return fd_; }

private:
	int fd_;
};

struct SkelDeleter {
	void operator()(struct burst_trace *s) const { burst_trace__destroy(s); }
};
struct RingDeleter {
	void operator()(struct ring_buffer *rb) const { ring_buffer__free(rb); }
};
using Skel = std::unique_ptr<struct burst_trace, SkelDeleter>;
using Ring = std::unique_ptr<struct ring_buffer, RingDeleter>;

// scx_burst's task storage map: the newest map called task_ctxs that is
// a task storage of struct burst_task_ctx (a daemon that restarted may
// leave an older one behind for a moment); none: an empty Fd.
Fd find_task_ctxs()
{
	Fd best;
	for (__u32 id = 0; !bpf_map_get_next_id(id, &id);) {
		Fd fd(bpf_map_get_fd_by_id(id));
		if (fd.get() < 0)
			continue;
		bpf_map_info info{};
		__u32 len = sizeof(info);
		if (bpf_map_get_info_by_fd(fd.get(), &info, &len))
			continue;
		if (info.type == BPF_MAP_TYPE_TASK_STORAGE &&
		    !std::strcmp(info.name, "task_ctxs") && info.key_size == sizeof(int) &&
		    info.value_size == sizeof(burst_task_ctx))
			best = std::move(fd);
	}
	return best;
}

// The running daemon's policy (enum burst_policy) from `ctl get`, or
// BURST_NR_POLICIES when the daemon does not answer.
uint32_t daemon_policy(const std::string &socket)
{
	auto r = ctl_request(socket, {{"req", "get"}});
	if (!r || r->value("errno", -1) != 0) {
		spdlog::warn("no policy from the scx_burst daemon ({}): slices carry "
			     "scores but no key", r ? "it answered an error" : r.error().msg);
		return BURST_NR_POLICIES;
	}
	const auto &resp = (*r)["args"]["resp"];
	int p = policy_from_name(resp.value("policy", std::string()));
	return p < 0 ? (uint32_t)BURST_NR_POLICIES : (uint32_t)p;
}

// CPUs of /sys/devices/system/cpu/online as a bitmap.
Result<> read_online(uint64_t (&mask)[BURST_CPUMASK_WORDS])
{
	std::string text = read_line(SysfsPaths{}.cpu / "online");
	auto cpus = parse_cpulist(text);
	if (!cpus)
		return fail("cannot read the online CPUs: " + cpus.error().msg);
	for (int c : *cpus) {
		if (c >= BURST_MAX_CPUS)
			return fail("CPU " + std::to_string(c) + " is beyond the " +
				    std::to_string(BURST_MAX_CPUS) + " CPUs a recording holds");
		mask[c / 64] |= 1ull << (c % 64);
	}
	return {};
}

// What the recorder has drained so far (trace_window.hpp), and how far
// the current drain may go.
struct Sink {
	EventWindow window;
	DrainLimit limit;
	bool paused = false;		// on_event() ended the drain early
	uint64_t short_records = 0;	// never expected: same header both sides
};

// How long one drain of the recording loop may take before the loop looks
// at the clock, the signals and the cap again (DrainLimit).
constexpr uint64_t kDrainSliceNs = 100'000'000;
// What on_event() returns to end a drain early: libbpf stops there, with
// the event already taken, and ring_buffer__consume() returns it.
constexpr int kPaused = -ECANCELED;

int on_event(void *ctx, void *data, size_t size)
{
	auto *sink = static_cast<Sink *>(ctx);
	if (size < sizeof(burst_trace_event)) {
		sink->short_records++;
		return 0;
	}
	// The cap does not end a drain: a refused event that comes later may
	// be earlier in time and end the window sooner (EventWindow::finish());
	// the loop stops at most one drain after the cap.
	sink->window.add(*static_cast<const burst_trace_event *>(data));
	if (!sink->limit.go_on(monotonic_ns)) {
		sink->paused = true;
		return kPaused;
	}
	return 0;
}

// The progress line on stderr: rewritten in place on a terminal, one
// line every few seconds otherwise (a log file or a serial console).
class Progress {
public:
	explicit Progress(double duration_s)
		: duration_s_(duration_s), tty_(isatty(STDERR_FILENO)) {}

	void update(double elapsed_s, uint64_t events, uint64_t lost, bool last = false)
	{
		double every = tty_ ? 0.5 : 5.0;
		if (!last && elapsed_s - shown_s_ < every)
			return;
		shown_s_ = elapsed_s;
		std::string line = fmt::format("recording {:.1f}/{:.1f} s, {} events, {} lost",
					       elapsed_s, duration_s_, events, lost);
		if (tty_)
			std::cerr << "\r" << line << (last ? "\n" : "") << std::flush;
		else
			std::cerr << line << "\n";
	}

private:
	double duration_s_;
	bool tty_;
	double shown_s_ = -1e9;
};

// A loaded and attached tracer.
class Tracer {
public:
	Tracer(Tracer &&) noexcept = default;

	static Result<Tracer> start(const Options &opts, const TraceOptions &t,
				    const std::string &scheduler)
	{
		Tracer tr;
		clear_libbpf_log();
		tr.skel_.reset(burst_trace__open());
		if (!tr.skel_)
			return fail("failed to open the tracer's BPF object: " + errstr(errno));
		auto *skel = tr.skel_.get();
		int err = bpf_map__set_max_entries(skel->maps.events, t.ringbuf_kb * 1024u);
		if (err)
			return fail("cannot size the ring buffer: " + errstr(err));
		if (scheduler.starts_with("burst_")) {
			Fd ctxs = find_task_ctxs();
			if (ctxs.get() < 0) {
				spdlog::warn("scx_burst runs but its task_ctxs map was not "
					     "found: slices carry no scores");
			} else if ((err = bpf_map__reuse_fd(skel->maps.task_ctxs, ctxs.get()))) {
				return fail("cannot share scx_burst's task_ctxs map: " +
					    errstr(err));
			} else {
				skel->rodata->with_scores = 1;
				skel->rodata->key_policy = daemon_policy(opts.ctl_socket);
				tr.scores_ = true;
			}
		}
		if ((err = burst_trace__load(skel))) {
			std::string msg = "the kernel refused the tracer's BPF programs (" +
					  errstr(err) + ")";
			for (const auto &l : libbpf_log_tail(20))
				msg += "\n    " + l;
			return fail(msg);
		}
		tr.ring_.reset(ring_buffer__new(bpf_map__fd(skel->maps.events), on_event,
						tr.sink_.get(), nullptr));
		if (!tr.ring_)
			return fail("cannot map the ring buffer: " + errstr(errno));
		tr.nr_possible_ = libbpf_num_possible_cpus();
		if (tr.nr_possible_ <= 0)
			return fail("cannot count possible CPUs: " + errstr(tr.nr_possible_));
		if ((err = burst_trace__attach(skel)))
			return fail("cannot attach to the scheduler tracepoints: " + errstr(err));
		// The recording starts once every program is attached (that
		// takes a while on a slow machine); earlier events are dropped.
		tr.sink_->window.max_events = t.max_events;
		tr.sink_->window.start_ns = monotonic_ns();
		tr.lost_before_ = tr.lost();
		return tr;
	}

	int ring_fd() const { return ring_buffer__epoll_fd(ring_.get()); }
	bool scores() const { return scores_; }
	uint64_t start_ns() const { return sink_->window.start_ns; }
	uint64_t nr_events() const { return sink_->window.events.size(); }
	// --max-events were kept and another came: time to stop.
	bool full() const { return sink_->window.full(); }

	// What the ring holds, until @until_ns has come (DrainLimit).  True
	// if it stopped there with events left.
	Result<bool> drain(uint64_t until_ns)
	{
		sink_->limit = DrainLimit{.until_ns = until_ns};
		sink_->paused = false;
		int n = ring_buffer__consume(ring_.get());
		if (n < 0 && !(n == kPaused && sink_->paused))
			return fail("reading the ring buffer failed: " + errstr(n));
		return sink_->paused;
	}

	// Failed reservations since the recording started, all CPUs.
	uint64_t lost() const
	{
		std::vector<uint64_t> v(nr_possible_);
		uint32_t zero = 0;
		if (bpf_map_lookup_elem(bpf_map__fd(skel_->maps.lost), &zero, v.data()))
			return 0;
		uint64_t sum = 0;
		for (uint64_t x : v)
			sum += x;
		return sum - lost_before_;
	}

	// Detaches, drains what is left and returns every event up to
	// *@end_ns (detaching takes a while on a slow machine), sorted; at
	// the --max-events cap *@end_ns moves back to just before the first
	// event refused (EventWindow::finish()).
	Result<std::vector<burst_trace_event>> stop(uint64_t *end_ns)
	{
		sink_->window.end_ns = *end_ns;
		burst_trace__detach(skel_.get());
		// nothing comes after detaching: what is left is at most a ring
		if (auto r = drain(UINT64_MAX); !r)
			return std::unexpected(r.error());
		if (sink_->short_records)
			return fail(std::to_string(sink_->short_records) +
				    " ring buffer records were shorter than an event");
		return sink_->window.finish(*end_ns);
	}

private:
	Tracer() : sink_(std::make_unique<Sink>()) {}

	// Destroyed bottom up: the ring unmaps before the skeleton's maps go,
	// the sink (the ring's callback context) last.
	std::unique_ptr<Sink> sink_;
	Skel skel_;
	Ring ring_;
	int nr_possible_ = 0;
	uint64_t lost_before_ = 0;	// while attaching: outside the recording
	bool scores_ = false;
};

// Records until --duration, SIGINT/SIGTERM or --max-events.
Result<Recording> record(const Options &opts, const TraceOptions &t)
{
	if (auto r = check_root(); !r)
		return fail("must be run as root: tracing loads BPF programs "
			    "(CAP_BPF, CAP_PERFMON)");
	if (access("/sys/kernel/btf/vmlinux", R_OK))
		return fail("this kernel has no BTF (/sys/kernel/btf/vmlinux): tracing "
			    "needs CONFIG_DEBUG_INFO_BTF=y");
	if ((long)t.ringbuf_kb * 1024 % sysconf(_SC_PAGESIZE))
		return fail("--ringbuf-kb: " + std::to_string(t.ringbuf_kb) +
			    " KiB is not a whole number of pages");

	Recording rec;
	auto &h = rec.header;
	h.magic = BURST_TR_FILE_MAGIC;
	h.version = BURST_TR_FILE_VERSION;
	if (auto r = read_online(h.online_mask); !r)
		return std::unexpected(r.error());
	std::string scheduler = sched_ext_state() == "enabled" ? sched_ext_ops() : "EEVDF";
	std::snprintf(h.scheduler, sizeof(h.scheduler), "%s", scheduler.c_str());

	SignalFd sig{SIGINT, SIGTERM};
	if (sig.fd() < 0)
		return fail(std::string("signalfd: ") + strerror(errno));
	auto tr = Tracer::start(opts, t, scheduler);
	if (!tr)
		return std::unexpected(tr.error());
	h.start_ns = tr->start_ns();
	h.nr_cpus = libbpf_num_possible_cpus();
	spdlog::info("tracing {} for {} s{}", scheduler, t.duration_s,
		     tr->scores() ? " with burst scores" : "");

	Progress progress(t.duration_s);
	const uint64_t end_at = h.start_ns + (uint64_t)(t.duration_s * 1e9);
	bool behind = false;	// the last drain stopped with events left
	for (;;) {
		uint64_t now = monotonic_ns();
		if (now >= end_at) {
			h.end_ns = now;
			break;
		}
		progress.update((now - h.start_ns) / 1e9, tr->nr_events(), tr->lost());
		pollfd fds[2] = {{tr->ring_fd(), POLLIN, 0}, {sig.fd(), POLLIN, 0}};
		// behind: no wait (the programs never wake the recorder, so a
		// wait would last its whole 100 ms while the ring overflows)
		int wait_ms = behind ? 0 : (int)std::min<uint64_t>((end_at - now) / 1000000 + 1, 100);
		if (poll(fds, 2, wait_ms) < 0 && errno != EINTR)
			return fail(std::string("poll: ") + strerror(errno));
		auto r = tr->drain(std::min(end_at, monotonic_ns() + kDrainSliceNs));
		if (!r)
			return std::unexpected(r.error());
		behind = *r;
		if (tr->full()) {	// warned below, with the window's end
			h.end_ns = monotonic_ns();
			break;
		}
		if (fds[1].revents & POLLIN) {
			h.end_ns = monotonic_ns();
			spdlog::info("{}: stopping the recording", strsignal(sig.take()));
			break;
		}
	}
	// The last line marks the end of the recording (scripts wait for it);
	// its counts are those drained so far, the summary has the final ones.
	progress.update((h.end_ns - h.start_ns) / 1e9, tr->nr_events(), tr->lost(), true);
	auto events = tr->stop(&h.end_ns);
	if (!events)
		return std::unexpected(events.error());
	rec.events = std::move(*events);
	// also when the last drain, after the loop, reached the cap
	if (tr->full())
		spdlog::warn("the recording reached --max-events {} after {:.1f} s "
			     "and ends there; a larger --max-events records longer",
			     t.max_events, (h.end_ns - h.start_ns) / 1e9);
	h.nr_events = rec.events.size();
	h.lost_events = tr->lost();
	if (h.lost_events)
		spdlog::warn("{} events were lost: the ring buffer ({} KiB) filled up; "
			     "a larger --ringbuf-kb keeps them",
			     h.lost_events, t.ringbuf_kb);
	return rec;
}

}  // namespace

CLI::App *add_trace_command(CLI::App &app, TraceOptions &t)
{
	CLI::App *sub = app.add_subcommand(
		"trace", "record scheduling events under any scheduler and write "
			 "trace.json, SVG pictures and a summary into --out (docs/trace.md)");
	sub->fallthrough();	/* trace --ctl-socket P, -v */
	sub->add_option("--duration", t.duration_s, "record for SECONDS (or until SIGINT, or --max-events)")
		->check(CLI::Range(0.1, 86400.0))
		->capture_default_str();
	sub->add_option("--out", t.out_dir, "write events.bin and the outputs into DIR")
		->type_name("DIR")
		->capture_default_str();
	sub->add_option("--pid", t.filter.pids,
			"tracks, curves and summary rows for this pid or tgid only "
			"(repeatable; CPU rows always show every task)")
		->check(CLI::Range(1, 1 << 22))
		->type_name("PID");
	sub->add_option("--comm", t.filter.comms,
			"... or for tasks of this exact comm (repeatable)")
		->type_name("NAME");
	sub->add_option("--ringbuf-kb", t.ringbuf_kb,
			"BPF ring buffer size in KiB: a power of two, at least a page; "
			"events that do not fit are counted as lost")
		->check(CLI::Range(4u, 1u << 20) &
			CLI::Validator(
				[](std::string &s) -> std::string {
					unsigned long v = std::stoul(s);
					return v && !(v & (v - 1)) ? "" : s + " is not a power of two";
				},
				"POWER OF 2"))
		->capture_default_str();
	sub->add_option("--max-events", t.max_events,
			"keep at most N events (88 bytes each in memory); a recording "
			"that reaches it ends there, with a warning")
		->check(CLI::Range((uint64_t)1000, (uint64_t)100000000))
		->capture_default_str();
	sub->add_option("--from", t.from,
			"make the outputs again from a saved events.bin; records nothing, "
			"needs no root")
		->type_name("FILE");
	return sub;
}

int run_trace(const Options &opts, const TraceOptions &t)
{
	Recording rec;
	std::filesystem::path dir = t.out_dir;
	if (!t.from.empty()) {
		auto r = read_recording(t.from);
		if (!r)
			return fail_with(r.error().msg);
		rec = std::move(*r);
	} else {
		// Before recording: a bad --out must not cost the recording.
		std::error_code ec;
		std::filesystem::create_directories(dir, ec);
		if (ec)
			return fail_with("cannot create " + dir.string() + ": " + ec.message());
		auto r = record(opts, t);
		if (!r)
			return fail_with(r.error().msg);
		rec = std::move(*r);
		if (auto w = write_recording(dir / "events.bin", rec); !w)
			return fail_with(w.error().msg);
	}
	if (auto w = write_outputs(rec, t.filter, dir, std::cout); !w)
		return fail_with(w.error().msg);
	return kExitOk;
}

}  // namespace scx_burst::trace
