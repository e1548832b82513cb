// SPDX-License-Identifier: GPL-2.0
// Any bytes as an events.bin: read_recording either refuses them with one
// line naming the file, or what it accepts goes through write_outputs,
// which must succeed with a summary that adds up (per task running +
// waiting within the recording, tasks' runtime equal to CPUs' busy time).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "scx_burst/trace.hpp"

namespace fs = std::filesystem;
using namespace scx_burst::trace;

namespace {

// Where the input and the outputs go, removed when the run ends.
struct WorkDir {
	fs::path path = fs::temp_directory_path() / ("fuzz_trace." + std::to_string(getpid()));
	WorkDir() { fs::create_directories(path); }
	~WorkDir()
	{
		std::error_code ec;
		fs::remove_all(path, ec);
	}
};

const fs::path &work_dir()
{
	static const WorkDir dir;
	return dir.path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const fs::path file = work_dir() / "events.bin";
	std::ofstream(file, std::ios::binary | std::ios::trunc)
		.write(reinterpret_cast<const char *>(data), static_cast<std::streamsize>(size));
	auto rec = read_recording(file);
	if (!rec) {
		const std::string &msg = rec.error().msg;
		if (msg.rfind(file.string() + ": ", 0) != 0 || msg.find('\n') != std::string::npos)
			abort();
		return 0;
	}
	std::ostringstream table;
	if (!write_outputs(*rec, {}, work_dir() / "out", table))
		abort();
	std::ifstream in(work_dir() / "out" / "summary.json");
	const auto s = nlohmann::json::parse(in);
	const uint64_t len = s["duration_ns"];
	for (const auto &t : s["tasks"])
		if (t["runtime_ns"].get<uint64_t>() + t["wait_ns"].get<uint64_t>() > len)
			abort();
	if (s["totals"]["runtime_ns"] != s["totals"]["busy_ns"])
		abort();
	return 0;
}
