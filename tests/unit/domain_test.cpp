// SPDX-License-Identifier: GPL-2.0
// Primary domain specs: masks, lists, keywords on fake sysfs trees.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <unistd.h>

#include "fake_sysfs.hpp"
#include "scx_burst/domain.hpp"

namespace {

namespace fs = std::filesystem;
using namespace scx_burst;
using V = std::vector<int>;

TEST(Mask, Parses)
{
	EXPECT_EQ(*parse_hex_mask("0x3"), (V{0, 1}));
	EXPECT_EQ(*parse_hex_mask("0x00fff"), (V{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
	EXPECT_EQ(*parse_hex_mask("ff000"), (V{12, 13, 14, 15, 16, 17, 18, 19}));
	EXPECT_EQ(*parse_hex_mask(" 0XA \n"), (V{1, 3}));
	EXPECT_EQ(*parse_hex_mask("Ab"), *parse_hex_mask("0xaB"));
	// wider than 64 CPUs: bit 64 and bit 100
	EXPECT_EQ(*parse_hex_mask("0x10000000000000000000000001"), (V{0, 100}));
	EXPECT_EQ(*parse_hex_mask("1,00000000,00000001"), (V{0, 64}));
	EXPECT_EQ(*parse_hex_mask("0x0"), V{});
}

TEST(Mask, Rejects)
{
	for (const char *bad : {"", "0x", "xyz", "0x1g", "0x-1", "1,2", "1,,00000000", "ff,0000000"})
		EXPECT_FALSE(parse_hex_mask(bad)) << bad;
	// beyond BURST_MAX_CPUS (512)
	EXPECT_FALSE(parse_hex_mask("1" + std::string(128, '0')));
}

TEST(Mask, RoundTrips)
{
	for (const V &v : {V{0}, V{0, 1}, V{3, 5, 7}, V{0, 1, 2, 3, 8, 9, 63, 64, 65, 130},
			   V{12, 13, 14, 15, 16, 17, 18, 19}}) {
		EXPECT_EQ(*parse_hex_mask(format_hex_mask(v)), v) << format_hex_mask(v);
		EXPECT_EQ(*parse_cpulist(format_cpulist(v)), v) << format_cpulist(v);
	}
	EXPECT_EQ(format_cpulist({0, 1, 2, 3, 4, 5, 12, 14, 15}), "0-5,12,14-15");
	EXPECT_EQ(format_domain({}), "all");
	EXPECT_EQ(format_domain({2, 3}), "2-3");
	EXPECT_EQ(format_hex_mask({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), "0xfff");
}

TEST(Cpus, ListAndMaskAgree)
{
	EXPECT_EQ(*parse_cpus("0-1"), *parse_cpus("0x3"));
	EXPECT_EQ(*parse_cpus("0-5,12,14-15"), *parse_cpus("0xd03f"));
	EXPECT_EQ(*parse_cpus("12-19"), *parse_cpus("ff000"));
	EXPECT_EQ(*parse_cpus("3"), (V{0, 1}));		// bare digits: a mask, as taskset
	EXPECT_EQ(*parse_cpus("3-3"), (V{3}));
	EXPECT_EQ(*parse_cpus(" 0 - 1 "), (V{0, 1}));
	EXPECT_FALSE(parse_cpus("1-0"));
	EXPECT_FALSE(parse_cpus("a-b"));
}

TEST(Keyword, NamedOnlyByTheFourWords)
{
	EXPECT_EQ(domain_keyword("all"), "all");
	EXPECT_EQ(domain_keyword(" Performance "), "performance");
	EXPECT_EQ(domain_keyword("POWERSAVE"), "powersave");
	EXPECT_EQ(domain_keyword("auto"), "auto");
	EXPECT_EQ(domain_keyword("0xff"), "");
	EXPECT_EQ(domain_keyword("0-3"), "");
	EXPECT_EQ(domain_keyword("fast"), "");
	EXPECT_EQ(domain_keyword(""), "");
}

Topology topo4()
{
	Topology t;
	t.nr_cpu_ids = 4;
	t.online = {0, 1, 2, 3};
	t.llc_of = {0, 0, 0, 0};
	t.sibling = {-1, -1, -1, -1};
	return t;
}

using FakeTree = FakeSysfsTree;

TEST_F(FakeTree, ExplicitSpecsValidated)
{
	auto t = topo4();
	EXPECT_EQ(resolve_domain("0x3", t, paths_)->cpus, (V{0, 1}));
	EXPECT_EQ(resolve_domain("2-3", t, paths_)->cpus, (V{2, 3}));
	EXPECT_TRUE(resolve_domain("0-3", t, paths_)->cpus.empty());	// all = no domain
	EXPECT_TRUE(resolve_domain("all", t, paths_)->cpus.empty());
	auto empty = resolve_domain("0x0", t, paths_);
	ASSERT_FALSE(empty);
	EXPECT_NE(empty.error().msg.find("names no CPU"), std::string::npos);
	auto missing = resolve_domain("0x30", t, paths_);
	ASSERT_FALSE(missing);
	EXPECT_NE(missing.error().msg.find("CPU 4 does not exist"), std::string::npos);
	t.online = {0, 1, 2};
	auto off = resolve_domain("2-3", t, paths_);
	ASSERT_FALSE(off);
	EXPECT_NE(off.error().msg.find("CPU 3 is offline"), std::string::npos);
	EXPECT_FALSE(resolve_domain("fast", t, paths_));
}

// After a hotplug the daemon applies the domain it was asked for to the
// CPUs online then: offline ones are left out, none online is no domain.
TEST_F(FakeTree, AfterHotplugOnlineCpusOfTheDomain)
{
	auto t = topo4();
	t.online = {0, 1, 3};
	auto part = resolve_domain("2-3", t, paths_, true);
	ASSERT_TRUE(part) << part.error().msg;
	EXPECT_EQ(part->cpus, (V{3}));
	EXPECT_NE(part->why.find("CPU 2 is offline: using 3 until it returns"), std::string::npos)
		<< part->why;
	t.online = {0, 1};
	auto none = resolve_domain("2-3", t, paths_, true);
	ASSERT_TRUE(none) << none.error().msg;
	EXPECT_TRUE(none->cpus.empty());
	EXPECT_NE(none->why.find("CPUs 2-3 are offline: no primary domain until they return"),
		  std::string::npos)
		<< none->why;
	t.online = {0, 1, 2, 3};
	EXPECT_EQ(resolve_domain("2-3", t, paths_, true)->cpus, (V{2, 3}));
	// a CPU the machine does not have is still an error
	EXPECT_FALSE(resolve_domain("0x30", t, paths_, true));
}

TEST_F(FakeTree, HybridPmus)
{
	put(root_ / "devices/cpu_core/cpus", "0-1");
	put(root_ / "devices/cpu_atom/cpus", "2-3");
	auto p = resolve_domain("performance", topo4(), paths_);
	ASSERT_TRUE(p) << p.error().msg;
	EXPECT_EQ(p->cpus, (V{0, 1}));
	EXPECT_NE(p->why.find("hybrid"), std::string::npos);
	EXPECT_EQ(resolve_domain("powersave", topo4(), paths_)->cpus, (V{2, 3}));
}

TEST_F(FakeTree, CpuCapacityWins)
{
	for (int c = 0; c < 4; c++)
		put(paths_.cpu / ("cpu" + std::to_string(c)) / "cpu_capacity", c == 3 ? "1024" : "512");
	put(root_ / "devices/cpu_core/cpus", "0-1");
	put(root_ / "devices/cpu_atom/cpus", "2-3");
	EXPECT_EQ(resolve_domain("performance", topo4(), paths_)->cpus, (V{3}));
	EXPECT_EQ(resolve_domain("powersave", topo4(), paths_)->cpus, (V{0, 1, 2}));
}

// Preferred-core boosting gives a few CPUs a little more than the rest
// of their kind: performance is still every fast core, powersave the
// others.
TEST_F(FakeTree, PerformanceIsAtLeastTheAverageCapacity)
{
	const char *cap[] = {"1024", "985", "420", "420"};	// average 712.25
	for (int c = 0; c < 4; c++)
		put(paths_.cpu / ("cpu" + std::to_string(c)) / "cpu_capacity", cap[c]);
	auto p = resolve_domain("performance", topo4(), paths_);
	ASSERT_TRUE(p);
	EXPECT_EQ(p->cpus, (V{0, 1}));
	EXPECT_NE(p->why.find("at least the average capacity"), std::string::npos) << p->why;
	EXPECT_EQ(resolve_domain("powersave", topo4(), paths_)->cpus, (V{2, 3}));
	// A CPU exactly at the average is a performance CPU.
	const char *even[] = {"600", "400", "500", "500"};
	for (int c = 0; c < 4; c++)
		put(paths_.cpu / ("cpu" + std::to_string(c)) / "cpu_capacity", even[c]);
	EXPECT_EQ(resolve_domain("performance", topo4(), paths_)->cpus, (V{0, 2, 3}));
	EXPECT_EQ(resolve_domain("powersave", topo4(), paths_)->cpus, (V{1}));
}

TEST_F(FakeTree, CpufreqFallback)
{
	for (int c = 0; c < 4; c++)
		put(paths_.cpu / ("cpu" + std::to_string(c)) / "cpufreq/cpuinfo_max_freq",
		    c < 2 ? "4800000" : "3200000");
	EXPECT_EQ(resolve_domain("performance", topo4(), paths_)->cpus, (V{0, 1}));
	EXPECT_EQ(resolve_domain("powersave", topo4(), paths_)->cpus, (V{2, 3}));
}

TEST_F(FakeTree, UniformSaysSoAndUsesAll)
{
	for (int c = 0; c < 4; c++)
		put(paths_.cpu / ("cpu" + std::to_string(c)) / "cpufreq/cpuinfo_max_freq", "3000000");
	auto p = resolve_domain("performance", topo4(), paths_);
	ASSERT_TRUE(p);
	EXPECT_TRUE(p->cpus.empty());
	EXPECT_NE(p->why.find("same capacity"), std::string::npos);
}

TEST_F(FakeTree, MissingFilesMeanAll)
{
	auto p = resolve_domain("powersave", topo4(), paths_);
	ASSERT_TRUE(p);
	EXPECT_TRUE(p->cpus.empty());
	EXPECT_NE(p->why.find("no CPU capacity"), std::string::npos);
	auto a = resolve_domain("auto", topo4(), paths_);
	ASSERT_TRUE(a);
	EXPECT_TRUE(a->cpus.empty());
	EXPECT_NE(a->why.find("no power profile"), std::string::npos);
}

TEST_F(FakeTree, AutoFollowsPlatformProfile)
{
	put(root_ / "devices/cpu_core/cpus", "0-1");
	put(root_ / "devices/cpu_atom/cpus", "2-3");
	put(paths_.platform_profile, "low-power");
	EXPECT_EQ(resolve_domain("auto", topo4(), paths_)->cpus, (V{2, 3}));
	put(paths_.platform_profile, "performance");
	EXPECT_EQ(resolve_domain("auto", topo4(), paths_)->cpus, (V{0, 1}));
	put(paths_.platform_profile, "balanced");
	EXPECT_TRUE(resolve_domain("auto", topo4(), paths_)->cpus.empty());
}

}  // namespace
