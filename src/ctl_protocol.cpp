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
	if (!args.is_object())
		return ctl_error(EINVAL, "set: \"args\" must be an object of key: value");
	// Validate everything, the domain included, before changing anything.
	std::optional<std::vector<int>> dom;
	std::string dom_spec;
	if (args.contains("primary_domain")) {
		const json &spec = args["primary_domain"];
		if (!spec.is_string() && !spec.is_number_integer())
			return ctl_error(EINVAL, "primary_domain: must be a mask, a CPU "
						 "list or a keyword");
		dom_spec = spec.is_string() ? spec.get<std::string>() : spec.dump();
		auto d = backend.check_domain(dom_spec);
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
		if (auto r = backend.set_domain(*dom, dom_spec); !r)
			return ctl_error(EIO, r.error().msg);
	}
	backend.set(*t);
	return ctl_ok(settings_json(backend));
}

namespace {

json handle_get(json &, CtlBackend &backend)
{
	return ctl_ok(settings_json(backend));
}

json handle_stats(json &, CtlBackend &backend)
{
	return ctl_ok(backend.stats());
}

json handle_stats_meta(json &, CtlBackend &)
{
	return ctl_ok(stats_meta_json());
}

json handle_set(json &args, CtlBackend &backend)
{
	return ctl_set(backend, std::move(args));
}

json handle_save(json &, CtlBackend &backend)
{
	auto path = backend.save();
	if (!path)
		return ctl_error(EIO, path.error().msg);
	json resp = settings_json(backend);
	resp["saved_to"] = *path;
	return ctl_ok(resp);
}

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

	if (const CtlRequest *r = find_ctl_request(what))
		return r->handle(args, backend);
	std::string names;
	for (const auto &r : ctl_requests())
		names += (names.empty() ? "" : ", ") + std::string(r.name);
	return ctl_error(EOPNOTSUPP, "unknown request \"" + what + "\" (" + names + ")");
}

}  // namespace

const std::vector<CtlRequest> &ctl_requests()
{
	static const std::vector<CtlRequest> table = {
		{"stats", false, false, "counters since enable, per CPU and in total",
		 handle_stats},
		{"stats_meta", false, false, "what each stats column means", handle_stats_meta},
		{"get", false, true, "the tunables and the primary domain", handle_get},
		{"set", true, true, "change tunables or the primary domain",
		 handle_set},
		{"save", false, true, "write the running settings to the config file",
		 handle_save},
	};
	return table;
}

const CtlRequest *find_ctl_request(const std::string &name)
{
	for (const auto &r : ctl_requests())
		if (name == r.name)
			return &r;
	return nullptr;
}

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

namespace {

// Whether @s may go into a JSON string: serialising one with invalid
// UTF-8 throws, so check with the serialiser itself.
bool valid_utf8(const std::string &s)
{
	try {
		(void)json(s).dump();
	} catch (const json::type_error &) {
		return false;
	}
	return true;
}

}  // namespace

Result<json> parse_assignments(const std::vector<std::string> &words)
{
	json args = json::object();
	for (const auto &w : words) {
		if (!valid_utf8(w)) {
			// Shown quoted, the invalid bytes as U+FFFD.
			std::string shown = json(w).dump(-1, ' ', false,
							 json::error_handler_t::replace);
			return fail(shown + " is not valid UTF-8");
		}
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
