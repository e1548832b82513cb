// SPDX-License-Identifier: GPL-2.0
// The three pictures of `scx_burst trace`, drawn as SVG text: cpus.svg
// (which task ran on each CPU over time), running_waiting.svg (running
// and waiting tasks over time, with "idle while work waited" marked) and
// latency.svg (wakeup-latency CDFs on a log axis).  Time is cut into a
// fixed number of pixel columns and each column is drawn once, so a
// picture's size is bounded by its width times its rows, not by the
// length of the recording.
#include "trace_model.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

namespace scx_burst::trace {

namespace {

// Layout shared by the pictures (px).
constexpr int kLeft = 90;		// room for row and axis labels
constexpr int kPlotW = 1000;		// one column per pixel
constexpr int kRight = 30;
constexpr int kTop = 40;		// title
constexpr int kWidth = kLeft + kPlotW + kRight;

std::string xml_escape(const std::string &s)
{
	std::string r;
	for (char c : s) {
		switch (c) {
		case '&': r += "&amp;"; break;
		case '<': r += "&lt;"; break;
		case '>': r += "&gt;"; break;
		case '"': r += "&quot;"; break;
		case '\'': r += "&apos;"; break;
		default:
			// Control characters are not allowed in XML 1.0 text.
			r += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
		}
	}
	return r;
}

// A small SVG writer: elements appended in order, numbers with one
// decimal so that the same drawing is always the same text.
class Svg {
public:
	Svg(int width, int height, const std::string &title)
	{
		s_ = fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
				 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" "
				 "height=\"{1}\" viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" "
				 "font-size=\"11\">\n"
				 "<rect x=\"0\" y=\"0\" width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
				 width, height);
		text(width / 2.0, 20, title, "middle", 14);
	}

	void rect(double x, double y, double w, double h, const std::string &fill,
		  double opacity = 1.0)
	{
		s_ += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
				  "fill=\"{}\"", x, y, w, h, fill);
		if (opacity < 1.0)
			s_ += fmt::format(" fill-opacity=\"{:.2f}\"", opacity);
		s_ += "/>\n";
	}

	void line(double x1, double y1, double x2, double y2, const std::string &stroke,
		  double width = 1.0)
	{
		s_ += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" "
				  "stroke=\"{}\" stroke-width=\"{:.1f}\"/>\n", x1, y1, x2, y2, stroke,
				  width);
	}

	void text(double x, double y, const std::string &t, const char *anchor = "start",
		  int size = 11, const char *extra = "")
	{
		s_ += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"{}\" "
				  "font-size=\"{}\"{}>{}</text>\n", x, y, anchor, size, extra,
				  xml_escape(t));
	}

	void polyline(const std::vector<std::pair<double, double>> &pts, const std::string &stroke,
		      const std::string &cls)
	{
		s_ += fmt::format("<polyline class=\"{}\" fill=\"none\" stroke=\"{}\" "
				  "stroke-width=\"1.5\" points=\"", cls, stroke);
		for (size_t i = 0; i < pts.size(); i++)
			s_ += fmt::format("{}{:.1f},{:.1f}", i ? " " : "", pts[i].first, pts[i].second);
		s_ += "\"/>\n";
	}

	void raw(const std::string &s) { s_ += s; }

	std::string done() { return s_ + "</svg>\n"; }

private:
	std::string s_;
};

// A duration in the unit that suits @step (the axis tick spacing).
std::string time_label(uint64_t ns, uint64_t step)
{
	if (step >= 1000000000)
		return fmt::format("{:g} s", ns / 1e9);
	if (step >= 1000000)
		return fmt::format("{:g} ms", ns / 1e6);
	if (step >= 1000)
		return fmt::format("{:g} µs", ns / 1e3);
	return fmt::format("{} ns", ns);
}

// 1, 2 or 5 times a power of ten: about @n ticks over @len.
uint64_t tick_step(uint64_t len, int n)
{
	uint64_t step = 1;
	for (; step <= UINT64_MAX / 50; step *= 10)
		for (uint64_t f : {1, 2, 5})
			if (len / (step * f) <= static_cast<uint64_t>(n))
				return step * f;
	return step;
}

// The x axis under a plot of the recording's span, at @y.
void time_axis(Svg &svg, const Model &m, double y)
{
	const uint64_t len = std::max<uint64_t>(m.span.length(), 1);
	svg.line(kLeft, y, kLeft + kPlotW, y, "black");
	const uint64_t step = tick_step(len, 10);
	for (uint64_t t = 0;; t += step) {
		const double x = kLeft + static_cast<double>(t) * kPlotW / len;
		svg.line(x, y, x, y + 4, "black");
		svg.text(x, y + 16, time_label(t, step), "middle");
		if (len - t < step)
			break;
	}
	svg.text(kLeft + kPlotW / 2.0, y + 32, "time since the recording began", "middle");
}

// Where column @k (0..kPlotW) of the span begins.
uint64_t column_start(const Model &m, int k)
{
	// len * k / kPlotW without overflow: len = q * kPlotW + r.
	const uint64_t len = m.span.length(), uk = static_cast<uint64_t>(k);
	return m.span.start + len / kPlotW * uk + len % kPlotW * uk / kPlotW;
}

const std::array<const char *, 12> kPalette = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
	"#e377c2", "#17becf", "#bcbd22", "#393b79", "#ad494a", "#637939",
};
constexpr const char *kGrey = "#b0b0b0";
constexpr int kScores = 40;	// burst scores 0..39

// Score 0 (interactive) blue through green and yellow to 39 (hog) red.
std::string score_colour(int score)
{
	const double h = 240.0 * (1.0 - score / static_cast<double>(kScores - 1));
	const double x = 1.0 - std::fabs(std::fmod(h / 60.0, 2.0) - 1.0);
	double r = 0, g = 0, b = 0;
	if (h < 60)
		r = 1, g = x;
	else if (h < 120)
		r = x, g = 1;
	else if (h < 180)
		g = 1, b = x;
	else
		g = x, b = 1;
	auto c = [](double v) { return static_cast<int>(std::lround(v * 200)); };
	return fmt::format("#{:02x}{:02x}{:02x}", c(r), c(g), c(b));
}

}  // namespace

std::string cpus_svg(const Model &m)
{
	constexpr int kRow = 16, kBar = 12;
	// Colour keys: a palette entry per top task (by runtime) and grey
	// for the rest, or the burst score and grey for "no score".
	const bool by_score = m.has_scores;
	const int nkeys = by_score ? kScores + 1 : static_cast<int>(kPalette.size()) + 1;
	std::vector<int> task_key(m.tasks.size(), static_cast<int>(kPalette.size()));
	std::vector<size_t> top(m.tasks.size());
	for (size_t i = 0; i < top.size(); i++)
		top[i] = i;
	std::ranges::sort(top, most_first([&](size_t i) { return m.tasks[i].run_ns; }));
	top.resize(std::min(top.size(), kPalette.size()));
	std::erase_if(top, [&](size_t i) { return m.tasks[i].run_ns == 0; });
	for (size_t k = 0; k < top.size(); k++)
		task_key[top[k]] = static_cast<int>(k);
	auto key_of = [&](const Slice &s) {
		if (by_score)
			return s.score < kScores ? static_cast<int>(s.score) : kScores;
		return task_key[s.task];
	};
	auto colour = [&](int key) -> std::string {
		if (by_score)
			return key < kScores ? score_colour(key) : kGrey;
		return key < static_cast<int>(kPalette.size()) ? kPalette[key] : kGrey;
	};

	const int rows_h = static_cast<int>(m.cpus.size()) * kRow;
	const int legend_y = kTop + rows_h + 50;
	const int legend_rows = by_score ? 2 : static_cast<int>(top.size() + 1 + 3) / 4;
	Svg svg(kWidth, legend_y + 20 * legend_rows + 20,
		fmt::format("CPUs: which task ran when ({}, {} CPUs)", m.scheduler, m.cpus.size()));

	std::vector<uint64_t> acc(nkeys);
	for (size_t r = 0; r < m.cpus.size(); r++) {
		const Cpu &c = m.cpus[r];
		const double y = kTop + r * kRow;
		svg.raw(fmt::format("<g class=\"cpu-row\" data-cpu=\"{}\">\n", c.cpu));
		svg.text(kLeft - 6, y + kBar - 2,
			 fmt::format("cpu {}{}", c.cpu, c.online ? "" : " (off)"), "end");
		// Each pixel column: the colour with the most time in it,
		// drawn as opaque as the column was busy (in quarters); runs
		// of equal columns become one rectangle.
		int run_key = -1, run_level = 0, run_from = 0;
		auto flush = [&](int upto) {
			if (run_key >= 0 && run_level > 0)
				svg.rect(kLeft + run_from, y, upto - run_from, kBar, colour(run_key),
					 run_level / 4.0);
		};
		size_t si = 0;
		for (int k = 0; k < kPlotW; k++) {
			const uint64_t a = column_start(m, k), b = column_start(m, k + 1);
			std::ranges::fill(acc, 0);
			uint64_t busy = 0;
			while (si < c.slices.size() && m.slices[c.slices[si]].at.end <= a)
				si++;
			for (size_t j = si; j < c.slices.size(); j++) {
				const Slice &s = m.slices[c.slices[j]];
				if (s.at.start >= b)
					break;
				const uint64_t o = std::min(b, s.at.end) - std::max(a, s.at.start);
				acc[key_of(s)] += o;
				busy += o;
			}
			int key = -1, level = 0;
			if (busy && b > a) {
				key = static_cast<int>(std::ranges::max_element(acc) - acc.begin());
				level = static_cast<int>((busy * 4 + (b - a) - 1) / (b - a));
				level = std::clamp(level, 1, 4);
			}
			if (key != run_key || level != run_level) {
				flush(k);
				run_key = key, run_level = level, run_from = k;
			}
		}
		flush(kPlotW);
		svg.raw("</g>\n");
	}
	svg.rect(kLeft, kTop - 2, kPlotW, rows_h + 2, "none");
	time_axis(svg, m, kTop + rows_h + 2);

	if (by_score) {
		svg.text(kLeft, legend_y + 10, "burst score of the task that ran:");
		constexpr int kBarX = kLeft + 200;
		for (int s = 0; s < kScores; s++)
			svg.rect(kBarX + s * 8, legend_y, 8, 12, score_colour(s));
		svg.text(kBarX, legend_y + 24, "0 interactive", "start");
		svg.text(kBarX + kScores * 8, legend_y + 24, "39 CPU hog", "end");
		svg.rect(kBarX + kScores * 8 + 30, legend_y, 12, 12, kGrey);
		svg.text(kBarX + kScores * 8 + 46, legend_y + 10, "no score");
	} else {
		std::vector<std::pair<std::string, std::string>> entries;
		for (size_t k = 0; k < top.size(); k++) {
			const Task &t = m.tasks[top[k]];
			entries.emplace_back(kPalette[k], fmt::format("{} ({})", t.comm, t.pid));
		}
		entries.emplace_back(kGrey, "other tasks");
		for (size_t i = 0; i < entries.size(); i++) {
			const double x = kLeft + (i % 4) * 250.0, y = legend_y + (i / 4) * 20.0;
			svg.rect(x, y, 12, 12, entries[i].first);
			svg.text(x + 16, y + 10, entries[i].second);
		}
	}
	svg.text(kLeft, legend_y - 8, "fainter: the task ran only part of that pixel's time", "start",
		 10, " fill=\"#555\"");
	return svg.done();
}

std::string running_waiting_svg(const Model &m)
{
	constexpr int kPlotH = 300;
	int ymax = 1;
	for (const auto &c : m.counts)
		ymax = std::max({ymax, c.running, c.waiting});
	Svg svg(kWidth, kTop + kPlotH + 90,
		fmt::format("Running and waiting tasks ({}, {} CPUs)", m.scheduler, m.cpus.size()));
	auto yof = [&](double v) { return kTop + kPlotH - v * kPlotH / ymax; };

	// Per column: the highest count in it, and the share of its time
	// that work waited while an online CPU was idle.
	std::vector<int> run(kPlotW), wait(kPlotW);
	std::vector<uint64_t> idle(kPlotW);
	size_t ci = 0, ii = 0;
	for (int k = 0; k < kPlotW; k++) {
		const uint64_t a = column_start(m, k), b = column_start(m, k + 1);
		while (ci + 1 < m.counts.size() && m.counts[ci + 1].ts <= a)
			ci++;
		run[k] = m.counts.empty() ? 0 : m.counts[ci].running;
		wait[k] = m.counts.empty() ? 0 : m.counts[ci].waiting;
		for (size_t j = ci + 1; j < m.counts.size() && m.counts[j].ts < b; j++) {
			run[k] = std::max(run[k], m.counts[j].running);
			wait[k] = std::max(wait[k], m.counts[j].waiting);
		}
		while (ii < m.idle_waited.size() && m.idle_waited[ii].end <= a)
			ii++;
		for (size_t j = ii; j < m.idle_waited.size() && m.idle_waited[j].start < b; j++)
			idle[k] += std::min(b, m.idle_waited[j].end) - std::max(a, m.idle_waited[j].start);
	}

	// "Idle while work waited": a red band behind the plot, as opaque
	// as the share of the column (in quarters), runs merged.
	int from = 0, level = 0;
	for (int k = 0; k <= kPlotW; k++) {
		int l = 0;
		if (k < kPlotW && idle[k]) {
			const uint64_t w = std::max<uint64_t>(column_start(m, k + 1) - column_start(m, k), 1);
			l = std::clamp(static_cast<int>((idle[k] * 4 + w - 1) / w), 1, 4);
		}
		if (k == kPlotW || l != level) {
			if (level)
				svg.rect(kLeft + from, kTop, k - from, kPlotH, "#e41a1c", 0.08 * level);
			from = k, level = l;
		}
	}

	for (int v = 0; v <= ymax; v += std::max(1, ymax / 8)) {
		svg.line(kLeft - 4, yof(v), kLeft + kPlotW, yof(v), v ? "#e0e0e0" : "black");
		svg.text(kLeft - 8, yof(v) + 4, std::to_string(v), "end");
	}
	svg.line(kLeft, kTop, kLeft, kTop + kPlotH, "black");
	svg.text(20, kTop + kPlotH / 2.0, "tasks", "middle", 11,
		 fmt::format(" transform=\"rotate(-90 20 {})\"", kTop + kPlotH / 2.0).c_str());
	auto steps = [&](const std::vector<int> &v) {
		std::vector<std::pair<double, double>> p;
		for (int k = 0; k < kPlotW; k++) {
			if (k && v[k] == v[k - 1])
				continue;
			if (k)
				p.emplace_back(kLeft + k, yof(v[k - 1]));
			p.emplace_back(kLeft + k, yof(v[k]));
		}
		p.emplace_back(kLeft + kPlotW, yof(v.back()));
		return p;
	};
	svg.polyline(steps(run), "#1f77b4", "running");
	svg.polyline(steps(wait), "#ff7f0e", "waiting");
	time_axis(svg, m, kTop + kPlotH);

	const double ly = kTop + kPlotH + 50;
	svg.rect(kLeft, ly, 12, 12, "#1f77b4");
	svg.text(kLeft + 16, ly + 10, "running");
	svg.rect(kLeft + 100, ly, 12, 12, "#ff7f0e");
	svg.text(kLeft + 116, ly + 10, "waiting: runnable, not running");
	svg.rect(kLeft + 340, ly, 12, 12, "#e41a1c", 0.3);
	svg.text(kLeft + 356, ly + 10,
		 fmt::format("idle while work waited: a task waited while an online CPU was "
			     "idle ({:.3f} ms)", m.idle_waited_ns() / 1e6));
	svg.text(kLeft, ly + 28, "lines: the highest count within each pixel's time", "start", 10,
		 " fill=\"#555\"");
	return svg.done();
}

std::string latency_svg(const Model &m, const std::vector<size_t> &tasks)
{
	constexpr int kPlotH = 300;
	constexpr size_t kPoints = 200;	// per curve
	Svg svg(kWidth, kTop + kPlotH + 70 + 20 * static_cast<int>((tasks.size() + 1) / 2),
		fmt::format("Wakeup latency: wakeup to running ({})", m.scheduler));

	// Decades from below the smallest to above the largest latency.
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t t : tasks)
		for (uint64_t l : m.tasks[t].latencies) {
			lo = std::min(lo, std::max<uint64_t>(l, 1));
			hi = std::max(hi, l);
		}
	if (hi == 0)
		lo = 1000, hi = 1000000;
	// 10^19 ns is the largest power of ten a u64 holds.
	const int d0 = std::min(18, static_cast<int>(std::floor(std::log10(static_cast<double>(lo)))));
	const int d1 = std::clamp(static_cast<int>(std::ceil(std::log10(static_cast<double>(hi)))),
				  d0 + 1, 19);
	auto xof = [&](uint64_t ns) {
		const double l = std::log10(static_cast<double>(std::max<uint64_t>(ns, 1)));
		return kLeft + std::clamp(l - d0, 0.0, static_cast<double>(d1 - d0)) * kPlotW / (d1 - d0);
	};
	auto yof = [&](double f) { return kTop + kPlotH - f * kPlotH; };

	// A line per decade; with few decades, 2x and 5x labelled too.
	for (int d = d0; d <= d1; d++) {
		for (uint64_t f : {1, 2, 5}) {
			if (d == d1 && f > 1)
				break;
			const auto ns = f * static_cast<uint64_t>(std::pow(10.0, d));
			const double x = xof(ns);
			if (f == 1 || d1 - d0 <= 3)
				svg.text(x, kTop + kPlotH + 16, time_label(ns, ns), "middle");
			svg.line(x, kTop, x, kTop + kPlotH + (f == 1 ? 4 : 0),
				 d == d0 && f == 1 ? "black" : (f == 1 ? "#d0d0d0" : "#f0f0f0"));
		}
	}
	for (int q = 0; q <= 4; q++) {
		svg.line(kLeft - 4, yof(q / 4.0), kLeft + kPlotW, yof(q / 4.0), q ? "#e0e0e0" : "black");
		svg.text(kLeft - 8, yof(q / 4.0) + 4, fmt::format("{:g}", q / 4.0), "end");
	}
	svg.text(kLeft + kPlotW / 2.0, kTop + kPlotH + 32, "wakeup latency: time from wakeup until running (log scale)", "middle");
	svg.text(20, kTop + kPlotH / 2.0, "share of wakeups at most x", "middle", 11,
		 fmt::format(" transform=\"rotate(-90 20 {})\"", kTop + kPlotH / 2.0).c_str());
	if (tasks.empty())
		svg.text(kLeft + kPlotW / 2.0, kTop + kPlotH / 2.0, "no wakeups recorded", "middle", 14);

	for (size_t i = 0; i < tasks.size(); i++) {
		const Task &t = m.tasks[tasks[i]];
		std::vector<uint64_t> l = t.latencies;
		std::ranges::sort(l);
		const size_t n = l.size();
		// The empirical CDF as steps: at each latency it rises to the
		// share of wakeups at most that long; at most kPoints steps.
		std::vector<std::pair<double, double>> p{{xof(l[0]), yof(0)}};
		size_t last = SIZE_MAX;
		for (size_t k = 0; k <= kPoints; k++) {
			size_t j = std::min(n - 1, k * n / kPoints);
			while (j + 1 < n && l[j + 1] == l[j])
				j++;	// equal latencies: one step to the last of them
			if (j == last)
				continue;
			last = j;
			p.emplace_back(xof(l[j]), p.back().second);
			p.emplace_back(xof(l[j]), yof(static_cast<double>(j + 1) / n));
		}
		const std::string colour = kPalette[i % kPalette.size()];
		svg.polyline(p, colour, "cdf");
		const double x = kLeft + (i % 2) * 500.0, y = kTop + kPlotH + 50 + (i / 2) * 20.0;
		svg.rect(x, y, 12, 12, colour);
		svg.text(x + 16, y + 10,
			 fmt::format("{} ({}): {} wakeups, p50 {:.1f} µs, p99 {:.1f} µs", t.comm, t.pid,
				     n, percentile(l, 50) / 1e3, percentile(l, 99) / 1e3));
	}
	return svg.done();
}

}  // namespace scx_burst::trace
