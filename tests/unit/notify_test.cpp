// SPDX-License-Identifier: GPL-2.0
// sd_notify over $NOTIFY_SOCKET (a path and an abstract name), and the
// journald priorities of the log lines.
#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "scx_burst/log.hpp"
#include "scx_burst/notify.hpp"

namespace {

using namespace scx_burst;

// A datagram socket bound to @name ('@' first: abstract), as systemd's.
class Listener {
public:
	explicit Listener(const std::string &name)
	{
		fd_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		sockaddr_un a{};
		a.sun_family = AF_UNIX;
		memcpy(a.sun_path, name.data(), name.size());
		if (name[0] == '@')
			a.sun_path[0] = '\0';
		socklen_t len = offsetof(sockaddr_un, sun_path) + name.size();
		ok_ = bind(fd_, (sockaddr *)&a, len) == 0;
		timeval tv{2, 0};
		setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	~Listener() { close(fd_); }
	bool ok() const { return ok_; }
	std::string take()
	{
		char buf[512];
		ssize_t n = recv(fd_, buf, sizeof(buf), 0);
		return n > 0 ? std::string(buf, n) : "";
	}

private:
	int fd_;
	bool ok_;
};

TEST(Notify, PathSocket)
{
	auto path = std::filesystem::temp_directory_path() /
		    ("scx_burst_notify." + std::to_string(getpid()));
	Listener l(path.string());
	ASSERT_TRUE(l.ok());
	setenv("NOTIFY_SOCKET", path.c_str(), 1);
	EXPECT_TRUE(sd_notify_send("READY=1"));
	EXPECT_EQ(l.take(), "READY=1");
	std::string reload = sd_notify_reloading();
	EXPECT_TRUE(sd_notify_send(reload));
	EXPECT_EQ(l.take(), reload);
	EXPECT_EQ(reload.rfind("RELOADING=1\nMONOTONIC_USEC=", 0), 0u);
	unsetenv("NOTIFY_SOCKET");
	std::filesystem::remove(path);
}

TEST(Notify, AbstractSocket)
{
	std::string name = "@scx_burst_notify_test." + std::to_string(getpid());
	Listener l(name);
	ASSERT_TRUE(l.ok());
	setenv("NOTIFY_SOCKET", name.c_str(), 1);
	EXPECT_TRUE(sd_notify_send("STOPPING=1"));
	EXPECT_EQ(l.take(), "STOPPING=1");
	unsetenv("NOTIFY_SOCKET");
}

TEST(Notify, NoSocketNoError)
{
	unsetenv("NOTIFY_SOCKET");
	EXPECT_TRUE(sd_notify_send("READY=1"));
	setenv("NOTIFY_SOCKET", "/nonexistent/notify", 1);
	auto r = sd_notify_send("READY=1");
	ASSERT_FALSE(r);
	EXPECT_NE(r.error().msg.find("/nonexistent/notify"), std::string::npos);
	setenv("NOTIFY_SOCKET", "relative", 1);
	EXPECT_FALSE(sd_notify_send("READY=1"));
	unsetenv("NOTIFY_SOCKET");
}

TEST(Log, JournalPriorities)
{
	EXPECT_EQ(journal_priority(spdlog::level::debug), 7);
	EXPECT_EQ(journal_priority(spdlog::level::info), 6);
	EXPECT_EQ(journal_priority(spdlog::level::warn), 4);
	EXPECT_EQ(journal_priority(spdlog::level::err), 3);
	EXPECT_EQ(journal_priority(spdlog::level::critical), 2);
}

TEST(Log, JournalStreamMustBeStderr)
{
	struct stat st;
	ASSERT_EQ(fstat(STDERR_FILENO, &st), 0);
	std::string mine = std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
	EXPECT_TRUE(stderr_is_journal(mine.c_str()));
	EXPECT_FALSE(stderr_is_journal(nullptr));
	EXPECT_FALSE(stderr_is_journal("garbage"));
	std::string other = std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino + 1);
	EXPECT_FALSE(stderr_is_journal(other.c_str()));
}

}  // namespace
