// SPDX-License-Identifier: GPL-2.0
// The control protocol: request lines in, reply lines out.
#include "scx_burst/ctl.hpp"

#include <cerrno>
#include <charconv>
#include <optional>

#include "scx_burst/stats.hpp"

namespace scx_burst {

using nlohmann::json;

json settings_json(CtlBackend &backend)
{
	json j = tunables_json(backend.get());
	j["primary_domain"] = backend.domain();
	return j;
}

json ctl_ok(json resp)
{
	return {{"errno", 0}, {"args", {{"resp", std::move(resp)}}}};
}

json ctl_error(int err, const std::string &msg)
{
	return {{"errno", err}, {"args", {{"resp", msg}}}};
}

json ctl_set(CtlBackend &backend, json args)
{
	// Validate everything, the domain included, before changing anything.
	std::optional<std::vector<int>> dom;
	if (args.is_object() && args.contains("primary_domain")) {
		const json &spec = args["primary_domain"];
		if (!spec.is_string() && !spec.is_number_integer())
			return ctl_error(EINVAL, "primary_domain: must be a mask, a CPU "
						 "list or a keyword");
		auto d = backend.check_domain(spec.is_string() ? spec.get<std::string>()
							       : spec.dump());
		if (!d)
			return ctl_error(EINVAL, "primary_domain: " + d.error().msg);
		dom = *d;
		args.erase("primary_domain");
	}
	burst_tunables cur = backend.get();
	std::expected<burst_tunables, SetError> t = cur;
	if (!args.empty() || !dom)
		t = apply_tunables(cur, args);
	if (!t)
		return ctl_error(t.error().err, t.error().msg);
	if (dom) {
		if (auto r = backend.set_domain(*dom); !r)
			return ctl_error(EIO, r.error().msg);
	}
	backend.set(*t);
	return ctl_ok(settings_json(backend));
}

namespace {

json handle_request(const std::string &line, CtlBackend &backend)
{
	json req = json::parse(line, nullptr, false);
	if (req.is_discarded() || !req.is_object())
		return ctl_error(EINVAL, "malformed request: not a JSON object");
	if (!req.contains("req") || !req["req"].is_string())
		return ctl_error(EINVAL, "malformed request: no \"req\" string");
	for (auto &[key, val] : req.items()) {
		(void)val;
		if (key != "req" && key != "args")
			return ctl_error(EINVAL, "unknown field \"" + key + "\"");
	}
	std::string what = req["req"];
	json args = req.value("args", json::object());

	if (what == "get")
		return ctl_ok(settings_json(backend));
	if (what == "stats")
		return ctl_ok(backend.stats());
	if (what == "stats_meta")
		return ctl_ok(stats_meta_json());
	if (what == "set")
		return ctl_set(backend, std::move(args));
	if (what == "save") {
		auto path = backend.save();
		if (!path)
			return ctl_error(EIO, path.error().msg);
		json resp = settings_json(backend);
		resp["saved_to"] = *path;
		return ctl_ok(resp);
	}
	return ctl_error(EOPNOTSUPP, "unknown request \"" + what +
					     "\" (stats, stats_meta, get, set, save)");
}

}  // namespace

// Every error stays inside the request: a reply for any input, and the
// reply always serialises (invalid UTF-8 in an echoed value is replaced).
std::string ctl_handle_line(const std::string &line, CtlBackend &backend)
{
	json reply;
	try {
		reply = handle_request(line, backend);
	} catch (const std::exception &e) {
		reply = ctl_error(EINVAL, std::string("bad request: ") + e.what());
	}
	return reply.dump(-1, ' ', false, json::error_handler_t::replace);
}

Result<json> parse_assignments(const std::vector<std::string> &words)
{
	json args = json::object();
	for (const auto &w : words) {
		auto eq = w.find('=');
		if (eq == std::string::npos || eq == 0)
			return fail("expected key=value, got '" + w + "'");
		std::string key = w.substr(0, eq), val = w.substr(eq + 1);
		int64_t n;
		auto [p, ec] = std::from_chars(val.data(), val.data() + val.size(), n);
		if (!val.empty() && ec == std::errc() && p == val.data() + val.size())
			args[key] = n;
		else if (val == "true" || val == "false")
			args[key] = val == "true";
		else
			args[key] = val;
	}
	return args;
}

}  // namespace scx_burst
