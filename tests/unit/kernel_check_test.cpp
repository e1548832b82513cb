// SPDX-License-Identifier: GPL-2.0
// Kernel-interface checks: which form each compat shim takes on kernels
// described by their kfunc sets (the 7.2/7.3 ones, 6.13-like, 6.12-like).
#include <fstream>
#include <iostream>
#include <sstream>

#include <gtest/gtest.h>

#include "scx_burst/kernel_check.hpp"
#include "scx_burst/scheduler.hpp"

#include "doc_section.hpp"

namespace {

using namespace scx_burst;

// The kfuncs and enum values of compat_table.h that the Debian 7.2 and
// 7.3 kernels have (checked against their BTF when the table was written).
std::set<std::string> kernel_7x()
{
	return {"scx_bpf_dsq_insert___v2", "scx_bpf_dsq_insert",
		"__scx_bpf_dsq_insert_vtime", "scx_bpf_dsq_insert_vtime",
		"scx_bpf_dsq_move_to_local___v2", "scx_bpf_dsq_move_to_local",
		"scx_bpf_dsq_move", "scx_bpf_dsq_move_set_slice", "scx_bpf_dsq_peek",
		"bpf_iter_scx_dsq_new", "scx_bpf_now", "scx_bpf_task_set_slice",
		"SCX_ENQ_IMMED", "scx_bpf_reenqueue_local___v2", "scx_bpf_kick_cpu"};
}

// 6.13's: the renamed kfuncs, no peek/now/set_slice yet; 6.12 also has
// the old names.
std::set<std::string> kernel_613()
{
	return {"scx_bpf_dsq_insert", "scx_bpf_dsq_insert_vtime",
		"scx_bpf_dsq_move_to_local", "scx_bpf_dsq_move",
		"scx_bpf_dsq_move_set_slice", "bpf_iter_scx_dsq_new",
		"scx_bpf_dispatch", "scx_bpf_dispatch_vtime", "scx_bpf_consume",
		"scx_bpf_dispatch_from_dsq", "scx_bpf_dispatch_from_dsq_set_slice",
		"scx_bpf_kick_cpu"};
}

std::set<std::string> kernel_612()
{
	return {"scx_bpf_dispatch", "scx_bpf_dispatch_vtime", "scx_bpf_consume",
		"scx_bpf_dispatch_from_dsq", "scx_bpf_dispatch_from_dsq_set_slice",
		"bpf_iter_scx_dsq_new", "scx_bpf_kick_cpu"};
}

KernelSymbols ks(std::set<std::string> f, const char *release)
{
	return KernelSymbols(std::move(f), kernel_version_code(release), release);
}

TEST(KernelCheck, VersionCodes)
{
	EXPECT_EQ(kernel_version_code("7.2.13+deb14-cloud-amd64"), (7u << 16) + (2u << 8) + 13);
	EXPECT_EQ(kernel_version_code("6.19"), (6u << 16) + (19u << 8));
	EXPECT_EQ(kernel_version_code("6.1.300"), (6u << 16) + (1u << 8) + 255);
	EXPECT_EQ(kernel_version_code("garbage"), 0u);
	EXPECT_EQ(kernel_version_code(""), 0u);
	EXPECT_LT(kernel_version_code("7.0.9"), kernel_version_code("7.1"));
}

TEST(KernelCheck, StripsOneFlavour)
{
	EXPECT_EQ(strip_flavour("scx_bpf_dsq_insert___v2___burst"), "scx_bpf_dsq_insert___v2");
	EXPECT_EQ(strip_flavour("scx_bpf_consume___burst"), "scx_bpf_consume");
	EXPECT_EQ(strip_flavour("scx_bpf_kick_cpu"), "scx_bpf_kick_cpu");
	EXPECT_EQ(strip_flavour("__scx_bpf_dsq_insert_vtime"), "__scx_bpf_dsq_insert_vtime");
}

TEST(KernelCheck, NewestFormsOnTheTestedKernels)
{
	auto f = expected_forms(ks(kernel_7x(), "7.2.13"), 0);
	ASSERT_TRUE(f) << f.error().msg;
	for (const auto &s : kCompatShims)
		EXPECT_EQ((*f)[s.id], BURST_FORM_NEW) << s.key;
	EXPECT_EQ(compat_report(*f, 0),
		  "dsq-insert=scx_bpf_dsq_insert___v2 dsq-insert-vtime=__scx_bpf_dsq_insert_vtime "
		  "dsq-move-to-local=scx_bpf_dsq_move_to_local___v2 dsq-move=scx_bpf_dsq_move "
		  "dsq-peek=scx_bpf_dsq_peek now=scx_bpf_now task-set-slice=scx_bpf_task_set_slice "
		  "enq-immed=SCX_ENQ_IMMED reenq-local=scx_bpf_reenqueue_local___v2");
}

TEST(KernelCheck, PeekOnlyFrom71)
{
	// 6.19-7.0 have the kfunc, but it can miss a FIFO queue's head.
	auto f = expected_forms(ks(kernel_7x(), "7.0.5"), 0);
	ASSERT_TRUE(f);
	EXPECT_EQ((*f)[BURST_COMPAT_PEEK], BURST_FORM_OLD);
	EXPECT_EQ((*f)[BURST_COMPAT_INSERT], BURST_FORM_NEW);
}

TEST(KernelCheck, ImmedWhereTheKernelHasTheFlag)
{
	// a form that is an enum value, not a kfunc: 7.0 lacks it
	auto k70 = kernel_7x();
	k70.erase("SCX_ENQ_IMMED");
	auto f = expected_forms(ks(k70, "7.0.5"), 0);
	ASSERT_TRUE(f) << f.error().msg;
	EXPECT_EQ((*f)[BURST_COMPAT_ENQ_IMMED], BURST_FORM_OLD);
	auto g = expected_forms(ks(kernel_7x(), "7.1.0"), 0);
	ASSERT_TRUE(g) << g.error().msg;
	EXPECT_EQ((*g)[BURST_COMPAT_ENQ_IMMED], BURST_FORM_NEW);
}

TEST(KernelCheck, CpuReleaseOnlyWhereItHandsTasksBack)
{
	// 7.1 on: SCX_ENQ_IMMED does it, the callback stays out
	auto f = expected_forms(ks(kernel_7x(), "7.2.13"), 0);
	ASSERT_TRUE(f) << f.error().msg;
	EXPECT_FALSE(wants_cpu_release(*f));
	// 6.19-7.0: the deferred re-enqueue without the flag
	auto k70 = kernel_7x();
	k70.erase("SCX_ENQ_IMMED");
	auto g = expected_forms(ks(k70, "7.0.5"), 0);
	ASSERT_TRUE(g) << g.error().msg;
	EXPECT_EQ((*g)[BURST_COMPAT_REENQ_LOCAL], BURST_FORM_NEW);
	EXPECT_TRUE(wants_cpu_release(*g));
	// before 6.19: neither, nothing to call
	auto h = expected_forms(ks(kernel_613(), "6.13.2"), 0);
	ASSERT_TRUE(h) << h.error().msg;
	EXPECT_EQ((*h)[BURST_COMPAT_REENQ_LOCAL], BURST_FORM_OLD);
	EXPECT_FALSE(wants_cpu_release(*h));
	// forced on 7.2, as the VM test does: the flag off, then both off
	auto k = ks(kernel_7x(), "7.2.13");
	auto one = parse_debug_compat("enq-immed", k);
	ASSERT_TRUE(one) << one.error().msg;
	auto fo = expected_forms(k, *one);
	ASSERT_TRUE(fo) << fo.error().msg;
	EXPECT_TRUE(wants_cpu_release(*fo));
	auto both = parse_debug_compat("enq-immed,reenq-local", k);
	ASSERT_TRUE(both) << both.error().msg;
	auto fb = expected_forms(k, *both);
	ASSERT_TRUE(fb) << fb.error().msg;
	EXPECT_FALSE(wants_cpu_release(*fb));
}

TEST(KernelCheck, OlderKernelsTakeTheFallbacks)
{
	auto f = expected_forms(ks(kernel_613(), "6.13.2"), 0);
	ASSERT_TRUE(f) << f.error().msg;
	EXPECT_EQ((*f)[BURST_COMPAT_INSERT], BURST_FORM_OLD);
	EXPECT_EQ((*f)[BURST_COMPAT_MOVE_TO_LOCAL], BURST_FORM_OLD);
	EXPECT_EQ((*f)[BURST_COMPAT_DSQ_MOVE], BURST_FORM_NEW);
	EXPECT_EQ((*f)[BURST_COMPAT_NOW], BURST_FORM_OLD);
	EXPECT_EQ((*f)[BURST_COMPAT_SET_SLICE], BURST_FORM_OLD);
	EXPECT_EQ((*f)[BURST_COMPAT_ENQ_IMMED], BURST_FORM_OLD);

	auto g = expected_forms(ks(kernel_612(), "6.12.48"), 0);
	ASSERT_TRUE(g) << g.error().msg;
	EXPECT_EQ((*g)[BURST_COMPAT_INSERT], BURST_FORM_LEGACY);
	EXPECT_EQ((*g)[BURST_COMPAT_INSERT_VTIME], BURST_FORM_LEGACY);
	EXPECT_EQ((*g)[BURST_COMPAT_MOVE_TO_LOCAL], BURST_FORM_LEGACY);
	EXPECT_EQ((*g)[BURST_COMPAT_DSQ_MOVE], BURST_FORM_OLD);
	EXPECT_EQ((*g)[BURST_COMPAT_PEEK], BURST_FORM_OLD);
	EXPECT_EQ((*g)[BURST_COMPAT_ENQ_IMMED], BURST_FORM_OLD);
}

TEST(KernelCheck, AMissingInterfaceIsNamedWithItsKernels)
{
	auto f = kernel_7x();
	f.erase("scx_bpf_dsq_insert___v2");
	f.erase("scx_bpf_dsq_insert");
	auto r = expected_forms(ks(f, "7.9.1"), 0);
	ASSERT_FALSE(r);
	EXPECT_EQ(r.error().msg,
		  "kernel 7.9.1 lacks scx_bpf_dsq_insert___v2 (Linux 6.19 and later) and "
		  "scx_bpf_dsq_insert (Linux 6.13-6.18) and scx_bpf_dispatch (Linux "
		  "6.12-6.16): scx_burst needs sched_ext from Linux 6.12 on");
}

TEST(KernelCheck, DebugCompatForcesWhatTheKernelStillHas)
{
	auto k = ks(kernel_7x(), "7.3.4");
	auto all = parse_debug_compat("all", k);
	ASSERT_TRUE(all) << all.error().msg;
	// every shim but dsq-move: 7.x no longer has scx_bpf_dispatch_from_dsq
	EXPECT_EQ(*all, ((1ULL << BURST_NR_COMPAT) - 1) & ~(1ULL << BURST_COMPAT_DSQ_MOVE));
	auto f = expected_forms(k, *all);
	ASSERT_TRUE(f);
	EXPECT_EQ((*f)[BURST_COMPAT_INSERT], BURST_FORM_OLD);
	EXPECT_EQ((*f)[BURST_COMPAT_DSQ_MOVE], BURST_FORM_NEW);
	EXPECT_EQ(compat_report(*f, *all),
		  "dsq-insert=scx_bpf_dsq_insert(forced) "
		  "dsq-insert-vtime=scx_bpf_dsq_insert_vtime(forced) "
		  "dsq-move-to-local=scx_bpf_dsq_move_to_local(forced) dsq-move=scx_bpf_dsq_move "
		  "dsq-peek=bpf_iter_scx_dsq_new(forced) now=fallback(forced) "
		  "task-set-slice=fallback(forced) enq-immed=fallback(forced) "
		  "reenq-local=fallback(forced)");

	auto two = parse_debug_compat("dsq-peek,now", k);
	ASSERT_TRUE(two);
	EXPECT_EQ(*two, (1ULL << BURST_COMPAT_PEEK) | (1ULL << BURST_COMPAT_NOW));
	EXPECT_EQ(*parse_debug_compat("", k), 0u);
	EXPECT_EQ(*parse_debug_compat("none", k), 0u);
}

TEST(KernelCheck, DebugCompatRefusesWhatCannotRun)
{
	auto k = ks(kernel_7x(), "7.3.4");
	auto r = parse_debug_compat("dsq-move", k);
	ASSERT_FALSE(r);
	EXPECT_NE(r.error().msg.find("scx_bpf_dispatch_from_dsq"), std::string::npos)
		<< r.error().msg;
	EXPECT_NE(r.error().msg.find("6.12-6.16"), std::string::npos) << r.error().msg;
	for (const char *bad : {"nosuch", "dsq-peek,,bogus", "ALL", "dsq-peek;now"}) {
		auto b = parse_debug_compat(bad, k);
		EXPECT_FALSE(b) << bad;
	}
	EXPECT_EQ(parse_debug_compat("x\xff", k).error().msg.find('\n'), std::string::npos);
}

TEST(KernelCheck, RequiredKfuncsOutsideTheShims)
{
	auto k = ks(kernel_7x(), "7.2.13");
	// shim names (in any form) are checked by expected_forms, not here
	EXPECT_TRUE(check_required_kfuncs({"scx_bpf_kick_cpu", "scx_bpf_consume",
					   "scx_bpf_dsq_insert___v2"}, k));
	auto r = check_required_kfuncs({"scx_bpf_kick_cpu", "scx_bpf_nosuch",
					"scx_bpf_other"}, k);
	ASSERT_FALSE(r);
	EXPECT_EQ(r.error().msg, "kernel 7.2.13 lacks the kfuncs scx_bpf_nosuch, "
		  "scx_bpf_other that scx_burst calls (every sched_ext kernel from "
		  "Linux 6.12 on has them)");
}

// Every table entry is complete: keys unique, a new form and its kernel.
TEST(KernelCheck, TableEntriesAreComplete)
{
	std::set<std::string> keys;
	for (const auto &s : kCompatShims) {
		EXPECT_TRUE(keys.insert(s.key).second) << s.key;
		EXPECT_NE(std::string(s.new_form), "") << s.key;
		EXPECT_GT(kernel_version_code(s.new_since), kernel_version_code("6.12")) << s.key;
		EXPECT_NE(std::string(s.old_kernels), "") << s.key;
		EXPECT_NE(std::string(s.why), "") << s.key;
	}
}

// The daemon's exit message names the kind (enum scx_exit_kind).
TEST(ExitInfo, KindsInWords)
{
	ExitInfo ei;
	ei.kind = 64;
	EXPECT_EQ(ei.kind_name(), "unregistered");
	EXPECT_FALSE(ei.is_error());
	ei.kind = 1025;
	EXPECT_EQ(ei.kind_name(), "BPF error");
	EXPECT_TRUE(ei.is_error());
	ei.kind = 1026;
	EXPECT_EQ(ei.kind_name(), "watchdog stall");
	ei.kind = 1099;	// a kind newer than this table
	EXPECT_EQ(ei.kind_name(), "error");
	ei.exit_code = 1LL << 48;
	EXPECT_TRUE(ei.should_restart());
}

// docs/kernels.md carries the table as compat_markdown() prints it.
TEST(KernelCheck, DocsTableMatches)
{
	test::expect_doc_section("docs/kernels.md", "compat table", compat_markdown(),
				 "build/tests/unit_tests "
				 "--gtest_filter=KernelCheck.DISABLED_PrintDocsTable "
				 "--gtest_also_run_disabled_tests");
}

TEST(KernelCheck, DISABLED_PrintDocsTable)
{
	std::cout << compat_markdown();
}

}  // namespace
