// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/options.hpp"

#include "scx_burst/ctl.hpp"
#include "scx_burst/manpage.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace scx_burst {

CLI::App *add_options(CLI::App &app, Options &o, CtlCommand &ctl)
{
	app.set_config("-c,--config", o.config_file,
		       "read options from FILE if it exists (TOML, keys are the long "
		       "option names: slice-us = 3000); the command line overrides it")
		->type_name("FILE")
		->each([&o](const std::string &f) { o.config_file = f; });
	app.allow_config_extras(CLI::config_extras_mode::error);	// a typo is refused
	add_tunable_options(app, o.tunables);
	// Tables every second suit a terminal, not a service's journal.
	o.stats_interval_s = isatty(STDOUT_FILENO) ? 1.0 : 0.0;
	app.add_option("--stats", o.stats_interval_s,
		       "print per-CPU stats every SECONDS (0: off)")
		->check(CLI::Range(0.0, 3600.0))
		->default_str("1 if stdout is a terminal, else 0");
	app.add_flag("--json", o.json, "stats as one JSON object per line");
	app.add_flag("--debug-tasks", o.debug_tasks,
		     "add every task's burst score to the stats");
	app.add_option("--exit-dump-len", o.exit_dump_len,
		       "bytes of kernel debug dump kept on an error exit (0: default)")
		->check(CLI::Range((uint32_t)0, (uint32_t)BURST_EXIT_DUMP_MAX))
		->capture_default_str();
	app.add_flag("-v,--verbose", o.verbose, "more logs (twice: libbpf debug)");
	app.add_option("--primary-domain", o.primary_domain,
		       "CPUs that take work first, others only on overflow: hex mask "
		       "(0x00fff), CPU list (0-5,12) or all|performance|powersave|auto")
		->capture_default_str();
	app.add_option("--ctl-socket", o.ctl_socket,
		       "control socket of the daemon (mode 0600)")
		->capture_default_str();
	// A client mode, not a daemon setting: a config file cannot turn the
	// service into a monitor.
	app.add_option("--monitor", o.monitor_s,
		       "stream a running daemon's stats every SECONDS; loads nothing")
		->check(CLI::Range(0.05, 3600.0))
		->configurable(false);

	app.add_option("--debug-error-after", o.debug_error_after_s,
		       "debug: make the BPF side raise scx_bpf_error() SECONDS after "
		       "loading, to test the error exit")
		->check(CLI::Range(0.001, 3600.0))
		->group("Debug");
	app.add_option("--debug-compat", o.debug_compat,
		       "debug: use the older form of these kernel interfaces where the "
		       "kernel still has it (all, or a comma-separated list of "
		       "dsq-insert, dsq-peek, ...; docs/kernels.md)")
		->group("Debug");
	app.add_option("--debug-sched-ext-root", o.sched_ext_root,
		       "debug: read sched_ext's state from DIR instead, to test the "
		       "refusals without the kernel's")
		->capture_default_str()
		->group("Debug");
	app.add_option("--debug-sysfs-root", o.sysfs_root,
		       "debug: resolve the primary domain's keywords (CPU capacities, "
		       "power profile) from DIR laid out as /sys, without D-Bus")
		->type_name("DIR")
		->group("Debug");

	// The verbs are the protocol's requests (ctl_requests()) and raw.
	std::vector<std::string> verbs;
	std::string verb_help;
	for (const auto &r : ctl_requests()) {
		verbs.push_back(r.name);
		verb_help += std::string(r.name) + (r.takes_assignments ? " key=value..." : "") +
			     " (" + r.help + "); ";
	}
	verbs.push_back("raw");
	verb_help += "raw 'JSON' (one request line, as is)";
	CLI::App *sub = app.add_subcommand("ctl", "talk to a running daemon: " + verb_help);
	sub->fallthrough();	/* ctl stats --json, ctl get --ctl-socket P */
	sub->add_option("verb", ctl.verb, "the request")
		->required()
		->check(CLI::IsMember(verbs));
	sub->add_option("assignments", ctl.assignments,
			"for set: policy=deadline rr_interval_ms=4 ...; for raw: one request line");

	// Hidden: the generated sections of scx_burst(8) (CMakeLists.txt).
	app.add_option_function<std::string>(
		   "--help-man",
		   [&app](const std::string &what) {
			   if (what == "options")
				   std::cout << man_options(app);
			   else if (what == "trace-options")
				   for (const CLI::App *t : app.get_subcommands(
						[](const CLI::App *a) { return a->get_name() == "trace"; }))
					   std::cout << man_options(*t);
			   else if (what == "ctl-keys")
				   std::cout << man_ctl_keys();
			   else
				   std::cout << man_stats();
			   throw CLI::Success();
		   },
		   "")
		->check(CLI::IsMember({"options", "trace-options", "ctl-keys", "stats"}))
		->configurable(false)
		->group("");
	return sub;
}

SysfsPaths domain_paths(const Options &opts)
{
	return opts.sysfs_root.empty() ? SysfsPaths{} : SysfsPaths::under(opts.sysfs_root);
}

Result<Options> parse_options(const std::vector<std::string> &args)
{
	Options o;
	CtlCommand ctl;
	CLI::App app{"scx_burst", "scx_burst"};
	add_options(app, o, ctl);
	std::vector<std::string> rev(args.rbegin(), args.rend());
	try {
		app.parse(rev);
	} catch (const CLI::ParseError &e) {
		return fail(e.what());
	}
	o.args = args;
	return o;
}

namespace {

// The long name of a CLI11 flag list ("-s,--slice-us" -> "slice-us").
std::string long_name(const std::string &cli)
{
	auto at = cli.rfind("--");
	return at == std::string::npos ? cli : cli.substr(at + 2);
}

// A TOML basic string.
std::string toml_string(const std::string &s)
{
	std::string out = "\"";
	for (char c : s) {
		if (c == '"' || c == '\\')
			out += '\\';
		out += c;
	}
	return out + '"';
}

// The key of a "key = value" line, or of its commented-out form.
std::string line_key(const std::string &line, bool &commented)
{
	size_t i = line.find_first_not_of(" \t");
	commented = i != std::string::npos && line[i] == '#';
	if (commented)
		i = line.find_first_not_of(" \t", i + 1);
	if (i == std::string::npos)
		return "";
	size_t eq = line.find('=', i);
	if (eq == std::string::npos)
		return "";
	std::string key = line.substr(i, eq - i);
	key.erase(key.find_last_not_of(" \t") + 1);
	if (key.empty() || key.find_first_of(" \t#") != std::string::npos)
		return "";
	return key;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> config_settings(const burst_tunables &t,
								  const std::string &domain)
{
	std::vector<std::pair<std::string, std::string>> kv;
	for (const auto &d : kTunables) {
		uint64_t v = tunable_value(t, d);
		std::string val;
		switch (d.kind) {
		case TunableKind::POLICY:
			val = toml_string(policy_name(v));
			break;
		case TunableKind::BOOL:
			// The flag turns the tunable off.
			val = v ? "false" : "true";
			break;
		case TunableKind::UINT:
			val = std::to_string(v);
			break;
		}
		kv.emplace_back(long_name(d.cli), val);
	}
	kv.emplace_back("primary-domain", toml_string(domain));
	return kv;
}

Result<> save_config(const std::string &path,
		     const std::vector<std::pair<std::string, std::string>> &settings)
{
	namespace fs = std::filesystem;
	std::vector<std::string> lines;
	std::error_code ec;
	// Never renamed over a device or a directory (--config /dev/null).
	if (fs::exists(path, ec) && !fs::is_regular_file(path, ec))
		return fail(path + " is not a regular file; not saving to it");
	{
		std::ifstream in(path);
		if (!in && fs::exists(path))
			return fail("cannot read " + path + ": " + strerror(errno));
		for (std::string l; std::getline(in, l);)
			lines.push_back(l);
	}
	for (const auto &[key, val] : settings) {
		std::string set = key + " = " + val;
		ssize_t active = -1, example = -1;
		for (size_t i = 0; i < lines.size(); i++) {
			bool commented;
			if (line_key(lines[i], commented) != key)
				continue;
			if (!commented && active < 0)
				active = i;
			else if (commented && example < 0)
				example = i;
		}
		if (active >= 0)
			lines[active] = set;
		else if (example >= 0)
			lines[example] = set;
		else
			lines.push_back(set);
	}

	fs::path p(path), dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
	fs::create_directories(dir, ec);
	if (ec)
		return fail("cannot create " + dir.string() + ": " + ec.message());
	std::string tmp = path + ".tmp";
	int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return fail("cannot write " + tmp + ": " + strerror(errno));
	// The mode of an installed config file, whatever the umask.
	fchmod(fd, 0644);
	std::string text;
	for (const auto &l : lines)
		text += l + "\n";
	bool ok = write(fd, text.data(), text.size()) == (ssize_t)text.size() && fsync(fd) == 0;
	int err = errno;
	close(fd);
	if (!ok || rename(tmp.c_str(), path.c_str())) {
		err = ok ? errno : err;
		unlink(tmp.c_str());
		return fail("cannot write " + path + ": " + strerror(err));
	}
	return {};
}

}  // namespace scx_burst
