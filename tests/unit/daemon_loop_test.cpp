// SPDX-License-Identifier: GPL-2.0
// The daemon's restart loop and ctl backend against a fake scheduler and
// a fake system: reloads on a restart request, exit status per exit kind,
// settings kept across a reload, policy switches counted.
#include <deque>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "scx_burst/ctl.hpp"
#include "scx_burst/daemon_loop.hpp"
#include "scx_burst/tunables.hpp"

namespace {

using namespace scx_burst;

constexpr int32_t kUnreg = 64, kErrorBpf = 1025;
constexpr int64_t kRestart = 1LL << 48;

// What one load of the fake scheduler does.
struct Script {
	bool attach_fails = false;	// with exit_kind set: the kernel's refusal
	Outcome outcome = Outcome::UserStop;
	int32_t exit_kind = kUnreg;	// what exit_info() reports after watch
	int64_t exit_code = 0;
	burst_tunables set_while_running{};	// applied during watch if policy != 99
	bool change_tunables = false;
	std::string set_domain_spec;	// `ctl set primary_domain` during watch
};

// What the test reads after run_scheduler() has destroyed the scheduler.
struct Record {
	bool detached = false;
};

struct FakeScheduler : SchedulerApi {
	Script script;
	std::shared_ptr<Record> record = std::make_shared<Record>();
	burst_tunables t{};
	std::vector<int> dom;
	bool attached = false, detached = false;
	int32_t kind = 0;
	int64_t code = 0;
	CompatForms forms{};

	Result<> attach() override
	{
		if (script.attach_fails) {
			kind = script.exit_kind;
			code = script.exit_code;
			return fail("refused");
		}
		attached = true;
		return {};
	}
	void detach() override
	{
		detached = true;
		record->detached = true;
	}
	burst_tunables tunables() const override { return t; }
	void set_tunables(const burst_tunables &n) override { t = n; }
	Result<> set_domain(const std::vector<int> &cpus) override
	{
		dom = cpus;
		domain_sets++;
		return {};
	}
	int domain_sets = 0;
	const std::vector<int> &domain() const override { return dom; }
	bool overflowing() const override { return false; }
	StatsSample read_stats(bool) override
	{
		StatsSample s;
		s.cpus = {0, 1};
		s.per_cpu.assign(2, Counters{});
		return s;
	}
	int task_ctx_map_fd() const override { return -1; }
	bool exited() const override { return kind != 0; }
	ExitInfo exit_info() const override
	{
		ExitInfo ei;
		ei.kind = kind;
		ei.exit_code = code;
		ei.reason = kind ? "fake exit" : "";
		return ei;
	}
	CompatForms compat_forms() const override { return forms; }
	const CompatForms &expected_compat_forms() const override { return forms; }
};

Topology two_cpus()
{
	Topology t;
	t.nr_cpu_ids = 2;
	t.online = {0, 1};
	t.nr_llcs = 1;
	t.llc_of = {0, 0};
	t.sibling = {-1, -1};
	return t;
}

struct FakeEnv : DaemonEnv {
	std::deque<Script> scripts;	// one per load
	std::vector<LoadConfig> loads;	// what each load was given
	std::vector<std::vector<int>> domains;	// domain each load got
	std::vector<std::shared_ptr<Record>> live;	// one per load
	bool fail_load = false;
	uint64_t seq = 7;

	uint64_t hotplug_seq() override { return seq++; }
	Result<Topology> topology() override { return two_cpus(); }
	Result<std::unique_ptr<SchedulerApi>> load(const Topology &,
						   const LoadConfig &cfg) override
	{
		if (fail_load)
			return fail("the kernel refused to load the BPF scheduler");
		loads.push_back(cfg);
		auto s = std::make_unique<FakeScheduler>();
		s->t = cfg.tunables;
		if (!scripts.empty()) {
			s->script = scripts.front();
			scripts.pop_front();
		}
		live.push_back(s->record);
		return std::unique_ptr<SchedulerApi>(std::move(s));
	}
	std::string ops_name() override { return "burst_test"; }
	Outcome watch(SchedulerApi &sched, const Topology &topo,
		      std::string &domain_spec) override
	{
		auto &f = static_cast<FakeScheduler &>(sched);
		domains.push_back(f.dom);
		EXPECT_TRUE(f.attached) << "watch() before attach()";
		if (f.script.change_tunables)
			f.t = f.script.set_while_running;
		if (!f.script.set_domain_spec.empty()) {
			uint64_t switches = 0;
			SchedulerBackend be(sched, topo, [] { return Result<Topology>(two_cpus()); },
					    SchedulerBackend::Clock::now(), switches, domain_spec);
			auto cpus = be.check_domain(f.script.set_domain_spec);
			EXPECT_TRUE(cpus);
			if (cpus) {
				EXPECT_TRUE(be.set_domain(*cpus, f.script.set_domain_spec));
			}
		}
		f.kind = f.script.exit_kind;
		f.code = f.script.exit_code;
		return f.script.outcome;
	}
};

LoadConfig base_config()
{
	LoadConfig cfg;
	cfg.tunables = default_tunables();
	return cfg;
}

TEST(RestartLoop, UserStopOfAHealthySchedulerIsExitZero)
{
	FakeEnv env;
	env.scripts.push_back({.outcome = Outcome::UserStop, .exit_kind = kUnreg});
	EXPECT_EQ(run_scheduler(env, base_config(), "all", "/tmp/x.sock"), 0);
	ASSERT_EQ(env.loads.size(), 1u);
	EXPECT_TRUE(env.live[0]->detached);
	EXPECT_EQ(env.loads[0].hotplug_seq, 7u) << "hotplug_seq read for the load";
}

TEST(RestartLoop, KernelErrorIsExitOne)
{
	FakeEnv env;
	env.scripts.push_back({.outcome = Outcome::KernelExit, .exit_kind = kErrorBpf});
	EXPECT_EQ(run_scheduler(env, base_config(), "all", "/tmp/x.sock"), 1);
	EXPECT_EQ(env.loads.size(), 1u) << "an error exit is not retried";
	EXPECT_TRUE(env.live[0]->detached);
}

TEST(RestartLoop, StopAfterAnErrorStillReportsIt)
{
	FakeEnv env;
	// The signal and the ejection raced: the ejection decides.
	env.scripts.push_back({.outcome = Outcome::UserStop, .exit_kind = kErrorBpf});
	EXPECT_EQ(run_scheduler(env, base_config(), "all", "/tmp/x.sock"), 1);
}

TEST(RestartLoop, RestartRequestReloadsWithRuntimeSettingsAndDomain)
{
	FakeEnv env;
	burst_tunables changed = default_tunables();
	changed.policy = BURST_POLICY_DEADLINE;
	changed.slice_ns = 3000000;
	// Run 1: the user changes settings and the domain, then a CPU
	// hotplug makes the kernel ask for a restart.
	env.scripts.push_back({.outcome = Outcome::KernelExit,
			       .exit_kind = kUnreg,
			       .exit_code = kRestart,
			       .set_while_running = changed,
			       .change_tunables = true,
			       .set_domain_spec = "0x2"});
	env.scripts.push_back({.outcome = Outcome::UserStop, .exit_kind = kUnreg});
	EXPECT_EQ(run_scheduler(env, base_config(), "0x1", "/tmp/x.sock"), 0);
	ASSERT_EQ(env.loads.size(), 2u);
	EXPECT_EQ(env.loads[1].tunables.policy, (uint64_t)BURST_POLICY_DEADLINE);
	EXPECT_EQ(env.loads[1].tunables.slice_ns, 3000000u);
	EXPECT_NE(env.loads[1].hotplug_seq, env.loads[0].hotplug_seq)
		<< "hotplug_seq read again for the reload";
	ASSERT_EQ(env.domains.size(), 2u);
	EXPECT_EQ(env.domains[0], (std::vector<int>{0}));
	EXPECT_EQ(env.domains[1], (std::vector<int>{1})) << "the domain set live survives";
}

TEST(RestartLoop, RefusedAttachWithRestartRequestLoadsAgain)
{
	FakeEnv env;
	env.scripts.push_back({.attach_fails = true, .exit_kind = kUnreg, .exit_code = kRestart});
	env.scripts.push_back({.outcome = Outcome::UserStop, .exit_kind = kUnreg});
	EXPECT_EQ(run_scheduler(env, base_config(), "all", "/tmp/x.sock"), 0);
	EXPECT_EQ(env.loads.size(), 2u);
}

TEST(RestartLoop, RefusedAttachWithoutRestartFails)
{
	FakeEnv env;
	env.scripts.push_back({.attach_fails = true, .exit_kind = 0});
	EXPECT_EQ(run_scheduler(env, base_config(), "all", "/tmp/x.sock"), 1);
	EXPECT_EQ(env.loads.size(), 1u);
}

TEST(RestartLoop, LoadFailureAndBadDomainFail)
{
	FakeEnv env;
	env.fail_load = true;
	EXPECT_EQ(run_scheduler(env, base_config(), "all", "/tmp/x.sock"), 1);

	FakeEnv env2;
	EXPECT_EQ(run_scheduler(env2, base_config(), "0x10", "/tmp/x.sock"), 1)
		<< "CPU 4 does not exist on this machine";
	EXPECT_TRUE(env2.loads.empty());
}

TEST(CtlBackendOfScheduler, CountsPolicySwitchesAndReportsTheDomain)
{
	FakeScheduler sched;
	sched.t = default_tunables();
	Topology topo = two_cpus();
	uint64_t switches = 0;
	std::string spec = "all";
	SchedulerBackend be(sched, topo, [] { return Result<Topology>(fail("no sysfs")); },
			    SchedulerBackend::Clock::now(), switches, spec);

	burst_tunables t = be.get();
	t.slice_ns = 2000000;
	be.set(t);
	EXPECT_EQ(switches, 0u) << "not a policy switch";
	t.policy = BURST_POLICY_DEADLINE;
	be.set(t);
	EXPECT_EQ(switches, 1u);
	EXPECT_EQ(sched.t.policy, (uint64_t)BURST_POLICY_DEADLINE);

	EXPECT_EQ(be.domain(), "all");
	// Topology unreadable now: the one from load is used.
	auto cpus = be.check_domain("1-1");
	ASSERT_TRUE(cpus) << cpus.error().msg;
	ASSERT_TRUE(be.set_domain(*cpus, "1-1"));
	EXPECT_EQ(be.domain(), "1");
	// Kept for the next reload, as a mask: "1" would read back as CPU 0.
	EXPECT_EQ(spec, "0x2");
	ASSERT_TRUE(be.set_domain({}, "all"));
	EXPECT_EQ(spec, "all");
	// A keyword stays the keyword, resolved again at a restart: the CPUs
	// it means may have changed by then (a hotplug).
	ASSERT_TRUE(be.set_domain({0}, " Performance"));
	EXPECT_EQ(be.domain(), "0");
	EXPECT_EQ(spec, "performance");
	ASSERT_TRUE(be.set_domain({1}, "powersave"));
	EXPECT_EQ(spec, "powersave");
	ASSERT_TRUE(be.set_domain({0, 1}, "0-1"));
	EXPECT_EQ(spec, "0x3");
	EXPECT_FALSE(be.check_domain("0x4")) << "CPU 2 does not exist";

	auto st = be.stats();
	EXPECT_EQ(st["policy"], "deadline");
	EXPECT_EQ(st["policy_switches"], 1);
	EXPECT_EQ(st["cpus"].size(), 2u);
}

// --primary-domain auto while running, against a fake /sys where CPU 0 is
// fast and CPU 1 slow.
class ProfileFollowing : public testing::Test {
protected:
	void SetUp() override
	{
		root_ = std::filesystem::temp_directory_path() /
			("scx_burst_follow_" + std::to_string(getpid()) + "_" +
			 testing::UnitTest::GetInstance()->current_test_info()->name());
		std::filesystem::remove_all(root_);
		paths_ = SysfsPaths::under(root_);
		put(paths_.cpu / "cpu0/cpu_capacity", "1024");
		put(paths_.cpu / "cpu1/cpu_capacity", "512");
		sched_.t = default_tunables();
	}
	void TearDown() override { std::filesystem::remove_all(root_); }
	void put(const std::filesystem::path &p, const std::string &v)
	{
		std::filesystem::create_directories(p.parent_path());
		std::ofstream(p) << v << "\n";
	}
	void profile(const std::string &v) { put(paths_.platform_profile, v); }
	SchedulerBackend backend()
	{
		return SchedulerBackend(sched_, topo_,
					[this]() -> Result<Topology> {
						if (unreadable_)
							return std::unexpected(Error{"cannot read online"});
						return now_;
					},
					SchedulerBackend::Clock::now(), switches_, spec_, paths_);
	}
	// Only CPU 1 online, or both.
	void cpu0_online(bool on) { now_.online = on ? std::vector<int>{0, 1} : std::vector<int>{1}; }

	std::filesystem::path root_;
	SysfsPaths paths_;
	FakeScheduler sched_;
	Topology topo_ = two_cpus();
	Topology now_ = two_cpus();	// the CPUs online now
	bool unreadable_ = false;	// reading them fails
	uint64_t switches_ = 0;
	std::string spec_ = "auto";
};

TEST_F(ProfileFollowing, ProfileChangesMoveTheDomainAndNoChangeMovesNothing)
{
	profile("performance");
	sched_.dom = {0};	// as the load resolved it
	auto be = backend();
	EXPECT_FALSE(be.follow_power_profile()) << "the profile of the load";
	EXPECT_FALSE(be.follow_power_profile());
	EXPECT_EQ(sched_.domain_sets, 0);

	profile("low-power");
	EXPECT_TRUE(be.follow_power_profile());
	EXPECT_EQ(sched_.dom, (std::vector<int>{1}));
	EXPECT_EQ(sched_.domain_sets, 1);
	EXPECT_FALSE(be.follow_power_profile());
	profile("quiet");	// another name for the same domain
	EXPECT_FALSE(be.follow_power_profile());
	EXPECT_EQ(sched_.domain_sets, 1);

	profile("balanced");
	EXPECT_TRUE(be.follow_power_profile());
	EXPECT_TRUE(sched_.dom.empty());

	// No platform profile: the EPP of the cpufreq policies.
	std::filesystem::remove(paths_.platform_profile);
	put(paths_.cpu / "cpufreq/policy0/energy_performance_preference", "performance");
	put(paths_.cpu / "cpufreq/policy1/energy_performance_preference", "performance");
	EXPECT_TRUE(be.follow_power_profile());
	EXPECT_EQ(sched_.dom, (std::vector<int>{0}));
	put(paths_.cpu / "cpufreq/policy1/energy_performance_preference", "power");
	EXPECT_TRUE(be.follow_power_profile()) << "mixed EPPs: all CPUs";
	EXPECT_TRUE(sched_.dom.empty());
	EXPECT_EQ(sched_.domain_sets, 4);
	EXPECT_EQ(spec_, "auto") << "still following, for a reload too";
}

TEST_F(ProfileFollowing, AnExplicitDomainWinsUntilAutoIsSetAgain)
{
	profile("performance");
	sched_.dom = {0};
	auto be = backend();
	auto r = ctl_set(be, {{"primary_domain", "all"}});
	ASSERT_EQ(r["errno"], 0) << r.dump();
	EXPECT_EQ(spec_, "all");
	profile("low-power");
	EXPECT_FALSE(be.follow_power_profile()) << "an explicit domain is not followed over";
	EXPECT_TRUE(sched_.dom.empty());

	r = ctl_set(be, {{"primary_domain", "auto"}});
	ASSERT_EQ(r["errno"], 0) << r.dump();
	EXPECT_EQ(spec_, "auto");
	EXPECT_EQ(sched_.dom, (std::vector<int>{1})) << "resolved from the profile now";
	int sets = sched_.domain_sets;
	EXPECT_FALSE(be.follow_power_profile()) << "already there";
	profile("performance");
	EXPECT_TRUE(be.follow_power_profile());
	EXPECT_EQ(sched_.dom, (std::vector<int>{0}));
	EXPECT_EQ(sched_.domain_sets, sets + 1);
}

// The fast CPU 0 is offline when the profile turns to performance: among
// the CPUs online then all have the same capacity, so the domain is all.
// When CPU 0 comes back it joins the domain at once, not at the next
// profile change.
TEST_F(ProfileFollowing, AReturningCpuJoinsAKeywordDomainAtOnce)
{
	profile("balanced");
	auto be = backend();
	cpu0_online(false);
	profile("performance");
	EXPECT_FALSE(be.follow_power_profile()) << "all CPUs online are alike";
	EXPECT_TRUE(sched_.dom.empty());
	cpu0_online(true);
	EXPECT_FALSE(be.follow_power_profile()) << "the profile did not change";
	EXPECT_TRUE(be.cpus_came_back());
	EXPECT_EQ(sched_.dom, (std::vector<int>{0}));
	EXPECT_FALSE(be.cpus_came_back()) << "already there";
	EXPECT_EQ(spec_, "auto");

	// A keyword set explicitly is resolved again too.
	auto r = ctl_set(be, {{"primary_domain", "all"}});
	ASSERT_EQ(r["errno"], 0) << r.dump();
	cpu0_online(false);
	r = ctl_set(be, {{"primary_domain", "performance"}});
	ASSERT_EQ(r["errno"], 0) << r.dump();
	EXPECT_EQ(spec_, "performance");
	EXPECT_TRUE(sched_.dom.empty());
	cpu0_online(true);
	EXPECT_TRUE(be.cpus_came_back());
	EXPECT_EQ(sched_.dom, (std::vector<int>{0}));

	// CPUs named by the user stay as named.
	r = ctl_set(be, {{"primary_domain", "0x2"}});
	ASSERT_EQ(r["errno"], 0) << r.dump();
	cpu0_online(false);
	cpu0_online(true);
	EXPECT_FALSE(be.cpus_came_back());
	EXPECT_EQ(sched_.dom, (std::vector<int>{1}));
}

// A CPU came back but the CPUs online cannot be read: the domain stays,
// not resolved against the CPUs of the load (which may name one that is
// offline now).  Once they can be read, the next return resolves it.
TEST_F(ProfileFollowing, AReturnWithUnreadableCpusKeepsTheDomain)
{
	spec_ = "performance";
	auto be = backend();
	unreadable_ = true;
	EXPECT_FALSE(be.cpus_came_back());
	EXPECT_TRUE(sched_.dom.empty());
	unreadable_ = false;
	EXPECT_TRUE(be.cpus_came_back());
	EXPECT_EQ(sched_.dom, (std::vector<int>{0}));
}

TEST_F(ProfileFollowing, TheLoadResolvesAutoFromTheSameSources)
{
	profile("low-power");
	FakeEnv env;
	env.scripts.push_back({.outcome = Outcome::UserStop, .exit_kind = kUnreg});
	EXPECT_EQ(run_scheduler(env, base_config(), "auto", "/x.sock", paths_), 0);
	ASSERT_EQ(env.domains.size(), 1u);
	EXPECT_EQ(env.domains[0], (std::vector<int>{1}));
}

}  // namespace
