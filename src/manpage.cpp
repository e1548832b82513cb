// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/manpage.hpp"

#include <map>
#include <sstream>

#include "scx_burst/stats.hpp"
#include "scx_burst/tunables.hpp"

namespace scx_burst {

std::string roff_escape(const std::string &text)
{
	std::string out;
	for (char c : text) {
		if (c == '\\')
			out += "\\e";
		else if (c == '-')
			out += "\\-";
		else
			out += c;
	}
	if (!out.empty() && (out[0] == '.' || out[0] == '\''))
		out = "\\&" + out;
	return out;
}

namespace {

// "-s,--slice-us" -> "\fB\-s\fR, \fB\-\-slice\-us\fR"
std::string bold_names(const std::string &names)
{
	std::string out;
	std::istringstream in(names);
	for (std::string n; std::getline(in, n, ',');)
		out += (out.empty() ? "" : ", ") + ("\\fB" + roff_escape(n) + "\\fR");
	return out;
}

}  // namespace

std::string man_options(const CLI::App &app)
{
	// Groups in the order --help shows them.
	std::vector<std::string> order;
	std::map<std::string, std::string> text;
	for (const CLI::Option *op : app.get_options()) {
		const std::string &group = op->get_group();
		if (group.empty() || op->get_positional())
			continue;	// hidden
		std::ostringstream o;
		o << ".TP\n" << bold_names(op->get_name(false, true));
		// "UINT:INT in [100 - 100000]": the metavar is the part before ':'.
		std::string type = op->get_type_name();
		type = type.substr(0, type.find(':'));
		if (op->get_type_size() != 0 && !type.empty())
			o << " \\fI" << roff_escape(type) << "\\fR";
		o << "\n" << roff_escape(op->get_description());
		std::string checks = op->get_type_name();
		if (auto c = checks.find(':'); c != std::string::npos)
			o << " (" << roff_escape(checks.substr(c + 1)) << ")";
		if (!op->get_default_str().empty())
			o << "; default: " << roff_escape(op->get_default_str());
		o << "\n";
		if (!text.count(group))
			order.push_back(group);
		text[group] += o.str();
	}
	std::string out;
	for (const auto &g : order)
		out += ".SS " + roff_escape(g) + "\n" + text[g];
	return out;
}

std::string man_ctl_keys()
{
	std::ostringstream o;
	for (const auto &d : kTunables) {
		o << ".TP\n\\fB" << roff_escape(d.key) << "\\fR=";
		switch (d.kind) {
		case TunableKind::POLICY:
			o << "\\fBburst\\fR|\\fBdeadline\\fR (default " << policy_name(d.dfl) << ")";
			break;
		case TunableKind::BOOL:
			o << "\\fBtrue\\fR|\\fBfalse\\fR (default true)";
			break;
		case TunableKind::UINT:
			o << d.min << "..." << d.max << " (default " << d.dfl << ")";
			break;
		}
		o << "\n" << roff_escape(d.help) << "; option " << roff_escape(d.cli) << "\n";
	}
	o << ".TP\n\\fBprimary_domain\\fR=\\fISPEC\\fR\n"
	  << "the primary domain, as \\fB\\-\\-primary\\-domain\\fR takes it\n";
	return o.str();
}

std::string man_stats()
{
	std::ostringstream o;
	for (const auto &m : kStatMeta)
		o << ".TP\n\\fB" << roff_escape(m.label) << "\\fR (" << roff_escape(m.name)
		  << ")\n" << roff_escape(m.desc) << "\n";
	for (const auto &d : kDerivedStats)
		o << ".TP\n\\fB" << roff_escape(d.label) << "\\fR (" << roff_escape(d.name)
		  << ")\n" << roff_escape(std::string(kStatMeta[d.num].label) + " / " +
					  kStatMeta[d.den].label + ": " + d.meaning)
		  << "\n";
	return o.str();
}

}  // namespace scx_burst
