// SPDX-License-Identifier: GPL-2.0
// The config file: every key, the command line over it, the same errors
// as on the command line, `ctl save`'s rewrite, SIGHUP's re-read against
// a fake backend; and the installed default file naming every option.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <unistd.h>

#include "scx_burst/ctl.hpp"
#include "scx_burst/daemon_loop.hpp"
#include "scx_burst/domain.hpp"
#include "scx_burst/options.hpp"

#include "fake_backend.hpp"

namespace {

using namespace scx_burst;
namespace fs = std::filesystem;
using nlohmann::json;

class Config : public testing::Test {
protected:
	void SetUp() override
	{
		dir_ = fs::temp_directory_path() /
		       ("scx_burst_config_test." + std::to_string(getpid()));
		fs::create_directories(dir_);
		file_ = (dir_ / "scx_burst.toml").string();
	}
	void TearDown() override { fs::remove_all(dir_); }

	void write(const std::string &text)
	{
		std::ofstream(file_) << text;
	}
	std::string read() const
	{
		std::ifstream in(file_);
		std::stringstream s;
		s << in.rdbuf();
		return s.str();
	}
	// The options @text as a config file gives, @args over it.
	Result<Options> parse(const std::string &text, std::vector<std::string> args = {})
	{
		write(text);
		args.insert(args.begin(), {"--config", file_});
		return parse_options(args);
	}

	fs::path dir_;
	std::string file_;
};

std::string source_file(const char *rel)
{
	std::ifstream in(std::string(SCX_BURST_SOURCE_DIR) + "/" + rel);
	std::stringstream s;
	s << in.rdbuf();
	return s.str();
}

TEST_F(Config, EveryKeyReachesTheOptions)
{
	auto o = parse("policy = \"deadline\"\n"
		       "no-burst = true\n"
		       "slice-us = 2000\n"
		       "rr-interval-ms = 4\n"
		       "burst-penalty-offset = 12\n"
		       "burst-penalty-scale = 2048\n"
		       "burst-smoothness = 3\n"
		       "preempt-margin = 5\n"
		       "overflow-hold-us = 700\n"
		       "max-wait-ms = 300\n"
		       "primary-domain = \"0-1\"\n"
		       "stats = 0.5\n"
		       "json = true\n"
		       "debug-tasks = true\n"
		       "exit-dump-len = 4096\n"
		       "verbose = 2\n"
		       "ctl-socket = \"/tmp/x.sock\"\n"
		       "debug-error-after = 2.5\n"
		       "debug-compat = \"all\"\n"
		       "debug-sched-ext-root = \"/tmp/scx\"\n"
		       "debug-sysfs-root = \"/tmp/sys\"\n");
	ASSERT_TRUE(o) << o.error().msg;
	const auto &t = o->tunables;
	EXPECT_EQ(t.policy, (uint64_t)BURST_POLICY_DEADLINE);
	EXPECT_EQ(t.burst_enabled, 0u);
	EXPECT_EQ(t.slice_ns, 2000000u);
	EXPECT_EQ(t.rr_interval_ns, 4000000u);
	EXPECT_EQ(t.burst_penalty_offset, 12u);
	EXPECT_EQ(t.burst_penalty_scale, 2048u);
	EXPECT_EQ(t.burst_smoothness, 3u);
	EXPECT_EQ(t.preempt_margin, 5u);
	EXPECT_EQ(t.overflow_hold_ns, 700000u);
	EXPECT_EQ(t.max_wait_ns, 300000000u);
	EXPECT_EQ(o->primary_domain, "0-1");
	EXPECT_DOUBLE_EQ(o->stats_interval_s, 0.5);
	EXPECT_TRUE(o->json);
	EXPECT_TRUE(o->debug_tasks);
	EXPECT_EQ(o->exit_dump_len, 4096u);
	EXPECT_EQ(o->verbose, 2);
	EXPECT_EQ(o->ctl_socket, "/tmp/x.sock");
	EXPECT_DOUBLE_EQ(o->debug_error_after_s, 2.5);
	EXPECT_EQ(o->debug_compat, "all");
	EXPECT_EQ(o->sched_ext_root, "/tmp/scx");
	EXPECT_EQ(o->sysfs_root, "/tmp/sys");
	EXPECT_EQ(o->config_file, file_);
}

TEST_F(Config, FalseFlagsAndEmptyFileKeepDefaults)
{
	auto o = parse("no-burst = false\njson = false\n");
	ASSERT_TRUE(o) << o.error().msg;
	EXPECT_EQ(o->tunables.burst_enabled, 1u);
	EXPECT_FALSE(o->json);
	auto e = parse("");
	ASSERT_TRUE(e) << e.error().msg;
	EXPECT_EQ(tunables_json(e->tunables), tunables_json(default_tunables()));
	EXPECT_EQ(e->primary_domain, "all");
}

TEST_F(Config, CommandLineWins)
{
	auto o = parse("policy = \"deadline\"\nslice-us = 2000\nprimary-domain = \"0-1\"\n",
		       {"--policy", "burst", "--primary-domain", "all"});
	ASSERT_TRUE(o) << o.error().msg;
	EXPECT_EQ(o->tunables.policy, (uint64_t)BURST_POLICY_BURST);
	EXPECT_EQ(o->tunables.slice_ns, 2000000u);	// only in the file
	EXPECT_EQ(o->primary_domain, "all");
}

// A bad value in the file is refused with the command line's message.
TEST_F(Config, BadValuesGetTheCommandLineErrors)
{
	const std::pair<const char *, const char *> cases[] = {
		{"slice-us", "10"}, {"slice-us", "100001"}, {"slice-us", "abc"},
		{"slice-us", "-5"}, {"burst-penalty-offset", "65"},
		{"burst-penalty-scale", "4097"}, {"burst-smoothness", "11"},
		{"rr-interval-ms", "0"}, {"preempt-margin", "40"},
		{"overflow-hold-us", "1000001"}, {"max-wait-ms", "49"},
		{"stats", "-1"}, {"policy", "cfs"}, {"exit-dump-len", "99999999"},
		{"debug-error-after", "0"},
	};
	for (const auto &[key, val] : cases) {
		auto cli = parse_options({"--config", "/dev/null", std::string("--") + key, val});
		ASSERT_FALSE(cli) << key << "=" << val;
		auto file = parse(std::string(key) + " = " + val + "\n");
		ASSERT_FALSE(file) << key << " = " << val << " was accepted";
		EXPECT_EQ(file.error().msg, cli.error().msg) << key << " = " << val;
	}
}

TEST_F(Config, UnknownKeysAndMissingFiles)
{
	auto o = parse("turbo = 1\n");
	ASSERT_FALSE(o);
	EXPECT_NE(o.error().msg.find("turbo"), std::string::npos) << o.error().msg;
	// --monitor is a client mode, not a setting.
	auto m = parse("monitor = 1\n");
	ASSERT_FALSE(m);
	EXPECT_NE(m.error().msg.find("monitor"), std::string::npos) << m.error().msg;
	// A file named on the command line must exist.
	auto f = parse_options({"--config", (dir_ / "nosuch.toml").string()});
	ASSERT_FALSE(f);
	EXPECT_NE(f.error().msg.find("nosuch.toml"), std::string::npos) << f.error().msg;
}

// dist/scx_burst.toml shows every key the file takes, and uncommented as
// shipped (the debug example left out) it gives the defaults.
TEST(DefaultConfig, NamesEveryOptionAtItsDefault)
{
	std::string text = source_file("dist/scx_burst.toml");
	ASSERT_FALSE(text.empty());
	Options o;
	CtlCommand ctl;
	CLI::App app{"t", "scx_burst"};
	add_options(app, o, ctl);
	for (const CLI::Option *op : app.get_options()) {
		if (!op->get_configurable() || op->get_group().empty() || op->get_lnames().empty())
			continue;
		std::string key = op->get_lnames()[0];
		if (key == "help")
			continue;
		EXPECT_NE(text.find("\n# " + key + " = "), std::string::npos)
			<< "dist/scx_burst.toml lacks " << key;
	}

	std::string uncommented;
	std::istringstream in(text);
	for (std::string l; std::getline(in, l);) {
		if (l.rfind("# ", 0) == 0 && l.find(" = ") != std::string::npos &&
		    l.find("debug-") == std::string::npos && l.find(' ', 2) > l.find(" = "))
			l = l.substr(2);
		uncommented += l + "\n";
	}
	auto dir = fs::temp_directory_path() / ("scx_burst_dflt." + std::to_string(getpid()));
	fs::create_directories(dir);
	std::ofstream(dir / "c.toml") << uncommented;
	auto parsed = parse_options({"--config", (dir / "c.toml").string()});
	fs::remove_all(dir);
	ASSERT_TRUE(parsed) << parsed.error().msg << "\n" << uncommented;
	EXPECT_EQ(tunables_json(parsed->tunables), tunables_json(default_tunables()));
	EXPECT_EQ(parsed->primary_domain, "all");
	EXPECT_EQ(parsed->ctl_socket, Options{}.ctl_socket);
}

TEST_F(Config, SaveRewritesKeysAndKeepsComments)
{
	write(source_file("dist/scx_burst.toml") + "slice-us = 4000\n# my note\n");
	burst_tunables t = default_tunables();
	t.policy = BURST_POLICY_DEADLINE;
	t.slice_ns = 3000 * 1000;
	t.burst_enabled = 0;
	ASSERT_TRUE(save_config(file_, config_settings(t, "performance")));
	std::string text = read();
	EXPECT_NE(text.find("# my note\n"), std::string::npos);
	EXPECT_NE(text.find("\npolicy = \"deadline\"\n"), std::string::npos) << text;
	EXPECT_NE(text.find("\nslice-us = 3000\n"), std::string::npos) << text;
	EXPECT_EQ(text.find("slice-us = 4000"), std::string::npos) << text;
	EXPECT_NE(text.find("\nno-burst = true\n"), std::string::npos) << text;
	EXPECT_NE(text.find("\nprimary-domain = \"performance\"\n"), std::string::npos);
	// An example is uncommented in place, under its comment; a key
	// already set is replaced where it is, its example left alone.
	EXPECT_NE(text.find("(ms), 1..1000\nrr-interval-ms = 6\n"), std::string::npos) << text;
	EXPECT_NE(text.find("(us), 100..100000\n# slice-us = 5000\n"), std::string::npos) << text;

	auto o = parse_options({"--config", file_});
	ASSERT_TRUE(o) << o.error().msg;
	EXPECT_EQ(tunables_json(o->tunables), tunables_json(t));
	EXPECT_EQ(o->primary_domain, "performance");

	// Saving the same again changes nothing; into no file, every key.
	ASSERT_TRUE(save_config(file_, config_settings(t, "performance")));
	EXPECT_EQ(read(), text);
	std::string fresh = (dir_ / "sub" / "new.toml").string();
	ASSERT_TRUE(save_config(fresh, config_settings(default_tunables(), "all")));
	auto f = parse_options({"--config", fresh});
	ASSERT_TRUE(f) << f.error().msg;
	EXPECT_EQ(tunables_json(f->tunables), tunables_json(default_tunables()));
	EXPECT_EQ(fs::status(fresh).permissions() & fs::perms::all,
		  fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
			  fs::perms::others_read);
}

TEST_F(Config, SaveFailsWithAReason)
{
	auto r = save_config("/proc/scx_burst/x.toml", config_settings(default_tunables(), "all"));
	ASSERT_FALSE(r);
	EXPECT_NE(r.error().msg.find("/proc/scx_burst"), std::string::npos) << r.error().msg;
	auto dev = save_config("/dev/null", config_settings(default_tunables(), "all"));
	ASSERT_FALSE(dev);
	EXPECT_NE(dev.error().msg.find("not a regular file"), std::string::npos) << dev.error().msg;
}

using test::FakeBackend;	// fake_backend.hpp, shared with ctl_test and the fuzz targets

// SIGHUP: the edited file applied as a set, the command line still over it.
TEST_F(Config, ReloadAppliesTheFileLive)
{
	auto running = parse("slice-us = 2000\n", {"--max-wait-ms", "500"});
	ASSERT_TRUE(running) << running.error().msg;
	FakeBackend b;
	b.t = running->tunables;
	std::string spec = running->primary_domain;

	write("policy = \"deadline\"\nslice-us = 3000\nmax-wait-ms = 900\n"
	      "primary-domain = \"2-3\"\n");
	EXPECT_TRUE(reload_options(b, *running, spec));
	EXPECT_EQ(b.t.policy, (uint64_t)BURST_POLICY_DEADLINE);
	EXPECT_EQ(b.t.slice_ns, 3000000u);
	EXPECT_EQ(b.t.max_wait_ns, 500000000u);	// the command line's
	EXPECT_EQ(b.dom, (std::vector<int>{2, 3}));
	EXPECT_EQ(spec, "2-3");

	// A bad file changes nothing.
	burst_tunables before = b.t;
	write("slice-us = 5\n");
	EXPECT_FALSE(reload_options(b, *running, spec));
	write("primary-domain = \"7-9\"\n");
	EXPECT_FALSE(reload_options(b, *running, spec));
	EXPECT_EQ(tunables_json(b.t), tunables_json(before));
	EXPECT_EQ(b.dom, (std::vector<int>{2, 3}));
	EXPECT_EQ(spec, "2-3");
}

TEST(CtlSave, SaveRequest)
{
	FakeBackend b;
	auto r = json::parse(ctl_handle_line(R"({"req":"save"})", b));
	EXPECT_EQ(r["errno"], EIO);
	EXPECT_NE(r["args"]["resp"].get<std::string>().find("not supported"), std::string::npos);
}

}  // namespace
