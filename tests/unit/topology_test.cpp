// SPDX-License-Identifier: GPL-2.0
// CPU lists, topology and sched_ext pre-flight checks on fake sysfs trees.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "scx_burst/sysfs.hpp"
#include "scx_burst/text.hpp"
#include "scx_burst/topology.hpp"

namespace {

namespace fs = std::filesystem;
using namespace scx_burst;

class FakeSysfs : public testing::Test {
protected:
	void SetUp() override
	{
		root_ = fs::temp_directory_path() /
			("scx_burst_test_" + std::to_string(getpid()) + "_" +
			 testing::UnitTest::GetInstance()->current_test_info()->name());
		fs::remove_all(root_);
		fs::create_directories(root_);
	}
	void TearDown() override { fs::remove_all(root_); }

	void put(const std::string &rel, const std::string &text)
	{
		fs::create_directories((root_ / rel).parent_path());
		std::ofstream(root_ / rel) << text << "\n";
	}

	fs::path root_;
};

TEST(Text, TrimAndLowercase)
{
	EXPECT_EQ(trim(" \t0-3,8 \n"), "0-3,8");
	EXPECT_EQ(trim("0 - 1"), "0 - 1");
	EXPECT_EQ(trim(" \n "), "");
	EXPECT_EQ(trim(""), "");
	EXPECT_EQ(lowercase("0XfF Auto"), "0xff auto");
}

TEST(CpuList, Parses)
{
	EXPECT_EQ(*parse_cpulist("0-3"), (std::vector<int>{0, 1, 2, 3}));
	EXPECT_EQ(*parse_cpulist(" 0-1,5, 7-8 \n"), (std::vector<int>{0, 1, 5, 7, 8}));
	EXPECT_EQ(*parse_cpulist("3,1,1"), (std::vector<int>{1, 3}));
	EXPECT_EQ(*parse_cpulist("100-101"), (std::vector<int>{100, 101}));
}

TEST(CpuList, Rejects)
{
	for (const char *bad : {"", " ", "a", "1-", "-1", "3-1", "1,,2", "0x3", "1-2-3",
				"99999"}) {
		auto r = parse_cpulist(bad);
		EXPECT_FALSE(r) << "'" << bad << "' accepted";
		if (!r) {
			EXPECT_NE(r.error().msg.find("invalid CPU list"), std::string::npos);
		}
	}
}

TEST_F(FakeSysfs, TwoLlcsWithSmt)
{
	put("devices/system/cpu/possible", "0-3");
	put("devices/system/cpu/online", "0-3");
	for (int c = 0; c < 4; c++) {
		std::string d = "devices/system/cpu/cpu" + std::to_string(c);
		put(d + "/cache/index0/level", "1");
		put(d + "/cache/index0/type", "Data");
		put(d + "/cache/index0/shared_cpu_list", std::to_string(c));
		put(d + "/cache/index1/level", "1");
		put(d + "/cache/index1/type", "Instruction");
		put(d + "/cache/index1/shared_cpu_list", "0-3");
		put(d + "/cache/index2/level", "3");
		put(d + "/cache/index2/type", "Unified");
		put(d + "/cache/index2/shared_cpu_list", c < 2 ? "0-1" : "2-3");
		put(d + "/topology/thread_siblings_list", c < 2 ? "0-1" : "2-3");
	}
	auto t = read_topology(SysfsPaths::under(root_));
	ASSERT_TRUE(t) << t.error().msg;
	EXPECT_EQ(t->nr_cpu_ids, 4);
	EXPECT_EQ(t->nr_llcs, 2);
	EXPECT_EQ(t->llc_of, (std::vector<int>{0, 0, 1, 1}));
	EXPECT_EQ(t->sibling, (std::vector<int>{1, 0, 3, 2}));
	EXPECT_TRUE(t->smt);
}

TEST_F(FakeSysfs, MissingCacheInfoMeansOneLlc)
{
	put("devices/system/cpu/possible", "0-7");
	put("devices/system/cpu/online", "0-2,5");
	auto t = read_topology(SysfsPaths::under(root_));
	ASSERT_TRUE(t) << t.error().msg;
	EXPECT_EQ(t->nr_cpu_ids, 8);
	EXPECT_EQ(t->online, (std::vector<int>{0, 1, 2, 5}));
	EXPECT_EQ(t->nr_llcs, 1);
	EXPECT_FALSE(t->smt);
}

TEST_F(FakeSysfs, NoPossibleFileIsAnError)
{
	auto t = read_topology(SysfsPaths::under(root_));
	EXPECT_FALSE(t);
}

TEST_F(FakeSysfs, NoSchedExt)
{
	auto r = check_sched_ext(SysfsPaths::under(root_));
	ASSERT_FALSE(r);
	EXPECT_NE(r.error().msg.find("this kernel has no sched_ext: CONFIG_SCHED_CLASS_EXT"),
		  std::string::npos);
}

TEST_F(FakeSysfs, OtherSchedulerActive)
{
	put("kernel/sched_ext/state", "enabled");
	put("kernel/sched_ext/root/ops", "rusty");
	auto r = check_sched_ext(SysfsPaths::under(root_));
	ASSERT_FALSE(r);
	EXPECT_NE(r.error().msg.find("another sched_ext scheduler is already active: rusty"),
		  std::string::npos);
	EXPECT_EQ(r.error().msg.find('\n'), std::string::npos) << r.error().msg;
}

TEST(ActiveScheduler, SaysHowToStopIt)
{
	std::string m = scx_burst::active_scheduler_error("bpfland_1.0.x_gabc", "enabled");
	EXPECT_NE(m.find("active: bpfland_1.0.x_gabc (state enabled)"), std::string::npos) << m;
	EXPECT_NE(m.find("systemctl stop scx"), std::string::npos) << m;
	EXPECT_NE(m.find("scxctl stop"), std::string::npos) << m;
	EXPECT_NE(m.find("end the scx_bpfland process"), std::string::npos) << m;
	m = scx_burst::active_scheduler_error("", "enabled");
	EXPECT_NE(m.find("active: (unnamed)"), std::string::npos) << m;
	EXPECT_EQ(m.find("process"), std::string::npos) << m;
}

TEST_F(FakeSysfs, SchedExtIdle)
{
	put("kernel/sched_ext/state", "disabled");
	EXPECT_TRUE(check_sched_ext(SysfsPaths::under(root_)));
}

}  // namespace
