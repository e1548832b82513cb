// SPDX-License-Identifier: GPL-2.0
#include "scx_burst/notify.hpp"

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace scx_burst {

Result<> sd_notify_send(const std::string &state)
{
	const char *path = getenv("NOTIFY_SOCKET");
	if (!path || !*path)
		return {};
	// A path, or an abstract name written with a leading '@'.
	sockaddr_un addr{};
	size_t len = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || len >= sizeof(addr.sun_path))
		return fail(std::string("NOTIFY_SOCKET: not a socket path: ") + path);
	addr.sun_family = AF_UNIX;
	memcpy(addr.sun_path, path, len);
	if (path[0] == '@')
		addr.sun_path[0] = '\0';
	socklen_t alen = offsetof(sockaddr_un, sun_path) + len + (path[0] == '/');

	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return fail(std::string("NOTIFY_SOCKET: socket: ") + strerror(errno));
	ssize_t n = sendto(fd, state.data(), state.size(), MSG_NOSIGNAL,
			   (const sockaddr *)&addr, alen);
	int err = errno;
	close(fd);
	if (n != (ssize_t)state.size())
		return fail("NOTIFY_SOCKET " + std::string(path) + ": " + strerror(err));
	return {};
}

std::string sd_notify_reloading()
{
	timespec ts{};
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return "RELOADING=1\nMONOTONIC_USEC=" +
	       std::to_string((uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000);
}

}  // namespace scx_burst
