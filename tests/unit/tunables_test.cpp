// SPDX-License-Identifier: GPL-2.0
// The tunables table and every expansion of it: a field that one of them
// misses fails here.
#include <cstring>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "scx_burst/ctl.hpp"
#include "scx_burst/options.hpp"
#include "scx_burst/tunables.hpp"

#include "doc_section.hpp"

namespace {

using nlohmann::json;
using namespace scx_burst;

// A value of @d that is valid and not its default, in the key's unit.
uint64_t other_value(const TunableDesc &d)
{
	switch (d.kind) {
	case TunableKind::BOOL:
		return 0;
	case TunableKind::POLICY:
		return d.dfl == BURST_POLICY_BURST ? BURST_POLICY_DEADLINE : BURST_POLICY_BURST;
	case TunableKind::UINT:
		return d.dfl < d.max ? d.dfl + 1 : d.dfl - 1;
	}
	return 0;
}

json protocol_value(const TunableDesc &d, uint64_t v)
{
	switch (d.kind) {
	case TunableKind::BOOL:
		return v != 0;
	case TunableKind::POLICY:
		return policy_name(v);
	case TunableKind::UINT:
		return v;
	}
	return nullptr;
}

TEST(Tunables, DefaultsInRange)
{
	burst_tunables t = default_tunables();
	for (const auto &d : kTunables) {
		EXPECT_GE(d.dfl, d.min) << d.key;
		EXPECT_LE(d.dfl, d.max) << d.key;
		EXPECT_LT(d.min, d.max) << d.key;
		EXPECT_EQ(t.*d.field, d.dfl * d.scale) << d.key;
		EXPECT_EQ(tunable_value(t, d), d.dfl) << d.key;
	}
}

TEST(Tunables, EveryFieldThroughTheCli)
{
	for (const auto &d : kTunables) {
		Options o;
		CtlCommand ctl;
		CLI::App app{"test", "scx_burst"};
		add_options(app, o, ctl);
		std::vector<std::string> args;
		std::string flag = d.cli;
		flag = flag.substr(flag.rfind(',') + 1);
		uint64_t v = other_value(d);
		args.push_back(flag);
		if (d.kind == TunableKind::UINT)
			args.push_back(std::to_string(v));
		else if (d.kind == TunableKind::POLICY)
			args.push_back(policy_name(v));
		std::reverse(args.begin(), args.end());
		ASSERT_NO_THROW(app.parse(args)) << d.key;
		burst_tunables want = default_tunables();
		want.*d.field = v * d.scale;
		EXPECT_EQ(std::memcmp(&o.tunables, &want, sizeof(want)), 0)
			<< d.key << " via " << flag << " changed something else or nothing";
	}
}

TEST(Tunables, EveryFieldThroughSetAndGet)
{
	burst_tunables cur = default_tunables();
	json args = json::object();
	burst_tunables want = cur;
	for (const auto &d : kTunables) {
		uint64_t v = other_value(d);
		args[d.key] = protocol_value(d, v);
		want.*d.field = v * d.scale;
	}
	auto t = apply_tunables(cur, args);
	ASSERT_TRUE(t.has_value()) << t.error().msg;
	EXPECT_EQ(std::memcmp(&*t, &want, sizeof(want)), 0);
	json got = tunables_json(*t);
	EXPECT_EQ(got, args);
	EXPECT_EQ(got.size(), (size_t)BURST_NR_TUNABLES);
}

TEST(Tunables, RangesEnforced)
{
	for (const auto &d : kTunables) {
		if (d.kind != TunableKind::UINT)
			continue;
		burst_tunables cur = default_tunables();
		auto hi = apply_tunables(cur, {{d.key, d.max + 1}});
		ASSERT_FALSE(hi.has_value()) << d.key;
		EXPECT_EQ(hi.error().err, ERANGE);
		EXPECT_EQ(hi.error().msg.rfind(d.key, 0), 0u) << hi.error().msg;
		auto neg = apply_tunables(cur, {{d.key, -1}});
		ASSERT_FALSE(neg.has_value()) << d.key;
		EXPECT_EQ(neg.error().err, ERANGE);
		if (d.min > 0) {
			auto lo = apply_tunables(cur, {{d.key, d.min - 1}});
			EXPECT_FALSE(lo.has_value()) << d.key;
		}
		auto ok = apply_tunables(cur, {{d.key, d.max}});
		ASSERT_TRUE(ok.has_value()) << d.key;
		EXPECT_EQ(tunable_value(*ok, d), d.max);
	}
	auto huge = apply_tunables(default_tunables(), json::parse(R"({"slice_us":18446744073709551615})"));
	EXPECT_FALSE(huge.has_value());
}

TEST(Tunables, StoreCopiesEveryField)
{
	burst_tunables src{};
	for (const auto &d : kTunables)
		src.*d.field = 0x1111111111111111ULL * (1 + (&d - kTunables) % 15);
	burst_tunables dst{};
	store_tunables(&dst, src);
	EXPECT_EQ(std::memcmp(&src, &dst, sizeof(src)), 0);
}

TEST(Tunables, DocsTableIsTheTable)
{
	test::expect_doc_section("docs/tunables.md", "tunables table", tunables_markdown(),
				 "build/tests/unit_tests --gtest_filter=Tunables.PrintDocsTable "
				 "--gtest_also_run_disabled_tests");
}

TEST(Tunables, DISABLED_PrintDocsTable)
{
	std::cout << tunables_markdown();
}

}  // namespace
