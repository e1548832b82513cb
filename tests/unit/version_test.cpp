// SPDX-License-Identifier: GPL-2.0
// The version line and the ops name the kernel shows for this build.
#include <gtest/gtest.h>

#include <cstring>

#include "scx_burst/scheduler.hpp"	// intf.h's types, before the skeleton
#include "burst_bpf.skel.h"
#include "scx_burst/struct_ops.hpp"
#include "scx_burst/version.hpp"

namespace {

using scx_burst::kOpsNameMax;
using scx_burst::ops_name;

// What the kernel's bpf_obj_name_cpy() accepts for sched_ext_ops.name.
bool kernel_accepts(const std::string &name)
{
	if (name.empty() || name.size() > kOpsNameMax)
		return false;
	for (char c : name)
		if (!isalnum((unsigned char)c) && c != '_' && c != '.')
			return false;
	return true;
}

TEST(Version, OpsNameFromHash)
{
	EXPECT_EQ(ops_name("0.1.0", "ff4de5f0a1b2"), "burst_0.1.0_gff4de5f0a1b2");
	EXPECT_EQ(ops_name("0.1.0", "ff4de5f0a1b2-dirty"), "burst_0.1.0_gff4de5f0a1b2_dirty");
}

TEST(Version, OpsNameFromTaggedDescribe)
{
	EXPECT_EQ(ops_name("0.2.0", "v0.2.0-0-g0123456789ab"), "burst_0.2.0_g0123456789ab");
	EXPECT_EQ(ops_name("0.2.0", "v0.2.0-14-g0123456789ab-dirty"),
		  "burst_0.2.0_g0123456789ab_dirty");
}

TEST(Version, OpsNameOutsideGit)
{
	EXPECT_EQ(ops_name("0.1.0", "unknown"), "burst_0.1.0");
	EXPECT_EQ(ops_name("0.1.0", ""), "burst_0.1.0");
}

TEST(Version, OpsNameKeepsToTheKernelsCharacters)
{
	std::string n = ops_name("1.0-rc1+x", "weird/ref name-dirty");
	EXPECT_TRUE(kernel_accepts(n)) << n;
	EXPECT_EQ(n, "burst_1.0_rc1_x_weird_ref_name_dirty");
	n = ops_name("0.1.0", std::string(300, 'z'));
	EXPECT_TRUE(kernel_accepts(n)) << n;
	EXPECT_EQ(n.size(), kOpsNameMax);
}

TEST(Version, ThisBuild)
{
	std::string v(scx_burst::version());
	std::string rev(scx_burst::git_revision());
	EXPECT_FALSE(v.empty());
	EXPECT_FALSE(rev.empty());
	EXPECT_EQ(scx_burst::version_line(), "scx_burst " + v + " (git " + rev + ")");
	std::string n = ops_name();
	EXPECT_TRUE(kernel_accepts(n)) << n;
	EXPECT_TRUE(n.starts_with("burst_" + v)) << n;
	if (rev != "unknown") {
		EXPECT_NE(n, "burst_" + v) << "the revision is missing from " << n;
	}
}

// The name reaches the bytes the kernel reads as sched_ext_ops.name: where
// the BPF side's static "burst" was.
TEST(Version, OpsNameReachesTheStructOpsMap)
{
	std::unique_ptr<burst_bpf, decltype(&burst_bpf__destroy)> skel(burst_bpf__open(),
								       burst_bpf__destroy);
	ASSERT_TRUE(skel);
	size_t size = 0;
	auto *data = static_cast<char *>(bpf_map__initial_value(skel->maps.burst_ops, &size));
	ASSERT_TRUE(data);
	auto *at = static_cast<char *>(memmem(data, size, "burst", sizeof("burst")));
	ASSERT_TRUE(at) << "no static name \"burst\" in the struct_ops data";

	std::string name = ops_name();
	ASSERT_TRUE(scx_burst::set_struct_ops_string(skel->obj, skel->maps.burst_ops, "name", name));
	EXPECT_EQ(std::string(at), name);

	EXPECT_FALSE(scx_burst::set_struct_ops_string(skel->obj, skel->maps.burst_ops, "name",
						      std::string(128, 'x')));
	EXPECT_EQ(std::string(at), name) << "a refused name changed the map";
	EXPECT_FALSE(scx_burst::set_struct_ops_string(skel->obj, skel->maps.burst_ops,
						      "no_such_member", "x"));
}

}  // namespace
