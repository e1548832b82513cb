// SPDX-License-Identifier: GPL-2.0
// The string helpers the parsers share (CPU lists, masks, keywords).
#pragma once

#include <string>

namespace scx_burst {

// @s without leading and trailing whitespace.
std::string trim(const std::string &s);

// @s in lower case (ASCII).
std::string lowercase(std::string s);

}  // namespace scx_burst
