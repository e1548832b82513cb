// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/tunables.hpp"

#include <cerrno>
#include <sstream>

namespace scx_burst {

using nlohmann::json;

int policy_from_name(const std::string &name)
{
	if (name == "burst")
		return BURST_POLICY_BURST;
	if (name == "deadline")
		return BURST_POLICY_DEADLINE;
	return -1;
}

const char *policy_name(uint64_t policy)
{
	switch (policy) {
	case BURST_POLICY_BURST:
		return "burst";
	case BURST_POLICY_DEADLINE:
		return "deadline";
	default:
		return "unknown";
	}
}

uint64_t tunable_value(const burst_tunables &t, const TunableDesc &d)
{
	return t.*d.field / d.scale;
}

burst_tunables default_tunables()
{
	burst_tunables t{};
	for (const auto &d : kTunables)
		t.*d.field = d.dfl * d.scale;
	return t;
}

void add_tunable_options(CLI::App &app, burst_tunables &t)
{
	for (const auto &d : kTunables) {
		uint64_t *field = &(t.*d.field);
		switch (d.kind) {
		case TunableKind::POLICY:
			app.add_option_function<std::string>(
				   d.cli, [field](const std::string &s) {
					   *field = policy_from_name(s);
				   },
				   d.help)
				->check(CLI::IsMember({"burst", "deadline"}))
				->default_str(policy_name(d.dfl));
			break;
		case TunableKind::BOOL:
			app.add_flag_callback(d.cli, [field] { *field = 0; }, d.help);
			break;
		case TunableKind::UINT: {
			uint64_t scale = d.scale;
			app.add_option_function<uint64_t>(
				   d.cli, [field, scale](uint64_t v) { *field = v * scale; },
				   d.help)
				->check(CLI::Range(d.min, d.max))
				->default_str(std::to_string(d.dfl));
			break;
		}
		}
	}
}

json tunables_json(const burst_tunables &t)
{
	json j = json::object();
	for (const auto &d : kTunables) {
		uint64_t v = tunable_value(t, d);
		switch (d.kind) {
		case TunableKind::POLICY:
			j[d.key] = policy_name(v);
			break;
		case TunableKind::BOOL:
			j[d.key] = v != 0;
			break;
		case TunableKind::UINT:
			j[d.key] = v;
			break;
		}
	}
	return j;
}

namespace {

const TunableDesc *find_tunable(const std::string &key)
{
	for (const auto &d : kTunables)
		if (key == d.key)
			return &d;
	return nullptr;
}

std::unexpected<SetError> set_error(int err, std::string msg)
{
	return std::unexpected(SetError{err, std::move(msg)});
}

}  // namespace

std::expected<burst_tunables, SetError> apply_tunables(const burst_tunables &cur,
						       const json &args)
{
	burst_tunables t = cur;

	if (!args.is_object() || args.empty())
		return set_error(EINVAL, "set needs an object of settings in \"args\"");
	for (auto &[key, val] : args.items()) {
		const TunableDesc *d = find_tunable(key);
		if (!d)
			return set_error(EINVAL, key + ": no such setting");
		uint64_t v = 0;
		switch (d->kind) {
		case TunableKind::POLICY: {
			int p = val.is_string() ? policy_from_name(val.get<std::string>()) : -1;
			if (p < 0)
				return set_error(EINVAL, key + ": must be \"burst\" or \"deadline\", not " +
								 val.dump());
			v = p;
			break;
		}
		case TunableKind::BOOL:
			if (!val.is_boolean())
				return set_error(EINVAL,
						 key + ": must be true or false, not " + val.dump());
			v = val.get<bool>();
			break;
		case TunableKind::UINT: {
			if (!val.is_number_integer())
				return set_error(EINVAL,
						 key + ": must be an integer, not " + val.dump());
			bool neg = !val.is_number_unsigned() && val.get<int64_t>() < 0;
			v = neg ? 0 : val.get<uint64_t>();
			if (neg || v < d->min || v > d->max)
				return set_error(ERANGE, key + ": " + val.dump() +
								 " is out of range " +
								 std::to_string(d->min) + ".." +
								 std::to_string(d->max));
			break;
		}
		}
		t.*d->field = v * d->scale;
	}
	return t;
}

void store_tunables(volatile burst_tunables *dst, const burst_tunables &src)
{
	for (const auto &d : kTunables)
		dst->*d.field = src.*d.field;
}

std::string tunables_markdown()
{
	std::ostringstream o;
	o << "| key | option | default | range | meaning |\n"
	  << "|---|---|---|---|---|\n";
	for (const auto &d : kTunables) {
		std::string range, dfl;
		switch (d.kind) {
		case TunableKind::POLICY:
			range = "burst, deadline";
			dfl = policy_name(d.dfl);
			break;
		case TunableKind::BOOL:
			range = "true, false";
			dfl = "true";
			break;
		case TunableKind::UINT:
			range = std::to_string(d.min) + ".." + std::to_string(d.max);
			dfl = std::to_string(d.dfl);
			break;
		}
		o << "| `" << d.key << "` | `" << d.cli << "` | " << dfl << " | " << range
		  << " | " << d.help << " |\n";
	}
	return o.str();
}

}  // namespace scx_burst
