// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/text.hpp"

#include <algorithm>
#include <cctype>

namespace scx_burst {
namespace {

bool is_space(char c)
{
	return std::isspace(static_cast<unsigned char>(c));
}

}  // namespace

std::string trim(const std::string &s)
{
	auto b = std::find_if_not(s.begin(), s.end(), is_space);
	auto e = std::find_if_not(s.rbegin(), std::string::const_reverse_iterator(b),
				  is_space).base();
	return std::string(b, e);
}

std::string lowercase(std::string s)
{
	for (char &c : s)
		c = std::tolower(static_cast<unsigned char>(c));
	return s;
}

}  // namespace scx_burst
