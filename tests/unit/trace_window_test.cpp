// SPDX-License-Identifier: GPL-2.0
// EventWindow (trace_window.hpp): what a recording keeps, and where its
// window ends when --max-events is reached; DrainLimit: when one drain of
// the ring stops.
#include <gtest/gtest.h>

#include "scx_burst/trace_window.hpp"

namespace {

using scx_burst::trace::DrainLimit;
using scx_burst::trace::EventWindow;

burst_trace_event at(uint64_t ts)
{
	burst_trace_event e{};
	e.ts_ns = ts;
	e.kind = BURST_TR_SWITCH;
	return e;
}

std::vector<uint64_t> times(const std::vector<burst_trace_event> &v)
{
	std::vector<uint64_t> t;
	for (const auto &e : v)
		t.push_back(e.ts_ns);
	return t;
}

TEST(TraceWindow, KeepsTheWindowSorted)
{
	EventWindow w;
	w.start_ns = 100;
	for (uint64_t t : {90, 130, 110, 120, 99})
		w.add(at(t));
	w.end_ns = 125;		// the stop: 130 came before it, and goes
	w.add(at(126));		// drained after the stop: dropped
	w.add(at(125));
	EXPECT_FALSE(w.full());
	uint64_t end = 0;
	auto ev = w.finish(end);
	EXPECT_EQ(end, 125u);
	EXPECT_EQ(times(ev), (std::vector<uint64_t>{110, 120, 125}));
}

// Records arrive almost in time order: an event refused at the cap may be
// earlier than some kept ones.  The window then ends just before it, and
// no event of the window's span is missing.
TEST(TraceWindow, TheCapEndsTheWindowBeforeTheFirstRefusedEvent)
{
	EventWindow w;
	w.start_ns = 0;
	w.max_events = 4;
	for (uint64_t t : {10, 20, 40, 50})
		w.add(at(t));
	EXPECT_FALSE(w.full());
	w.add(at(30));		// later in the ring, earlier in time
	w.add(at(60));
	w.add(at(25));		// refused after the stop: still counts
	EXPECT_TRUE(w.full());
	EXPECT_EQ(w.events.size(), 4u);
	uint64_t end = 0;
	auto ev = w.finish(end);
	EXPECT_EQ(end, 24u);
	EXPECT_EQ(times(ev), (std::vector<uint64_t>{10, 20}));
	for (uint64_t t : times(ev))
		EXPECT_LE(t, end);
}

TEST(TraceWindow, TheCapNeverExtendsTheEnd)
{
	EventWindow w;
	w.max_events = 1;
	w.add(at(5));
	w.add(at(50));
	w.end_ns = 20;
	uint64_t end = 0;
	auto ev = w.finish(end);
	EXPECT_EQ(end, 20u);
	EXPECT_EQ(times(ev), (std::vector<uint64_t>{5}));
}

// A refused event at the window's very start: the window still cannot
// end before it starts (events.bin's reader refuses that).
TEST(TraceWindow, TheEndNeverPrecedesTheStart)
{
	EventWindow w;
	w.start_ns = 100;
	w.max_events = 1;
	w.add(at(150));
	w.add(at(100));
	uint64_t end = 0;
	auto ev = w.finish(end);
	EXPECT_EQ(end, 100u);
	EXPECT_TRUE(ev.empty());
}

TEST(TraceWindow, MemoryStaysBounded)
{
	EventWindow w;
	w.max_events = 1000;
	for (uint64_t t = 1; t <= 100000; t++)
		w.add(at(t));
	EXPECT_EQ(w.events.size(), 1000u);
	EXPECT_EQ(w.first_refused_ns, 1001u);
	uint64_t end = 0;
	EXPECT_EQ(w.finish(end).size(), 1000u);
	EXPECT_EQ(end, 1000u);
}

// Events that never stop coming (a recorder slower than they are): the
// drain stops within check_every events of the limit's time, reading the
// clock once per check_every events, not once per event.
TEST(DrainLimit, AnEndlessStreamStillEnds)
{
	uint64_t clock = 0, reads = 0;
	auto now = [&] {
		reads++;
		return clock;
	};
	DrainLimit d{.until_ns = 1000};
	uint64_t events = 0;
	while (d.go_on(now)) {
		events++;
		clock += 1;	// 1 ns an event
		ASSERT_LT(events, 100000u) << "the drain never stopped";
	}
	EXPECT_GE(clock, 1000u);
	EXPECT_LT(clock, 1000u + d.check_every);
	EXPECT_EQ(reads, (events + 1) / d.check_every);
}

// Before its time a drain goes on for any number of events, and the
// default limit (the last drain, after detaching) never stops one.
TEST(DrainLimit, GoesOnUntilItsTime)
{
	uint64_t clock = 0;
	auto now = [&] { return clock; };
	DrainLimit d{.until_ns = 1000000};
	for (int i = 0; i < 10000; i++)
		ASSERT_TRUE(d.go_on(now));
	DrainLimit all;
	clock = UINT64_MAX - 1;
	for (int i = 0; i < 10000; i++)
		ASSERT_TRUE(all.go_on(now));
	// a limit already passed stops at its first look at the clock
	DrainLimit late{.until_ns = 5};
	clock = 10;
	int n = 0;
	while (late.go_on(now))
		n++;
	EXPECT_EQ(n + 1u, late.check_every);
}

}  // namespace
