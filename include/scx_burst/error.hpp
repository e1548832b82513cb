// SPDX-License-Identifier: GPL-2.0
// Errors as values at the system boundaries (sysfs, libbpf, sockets).
#pragma once

#include <expected>
#include <string>

namespace scx_burst {

// A message a user can act on, one line, no trailing newline.
struct Error {
	std::string msg;
};

template <typename T = void>
using Result = std::expected<T, Error>;

inline std::unexpected<Error> fail(std::string msg)
{
	return std::unexpected<Error>(Error{std::move(msg)});
}

}  // namespace scx_burst
