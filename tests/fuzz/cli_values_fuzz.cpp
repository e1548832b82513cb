// SPDX-License-Identifier: GPL-2.0
// Fuzzes what parses user strings on the command line.  The input is an
// argv: words separated by NUL bytes.  It goes through the option parser
// as main() sets it up, `ctl`'s request building (key=value parsing), and
// every word through the CPU mask and list parsers, the primary-domain
// resolution and the tunables' validation.
//
// Beyond "no crash, no sanitizer report": a parsed CPU set is sorted,
// within BURST_MAX_CPUS and survives formatting and parsing back; a
// request line ctl would send is valid JSON; tunables that pass
// validation are within their ranges.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "fake_backend.hpp"
#include "scx_burst/ctl.hpp"
#include "scx_burst/ctl_client.hpp"
#include "scx_burst/domain.hpp"
#include "scx_burst/options.hpp"
#include "scx_burst/topology.hpp"
#include "scx_burst/tunables.hpp"

using namespace scx_burst;
using nlohmann::json;

namespace {

[[noreturn]] void broken(const char *what, const std::string &input)
{
	fprintf(stderr, "cli_values fuzz: %s\ninput: %s\n", what, input.c_str());
	abort();
}

void check_cpus(const std::vector<int> &cpus, const std::string &word)
{
	if (!std::is_sorted(cpus.begin(), cpus.end()) ||
	    std::adjacent_find(cpus.begin(), cpus.end()) != cpus.end())
		broken("CPUs not sorted and unique", word);
	for (int c : cpus)
		if (c < 0 || c >= BURST_MAX_CPUS)
			broken("CPU out of range", word);
	if (cpus.empty())
		return;
	auto list = parse_cpulist(format_cpulist(cpus));
	if (!list || *list != cpus)
		broken("CPU list does not parse back", word);
	auto mask = parse_hex_mask(format_hex_mask(cpus));
	if (!mask || *mask != cpus)
		broken("CPU mask does not parse back", word);
}

void check_word(const std::string &w)
{
	if (auto c = parse_cpus(w))
		check_cpus(*c, w);
	if (auto c = parse_cpulist(w))
		check_cpus(*c, w);
	if (auto c = parse_hex_mask(w))
		check_cpus(*c, w);

	// Keywords read capacities from sysfs: point it at nothing.
	Topology topo;
	topo.nr_cpu_ids = 8;
	topo.online = {0, 1, 2, 3, 5, 6};
	// No sysfs file and no bus: the host's never answer for the fuzzer.
	const SysfsPaths none = SysfsPaths::under("/nonexistent");
	for (bool part : {false, true})
		if (auto d = resolve_domain(w, topo, none, part))
			for (int c : d->cpus)
				if (!std::binary_search(topo.online.begin(), topo.online.end(), c))
					broken("domain with an offline CPU", w);
}

void check_tunables(const burst_tunables &t, const std::string &input)
{
	for (const auto &d : kTunables) {
		uint64_t v = tunable_value(t, d);
		if (v < d.min || v > d.max)
			broken("a tunable out of its range passed", input);
	}
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	std::string input(reinterpret_cast<const char *>(data), size);
	std::vector<std::string> words;
	for (size_t start = 0;;) {
		size_t nul = input.find('\0', start);
		words.push_back(input.substr(start, nul - start));
		if (nul == std::string::npos)
			break;
		start = nul + 1;
	}
	if (words.size() > 64)
		return -1;

	for (const auto &w : words)
		check_word(w);

	// As `scx_burst ctl set WORDS...` would, and the daemon on receipt.
	if (auto args = parse_assignments(words)) {
		if (!args->is_object())
			broken("assignments are not an object", input);
		if (auto t = apply_tunables(default_tunables(), *args))
			check_tunables(*t, input);
	}

	// The command line as main() parses it.
	CLI::App app{"fuzz", "scx_burst"};
	app.set_version_flag("-V,--version", "scx_burst fuzz");
	Options opts;
	CtlCommand ctl;
	CLI::App *ctl_cmd = add_options(app, opts, ctl);
	std::vector<std::string> argv(words.rbegin(), words.rend());
	try {
		app.parse(argv);
	} catch (const CLI::ParseError &) {
		return 0;	// main() prints it and exits
	}
	check_tunables(opts.tunables, input);
	if (!ctl_cmd->parsed()) {
		test::FakeBackend b;
		(void)b.check_domain(opts.primary_domain);
		return 0;
	}
	auto line = ctl_command_request(ctl);
	if (!line)
		return 0;
	if (ctl.verb != "raw" && json::parse(*line, nullptr, false).is_discarded())
		broken("ctl would send a request that is not JSON", input);
	test::FakeBackend b;
	if (json::parse(ctl_handle_line(*line, b), nullptr, false).is_discarded())
		broken("the daemon's reply is not JSON", input);
	return 0;
}
