// SPDX-License-Identifier: GPL-2.0
// `scx_burst trace` options, as main() registers them: values reach
// TraceOptions, bad ones are refused by the parser (exit 2, nothing run).
#include <gtest/gtest.h>

#include "scx_burst/exit_code.hpp"
#include "scx_burst/options.hpp"
#include "scx_burst/trace_record.hpp"

namespace {

using scx_burst::trace::TraceOptions;

// Parses @args like main() does; 0 when `trace` parsed, else what main
// exits with (parse_exit()), with CLI11's message in @err.
int parse(std::vector<std::string> args, TraceOptions &t, std::string *err = nullptr)
{
	CLI::App app{"test", "scx_burst"};
	scx_burst::Options o;
	scx_burst::CtlCommand ctl;
	scx_burst::add_options(app, o, ctl);
	CLI::App *sub = scx_burst::trace::add_trace_command(app, t);
	std::reverse(args.begin(), args.end());
	try {
		app.parse(args);
	} catch (const CLI::ParseError &e) {
		if (err)
			*err = e.what();
		return scx_burst::parse_exit(app, e);
	}
	return sub->parsed() ? 0 : -2;
}

TEST(TraceCli, Defaults)
{
	TraceOptions t;
	ASSERT_EQ(parse({"trace"}, t), 0);
	EXPECT_EQ(t.duration_s, 10);
	EXPECT_EQ(t.out_dir, "scx_burst-trace");
	EXPECT_EQ(t.ringbuf_kb, 16384u);
	EXPECT_EQ(t.max_events, 1000000u);
	EXPECT_TRUE(t.filter.pids.empty());
	EXPECT_TRUE(t.filter.comms.empty());
	EXPECT_TRUE(t.from.empty());
}

TEST(TraceCli, ValuesReachOptions)
{
	TraceOptions t;
	ASSERT_EQ(parse({"trace", "--duration", "2.5", "--out", "/tmp/x", "--pid", "12", "--pid",
			 "34", "--comm", "make", "--ringbuf-kb", "64", "--max-events", "5000",
			 "--from", "e.bin"},
			t),
		  0);
	EXPECT_EQ(t.duration_s, 2.5);
	EXPECT_EQ(t.out_dir, "/tmp/x");
	EXPECT_EQ(t.filter.pids, (std::vector<int>{12, 34}));
	EXPECT_EQ(t.filter.comms, (std::vector<std::string>{"make"}));
	EXPECT_EQ(t.ringbuf_kb, 64u);
	EXPECT_EQ(t.max_events, 5000u);
	EXPECT_EQ(t.from, "e.bin");
}

TEST(TraceCli, BadValuesAreUsageErrors)
{
	const std::vector<std::vector<std::string>> bad = {
		{"trace", "--ringbuf-kb", "100"},	// not a power of two
		{"trace", "--ringbuf-kb", "2"},		// less than a page
		{"trace", "--ringbuf-kb", "0"},
		{"trace", "--duration", "0"},
		{"trace", "--duration", "x"},
		{"trace", "--pid", "0"},
		{"trace", "--pid", "-5"},
		{"trace", "--max-events", "999"},
		{"trace", "--max-events", "100000001"},
		{"trace", "--max-events", "-1"},
	};
	for (const auto &args : bad) {
		TraceOptions t;
		std::string err;
		EXPECT_EQ(parse(args, t, &err), scx_burst::kExitUsage) << args[1] << " " << args[2];
		EXPECT_NE(err.find(args[1]), std::string::npos) << err;
	}
}

}  // namespace
