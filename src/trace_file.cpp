// SPDX-License-Identifier: GPL-2.0
// events.bin: reading it with every check the analyser relies on (magic,
// version, size against nr_events, known kinds, CPUs in range, ordered
// timestamps), writing it, and the task filter.
#include "scx_burst/trace.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

namespace scx_burst::trace {

namespace {

constexpr uint64_t kHeaderSize = sizeof(burst_trace_file_header);
constexpr uint64_t kEventSize = sizeof(burst_trace_event);

std::string where(const std::filesystem::path &file)
{
	return file.string() + ": ";
}

// What is wrong with event @i (given the one before it), "" if nothing.
std::string event_problem(const burst_trace_event &e, const burst_trace_event *prev, uint64_t i)
{
	if (e.kind < BURST_TR_SWITCH || e.kind > BURST_TR_EXIT)
		return fmt::format("event {}: unknown kind {}", i, e.kind);
	if (e.cpu >= BURST_MAX_CPUS)
		return fmt::format("event {}: cpu {} out of range (max {})", i, e.cpu,
				   BURST_MAX_CPUS - 1);
	if (prev && e.ts_ns < prev->ts_ns)
		return fmt::format("unordered timestamps: event {} at {} ns comes before "
				   "event {} at {} ns", i, e.ts_ns, i - 1, prev->ts_ns);
	return "";
}

}  // namespace

Result<Recording> read_recording(const std::filesystem::path &file)
{
	std::ifstream in(file, std::ios::binary);
	if (!in)
		return fail(where(file) + "cannot open: " + std::strerror(errno));
	in.seekg(0, std::ios::end);
	const uint64_t size = static_cast<uint64_t>(in.tellg());
	in.seekg(0);

	Recording rec;
	if (size < kHeaderSize)
		return fail(where(file) + fmt::format("truncated: {} bytes, shorter than the "
						      "{}-byte header", size, kHeaderSize));
	in.read(reinterpret_cast<char *>(&rec.header), kHeaderSize);
	const auto &h = rec.header;
	if (h.magic != BURST_TR_FILE_MAGIC)
		return fail(where(file) + fmt::format("bad magic {:#018x}: not an scx_burst "
						      "trace recording", h.magic));
	if (h.version != BURST_TR_FILE_VERSION)
		return fail(where(file) + fmt::format("unknown version {} (this build reads "
						      "version {})", h.version,
						      static_cast<int>(BURST_TR_FILE_VERSION)));
	if (h.nr_cpus > BURST_MAX_CPUS)
		return fail(where(file) + fmt::format("nr_cpus {} out of range (max {})",
						      h.nr_cpus, static_cast<int>(BURST_MAX_CPUS)));
	if (h.end_ns < h.start_ns)
		return fail(where(file) + fmt::format("end_ns {} before start_ns {}", h.end_ns,
						      h.start_ns));
	const uint64_t body = size - kHeaderSize;
	const uint64_t held = body / kEventSize;
	if (held < h.nr_events || body % kEventSize)
		return fail(where(file) + fmt::format("truncated: the header says {} events, "
						      "the file holds {} and {} bytes more",
						      h.nr_events, held, body % kEventSize));
	if (held > h.nr_events)
		return fail(where(file) + fmt::format("nr_events mismatch: the header says {} "
						      "events, the file holds {}",
						      h.nr_events, held));
	rec.events.resize(h.nr_events);
	in.read(reinterpret_cast<char *>(rec.events.data()),
		static_cast<std::streamsize>(h.nr_events * kEventSize));
	if (!in)
		return fail(where(file) + "read failed: " + std::strerror(errno));
	for (uint64_t i = 0; i < rec.events.size(); i++) {
		auto problem = event_problem(rec.events[i], i ? &rec.events[i - 1] : nullptr, i);
		if (!problem.empty())
			return fail(where(file) + problem);
	}
	return rec;
}

Result<void> write_recording(const std::filesystem::path &file, const Recording &rec)
{
	burst_trace_file_header h = rec.header;
	h.magic = BURST_TR_FILE_MAGIC;
	h.version = BURST_TR_FILE_VERSION;
	h.nr_events = rec.events.size();
	std::ofstream out(file, std::ios::binary | std::ios::trunc);
	if (!out)
		return fail(where(file) + "cannot create: " + std::strerror(errno));
	out.write(reinterpret_cast<const char *>(&h), kHeaderSize);
	out.write(reinterpret_cast<const char *>(rec.events.data()),
		  static_cast<std::streamsize>(rec.events.size() * kEventSize));
	out.flush();
	if (!out)
		return fail(where(file) + "write failed: " + std::strerror(errno));
	return {};
}

bool Filter::matches(int pid, int tgid, const std::string &comm) const
{
	if (pids.empty() && comms.empty())
		return true;
	return std::ranges::any_of(pids, [&](int p) { return p == pid || (tgid > 0 && p == tgid); }) ||
	       std::ranges::find(comms, comm) != comms.end();
}

}  // namespace scx_burst::trace
