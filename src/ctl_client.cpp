// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/ctl_client.hpp"

#include <cstring>
#include <iostream>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include "scx_burst/ctl.hpp"
#include "scx_burst/exit_code.hpp"
#include "scx_burst/stats.hpp"
#include "socket_io.hpp"

namespace scx_burst {

using nlohmann::json;

namespace {

Result<int> connect_to(const std::string &path)
{
	sockaddr_un addr{};
	if (path.size() >= sizeof(addr.sun_path))
		return fail("control socket path too long: " + path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return fail(std::string("socket: ") + strerror(errno));
	addr.sun_family = AF_UNIX;
	std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
	if (connect(fd, (sockaddr *)&addr, sizeof(addr))) {
		int err = errno;
		close(fd);
		return fail("cannot reach the scx_burst daemon at " + path + ": " +
			    strerror(err) + " (is it running?)");
	}
	timeval tv{5, 0};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	return fd;
}


}  // namespace

Result<json> ctl_request(const std::string &socket_path, const json &req)
{
	return ctl_request_line(socket_path, req.dump());
}

Result<json> ctl_request_line(const std::string &socket_path, const std::string &text)
{
	auto fd = connect_to(socket_path);
	if (!fd)
		return std::unexpected(fd.error());
	std::string line = text + "\n", reply;
	if (!send_all(*fd, line)) {
		close(*fd);
		return fail("failed to send the request: " + std::string(strerror(errno)));
	}
	char buf[4096];
	for (;;) {
		ssize_t n = recv(*fd, buf, sizeof(buf), 0);
		if (n <= 0)
			break;
		reply.append(buf, n);
		if (reply.find('\n') != std::string::npos)
			break;
	}
	close(*fd);
	auto nl = reply.find('\n');
	if (nl == std::string::npos)
		return fail("no reply from the daemon at " + socket_path);
	json j = json::parse(reply.substr(0, nl), nullptr, false);
	if (j.is_discarded())
		return fail("malformed reply from the daemon");
	return j;
}

int run_monitor(const Options &opts)
{
	nlohmann::json req = {{"req", "stats"}};
	auto first = ctl_request(opts.ctl_socket, req);
	if (!first)
		return fail_with(first.error().msg);
	StatsSample prev = sample_from_json((*first)["args"]["resp"]);
	double prev_t = (*first)["args"]["resp"].value("elapsed_s", 0.0);
	for (;;) {
		usleep((useconds_t)(opts.monitor_s * 1e6));
		auto r = ctl_request(opts.ctl_socket, req);
		if (!r)
			return fail_with(r.error().msg);
		const auto &resp = (*r)["args"]["resp"];
		if ((*r).value("errno", 0) != 0)
			return fail_with("daemon: " + resp.dump());
		StatsSample cur = sample_from_json(resp);
		StatsContext ctx = context_from_json(resp, resp.value("elapsed_s", 0.0) - prev_t);
		StatsSample d = stats_delta(cur, prev);
		if (opts.json) {
			std::cout << stats_json(ctx, d).dump() << std::endl;
		} else {
			print_stats_table(std::cout, ctx, d);
		}
		prev = std::move(cur);
		prev_t = ctx.elapsed_s;
	}
}

Result<std::string> ctl_command_request(const CtlCommand &cmd)
{
	if (cmd.verb == "raw") {
		std::string line;
		for (const auto &w : cmd.assignments)
			line += (line.empty() ? "" : " ") + w;
		return line;
	}
	const CtlRequest *what = find_ctl_request(cmd.verb);
	if (!what)
		return fail("unknown ctl request '" + cmd.verb + "'");
	nlohmann::json req = {{"req", cmd.verb}};
	if (what->takes_assignments) {
		auto args = parse_assignments(cmd.assignments);
		if (!args)
			return std::unexpected(args.error());
		req["args"] = *args;
	} else if (!cmd.assignments.empty()) {
		return fail("ctl " + cmd.verb + " takes no key=value arguments");
	}
	return req.dump();
}

int run_ctl(const Options &opts, const CtlCommand &cmd)
{
	auto line = ctl_command_request(cmd);
	if (!line)
		return fail_with(line.error().msg, kExitUsage);	// nothing sent
	auto r = ctl_request_line(opts.ctl_socket, *line);
	if (!r)
		return fail_with(r.error().msg);
	if (cmd.verb == "raw") {
		std::cout << r->dump() << std::endl;
		return r->value("errno", 0) ? kExitFailure : kExitOk;
	}
	const CtlRequest *what = find_ctl_request(cmd.verb);
	const auto &resp = (*r)["args"]["resp"];
	if (r->value("errno", 0) != 0) {
		spdlog::error("{} (errno {})", resp.is_string() ? resp.get<std::string>() :
								  resp.dump(),
			      r->value("errno", 0));
		return kExitFailure;
	}
	if (what && what->settings_reply) {
		for (auto &[k, v] : resp.items())
			std::cout << k << "=" << (v.is_string() ? v.get<std::string>() : v.dump())
				  << "\n";
		std::cout << std::flush;
	} else {
		std::cout << resp.dump(opts.json ? -1 : 2) << std::endl;
	}
	return kExitOk;
}

}  // namespace scx_burst
