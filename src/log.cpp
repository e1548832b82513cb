// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/log.hpp"

#include <cstdarg>
#include <cstdio>
#include <deque>
#include <mutex>

#include <sys/stat.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <spdlog/cfg/env.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace scx_burst {
namespace {

std::mutex g_tail_lock;
std::deque<std::string> g_tail;
constexpr size_t kTailKeep = 200;

int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	// The verifier log arrives as one message of up to megabytes.
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(nullptr, 0, fmt, ap2);
	va_end(ap2);
	std::string line(n > 0 ? n : 0, '\0');
	if (n > 0)
		vsnprintf(line.data(), n + 1, fmt, ap);

	while (!line.empty() && line.back() == '\n')
		line.pop_back();
	{
		std::lock_guard<std::mutex> g(g_tail_lock);
		size_t start = 0;
		while (start <= line.size()) {
			size_t nl = line.find('\n', start);
			g_tail.emplace_back(line.substr(start, nl == std::string::npos ?
								      std::string::npos :
								      nl - start));
			if (g_tail.size() > kTailKeep)
				g_tail.pop_front();
			if (nl == std::string::npos)
				break;
			start = nl + 1;
		}
	}
	switch (level) {
	case LIBBPF_WARN:
		spdlog::debug("libbpf: {}", line);	// reported by the caller
		break;
	case LIBBPF_INFO:
		spdlog::debug("libbpf: {}", line);
		break;
	default:
		spdlog::trace("libbpf: {}", line);
		break;
	}
	return n;
}

// %J: the syslog priority of the message's level, for journald.
class JournalPriority : public spdlog::custom_flag_formatter {
public:
	void format(const spdlog::details::log_msg &msg, const std::tm &,
		    spdlog::memory_buf_t &dest) override
	{
		char c = '0' + journal_priority(msg.level);
		dest.push_back(c);
	}
	std::unique_ptr<custom_flag_formatter> clone() const override
	{
		return std::make_unique<JournalPriority>();
	}
};

}  // namespace

int journal_priority(spdlog::level::level_enum level)
{
	switch (level) {
	case spdlog::level::trace:
	case spdlog::level::debug:
		return 7;	/* LOG_DEBUG */
	case spdlog::level::info:
		return 6;	/* LOG_INFO */
	case spdlog::level::warn:
		return 4;	/* LOG_WARNING */
	case spdlog::level::err:
		return 3;	/* LOG_ERR */
	default:
		return 2;	/* LOG_CRIT */
	}
}

bool stderr_is_journal(const char *journal_stream)
{
	// "<dev>:<inode>" of the stream systemd connected; stderr may have
	// been redirected since (a shell in the unit), so compare.
	if (!journal_stream)
		return false;
	unsigned long long dev, ino;
	if (sscanf(journal_stream, "%llu:%llu", &dev, &ino) != 2)
		return false;
	struct stat st;
	if (fstat(STDERR_FILENO, &st))
		return false;
	return st.st_dev == dev && st.st_ino == ino;
}

void setup_logging(int verbose)
{
	if (!spdlog::get("scx_burst")) {
		// A plain (colourless) stderr sink: the lines are the same on
		// a terminal, in a file and in the journal, which gets the
		// priority as the "<N>" prefix sd-daemon(3) defines.
		auto logger = spdlog::stderr_logger_mt("scx_burst");
		if (stderr_is_journal(getenv("JOURNAL_STREAM"))) {
			auto f = std::make_unique<spdlog::pattern_formatter>();
			f->add_flag<JournalPriority>('J').set_pattern("<%J>scx_burst: %l: %v");
			logger->set_formatter(std::move(f));
		} else {
			logger->set_pattern("scx_burst: %l: %v");
		}
		spdlog::set_default_logger(logger);
		libbpf_set_print(libbpf_print);
	}
	spdlog::set_level(verbose >= 2 ? spdlog::level::trace :
			  verbose == 1 ? spdlog::level::debug :
					 spdlog::level::info);
	spdlog::cfg::load_env_levels();
}

std::vector<std::string> libbpf_log_tail(size_t max_lines)
{
	std::lock_guard<std::mutex> g(g_tail_lock);
	size_t n = std::min(max_lines, g_tail.size());
	return {g_tail.end() - n, g_tail.end()};
}

void clear_libbpf_log()
{
	std::lock_guard<std::mutex> g(g_tail_lock);
	g_tail.clear();
}

}  // namespace scx_burst
