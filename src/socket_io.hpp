// SPDX-License-Identifier: GPL-2.0
// Socket helpers shared by the control socket's client and server.
#pragma once

#include <string>

#include <sys/socket.h>

namespace scx_burst {

// Sends all of @s; false on any error (the peer went away).
inline bool send_all(int fd, const std::string &s)
{
	size_t off = 0;
	while (off < s.size()) {
		ssize_t n = send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
		if (n <= 0)
			return false;
		off += n;
	}
	return true;
}

}  // namespace scx_burst
