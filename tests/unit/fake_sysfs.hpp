// SPDX-License-Identifier: GPL-2.0
// A fixture with a fresh fake /sys per test (removed afterwards) and the
// SysfsPaths under it; put() writes a file as sysfs shows it.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "scx_burst/sysfs.hpp"

class FakeSysfsTree : public testing::Test {
protected:
	void SetUp() override
	{
		root_ = std::filesystem::temp_directory_path() /
			("scx_burst_sysfs_" + std::to_string(getpid()) + "_" +
			 testing::UnitTest::GetInstance()->current_test_info()->name());
		std::filesystem::remove_all(root_);
		std::filesystem::create_directories(root_);
		paths_ = scx_burst::SysfsPaths::under(root_);
	}
	void TearDown() override { std::filesystem::remove_all(root_); }
	void put(const std::filesystem::path &p, const std::string &v)
	{
		std::filesystem::create_directories(p.parent_path());
		std::ofstream(p) << v << "\n";
	}
	std::filesystem::path root_;
	scx_burst::SysfsPaths paths_;
};
