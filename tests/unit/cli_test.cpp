// SPDX-License-Identifier: GPL-2.0
// Option parsing and validation, as main() sets it up.
#include <gtest/gtest.h>

#include "scx_burst/exit_code.hpp"
#include "scx_burst/log.hpp"
#include "scx_burst/options.hpp"

namespace {

using scx_burst::Options;

// Parses @args like main() does; returns the CLI11 exit code (0 = ok).
int parse(std::vector<std::string> args, Options &o, std::string *err = nullptr)
{
	CLI::App app{"test", "scx_burst"};
	app.set_version_flag("-V,--version", "scx_burst test");
	scx_burst::CtlCommand ctl;
	scx_burst::add_options(app, o, ctl);
	std::reverse(args.begin(), args.end());
	try {
		app.parse(args);
	} catch (const CLI::ParseError &e) {
		if (err)
			*err = e.what();
		return e.get_exit_code() ? e.get_exit_code() : -1;
	}
	return 0;
}

TEST(Cli, Defaults)
{
	Options o;
	ASSERT_EQ(parse({}, o), 0);
	auto t = o.tunables;
	EXPECT_EQ(t.policy, (uint32_t)BURST_POLICY_BURST);
	EXPECT_EQ(t.burst_enabled, 1u);
	EXPECT_EQ(t.slice_ns, 5000 * 1000ULL);
	EXPECT_EQ(t.rr_interval_ns, 6000000ULL);
	EXPECT_EQ(t.burst_penalty_offset, 18u);
	EXPECT_EQ(t.burst_penalty_scale, 1292u);
	EXPECT_EQ(t.burst_smoothness, 1u);
}

TEST(Cli, ValuesReachTunables)
{
	Options o;
	ASSERT_EQ(parse({"--slice-us", "2000", "--burst-penalty-offset", "12",
			 "--burst-penalty-scale", "2048", "--burst-smoothness", "3",
			 "--no-burst", "--policy", "deadline", "--rr-interval-ms", "4",
			 "--preempt-margin", "5", "--stats", "0.5", "--json"},
			o),
		  0);
	auto t = o.tunables;
	EXPECT_EQ(t.slice_ns, 2000000ULL);
	EXPECT_EQ(t.burst_penalty_offset, 12u);
	EXPECT_EQ(t.burst_penalty_scale, 2048u);
	EXPECT_EQ(t.burst_smoothness, 3u);
	EXPECT_EQ(t.burst_enabled, 0u);
	EXPECT_EQ(t.policy, (uint32_t)BURST_POLICY_DEADLINE);
	EXPECT_EQ(t.rr_interval_ns, 4000000ULL);
	EXPECT_EQ(t.preempt_margin, 5u);
	EXPECT_DOUBLE_EQ(o.stats_interval_s, 0.5);
	EXPECT_TRUE(o.json);
}

struct BadCase {
	std::vector<std::string> args;
	const char *needle;	// part of the error message
};

TEST(Cli, RejectsBadValues)
{
	const BadCase cases[] = {
		{{"--slice-us", "10"}, "--slice-us"},
		{{"--slice-us", "100001"}, "--slice-us"},
		{{"--slice-us", "abc"}, "--slice-us"},
		{{"--slice-us", "-5"}, "--slice-us"},
		{{"--burst-penalty-offset", "65"}, "--burst-penalty-offset"},
		{{"--burst-penalty-scale", "4097"}, "--burst-penalty-scale"},
		{{"--burst-smoothness", "11"}, "--burst-smoothness"},
		{{"--rr-interval-ms", "0"}, "--rr-interval-ms"},
		{{"--rr-interval-ms", "1001"}, "--rr-interval-ms"},
		{{"--preempt-margin", "40"}, "--preempt-margin"},
		{{"--stats", "-1"}, "--stats"},
		{{"--policy", "cfs"}, "--policy"},
		{{"--exit-dump-len", "99999999"}, "--exit-dump-len"},
		{{"--no-such-option"}, "no-such-option"},
	};
	for (const auto &c : cases) {
		Options o;
		std::string err;
		EXPECT_NE(parse(c.args, o, &err), 0) << c.args[0];
		EXPECT_NE(err.find(c.needle), std::string::npos)
			<< "error '" << err << "' does not name " << c.needle;
	}
}

TEST(Cli, VersionAndHelpExit)
{
	Options o;
	std::string err;
	// CLI11 reports --version and --help as "successful" parse errors
	CLI::App app{"test", "scx_burst"};
	app.set_version_flag("-V,--version", "scx_burst 1");
	scx_burst::CtlCommand ctl;
	scx_burst::add_options(app, o, ctl);
	try {
		app.parse(std::vector<std::string>{"-V"});
		FAIL() << "--version did not stop parsing";
	} catch (const CLI::CallForVersion &e) {
		EXPECT_EQ(e.get_exit_code(), 0);
	}
	try {
		app.parse(std::vector<std::string>{"--help"});
		FAIL() << "--help did not stop parsing";
	} catch (const CLI::CallForHelp &e) {
		EXPECT_EQ(e.get_exit_code(), 0);
	}
	std::string help = app.help();
	for (const char *opt : {"--slice-us", "--burst-penalty-offset", "--burst-penalty-scale",
				"--burst-smoothness", "--no-burst", "--stats", "--json",
				"--verbose", "--version", "--exit-dump-len", "--policy",
				"--rr-interval-ms"})
		EXPECT_NE(help.find(opt), std::string::npos) << opt;
}

TEST(Cli, PolicyNames)
{
	EXPECT_EQ(scx_burst::policy_from_name("burst"), BURST_POLICY_BURST);
	EXPECT_EQ(scx_burst::policy_from_name("deadline"), BURST_POLICY_DEADLINE);
	EXPECT_EQ(scx_burst::policy_from_name("eevdf"), -1);
	EXPECT_STREQ(scx_burst::policy_name(BURST_POLICY_DEADLINE), "deadline");
}

// main's exit code for a command line: what parse_exit() makes of CLI11's
// verdict, 0 when the parse goes through.
int main_exit(std::vector<std::string> args)
{
	Options o;
	scx_burst::CtlCommand ctl;
	CLI::App app{"test", "scx_burst"};
	app.set_version_flag("-V,--version", "scx_burst test");
	scx_burst::add_options(app, o, ctl);
	std::reverse(args.begin(), args.end());
	try {
		app.parse(args);
	} catch (const CLI::ParseError &e) {
		return scx_burst::parse_exit(app, e);
	}
	return scx_burst::kExitOk;
}

TEST(Cli, ExitCodes)
{
	scx_burst::setup_logging(0);	// as main does before parsing
	testing::internal::CaptureStdout();
	testing::internal::CaptureStderr();
	EXPECT_EQ(main_exit({"--help"}), scx_burst::kExitOk);
	EXPECT_EQ(main_exit({"-V"}), scx_burst::kExitOk);
	EXPECT_EQ(main_exit({"--bogus"}), scx_burst::kExitUsage);
	EXPECT_EQ(main_exit({"--slice-us", "5"}), scx_burst::kExitUsage);
	EXPECT_EQ(main_exit({"ctl"}), scx_burst::kExitUsage);
	EXPECT_EQ(main_exit({"ctl", "frob"}), scx_burst::kExitUsage);
	std::string out = testing::internal::GetCapturedStdout();
	std::string err = testing::internal::GetCapturedStderr();
	EXPECT_NE(out.find("--primary-domain"), std::string::npos) << out;
	EXPECT_NE(err.find("scx_burst: error: The following argument was not expected: --bogus\n"),
		  std::string::npos) << err;
	// The documented values (README, "Exit codes and lifetime").
	EXPECT_EQ(scx_burst::kExitOk, 0);
	EXPECT_EQ(scx_burst::kExitFailure, 1);
	EXPECT_EQ(scx_burst::kExitUsage, 2);
}

}  // namespace
