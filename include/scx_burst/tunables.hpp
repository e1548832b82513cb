// SPDX-License-Identifier: GPL-2.0
// The runtime tunables as the daemon sees them: one descriptor per entry of
// tunables_table.h, and everything done generically over them (defaults,
// CLI options, `ctl get/set` with range checks, the copy into the running
// program, the docs table).
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "intf.h"
#include "policy.h"

namespace scx_burst {

enum class TunableKind { UINT, BOOL, POLICY };

struct TunableDesc {
	const char *key;		// protocol name, unit in the name
	uint64_t burst_tunables::*field;
	TunableKind kind;
	uint64_t scale;			// field = value * scale
	uint64_t dfl, min, max;		// in the key's unit
	const char *cli;		// CLI11 flag names
	const char *help;
};

inline constexpr TunableDesc kTunables[] = {
#define BURST_TUNABLE(key, field, kind, scale, dfl, min, max, cli, help) \
	{#key, &burst_tunables::field, TunableKind::kind, scale, dfl, min, max, cli, help},
#include "tunables_table.h"
#undef BURST_TUNABLE
};
static_assert(std::size(kTunables) == BURST_NR_TUNABLES);

// Policy name <-> enum burst_policy; -1 for an unknown name.
int policy_from_name(const std::string &name);
const char *policy_name(uint64_t policy);

// A tunable's value in the key's unit (field / scale).
uint64_t tunable_value(const burst_tunables &t, const TunableDesc &d);

// Every field at its default.
burst_tunables default_tunables();

// Registers a CLI option per tunable, writing straight into @t.
void add_tunable_options(CLI::App &app, burst_tunables &t);

// {"policy": "burst", "slice_us": 5000, ...}
nlohmann::json tunables_json(const burst_tunables &t);

// @cur with the fields of @args applied.  Validates every field first:
// unknown names, wrong types and out-of-range values fail the whole set.
// The error's message starts with the offending field.
struct SetError {
	int err;	// EINVAL or ERANGE
	std::string msg;
};
std::expected<burst_tunables, SetError> apply_tunables(const burst_tunables &cur,
						       const nlohmann::json &args);

// Whole-struct copy into memory BPF reads concurrently: one aligned
// 8-byte store per field, so BPF never sees a torn value.
void store_tunables(volatile burst_tunables *dst, const burst_tunables &src);

// The docs table (docs/tunables.md between its markers).
std::string tunables_markdown();

}  // namespace scx_burst
