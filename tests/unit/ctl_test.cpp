// SPDX-License-Identifier: GPL-2.0
// The control protocol, against a fake backend: request handling line by
// line, then a real server on a temporary socket.
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "scx_burst/ctl.hpp"
#include "scx_burst/ctl_client.hpp"
#include "scx_burst/ctl_server.hpp"
#include "scx_burst/domain.hpp"
#include "scx_burst/options.hpp"
#include "fake_backend.hpp"

namespace {

using nlohmann::json;
using namespace scx_burst;
using scx_burst::test::FakeBackend;

json handle(FakeBackend &b, const std::string &line)
{
	return json::parse(ctl_handle_line(line, b));
}

TEST(Ctl, GetReportsSettings)
{
	FakeBackend b;
	auto r = handle(b, R"({"req":"get"})");
	EXPECT_EQ(r["errno"], 0);
	EXPECT_EQ(r["args"]["resp"]["policy"], "burst");
	EXPECT_EQ(r["args"]["resp"]["slice_us"], 5000);
	EXPECT_EQ(r["args"]["resp"]["rr_interval_ms"], 6);
	EXPECT_EQ(r["args"]["resp"]["burst_penalty_offset"], 18);
}

TEST(Ctl, SetAppliesAllFields)
{
	FakeBackend b;
	auto r = handle(b, R"({"req":"set","args":{"policy":"deadline","rr_interval_ms":4,
		"slice_us":3000,"burst_penalty_offset":12,"burst_penalty_scale":2000,
		"burst_smoothness":2,"preempt_margin":5,"burst_enabled":false}})");
	ASSERT_EQ(r["errno"], 0) << r.dump();
	EXPECT_EQ(b.t.policy, (uint32_t)BURST_POLICY_DEADLINE);
	EXPECT_EQ(b.t.rr_interval_ns, 4000000u);
	EXPECT_EQ(b.t.slice_ns, 3000000u);
	EXPECT_EQ(b.t.burst_penalty_offset, 12u);
	EXPECT_EQ(b.t.burst_penalty_scale, 2000u);
	EXPECT_EQ(b.t.burst_smoothness, 2u);
	EXPECT_EQ(b.t.preempt_margin, 5u);
	EXPECT_EQ(b.t.burst_enabled, 0u);
	EXPECT_EQ(r["args"]["resp"]["policy"], "deadline");
}

TEST(Ctl, SetIsAllOrNothing)
{
	FakeBackend b;
	auto before = b.t;
	auto r = handle(b, R"({"req":"set","args":{"policy":"deadline","rr_interval_ms":0}})");
	EXPECT_EQ(r["errno"], ERANGE);
	EXPECT_NE(r["args"]["resp"].get<std::string>().find("rr_interval_ms"), std::string::npos);
	EXPECT_EQ(b.sets, 0);
	EXPECT_EQ(b.t.policy, before.policy);
}

TEST(Ctl, Errors)
{
	struct Case {
		const char *line;
		int err;
		const char *needle;
	} cases[] = {
		{"{not json", EINVAL, "malformed"},
		{"[1,2]", EINVAL, "malformed"},
		{R"({"args":{}})", EINVAL, "req"},
		{R"({"req":"reboot"})", EOPNOTSUPP, "unknown request"},
		{R"({"req":"get","extra":1})", EINVAL, "unknown field"},
		{R"({"req":"set","args":{"turbo":1}})", EINVAL, "turbo: no such setting"},
		{R"({"req":"set","args":{"policy":"cfs"}})", EINVAL, "policy"},
		{R"({"req":"set","args":{"policy":1}})", EINVAL, "policy"},
		{R"({"req":"set","args":{"slice_us":"fast"}})", EINVAL, "integer"},
		{R"({"req":"set","args":{"slice_us":1.5}})", EINVAL, "integer"},
		{R"({"req":"set","args":{"slice_us":99}})", ERANGE, "out of range"},
		{R"({"req":"set","args":{"slice_us":-1}})", ERANGE, "out of range"},
		{R"({"req":"set","args":{"burst_penalty_scale":4097}})", ERANGE, "out of range"},
		{R"({"req":"set","args":{"burst_enabled":1}})", EINVAL, "true or false"},
		{R"({"req":"set","args":{}})", EINVAL, "object"},
		{R"({"req":"set"})", EINVAL, "object"},
	};
	for (const auto &c : cases) {
		FakeBackend b;
		auto r = handle(b, c.line);
		EXPECT_EQ(r["errno"], c.err) << c.line << " -> " << r.dump();
		ASSERT_TRUE(r["args"]["resp"].is_string()) << r.dump();
		EXPECT_NE(r["args"]["resp"].get<std::string>().find(c.needle), std::string::npos)
			<< c.line << " -> " << r.dump();
		EXPECT_EQ(b.sets, 0) << c.line;
	}
}

TEST(Ctl, PrimaryDomainLive)
{
	FakeBackend b;
	auto r = handle(b, R"({"req":"set","args":{"primary_domain":"0-1"}})");
	ASSERT_EQ(r["errno"], 0) << r.dump();
	EXPECT_EQ(b.dom, (std::vector<int>{0, 1}));
	EXPECT_EQ(r["args"]["resp"]["primary_domain"], "0-1");
	r = handle(b, R"({"req":"set","args":{"primary_domain":"0xc","slice_us":2000}})");
	ASSERT_EQ(r["errno"], 0) << r.dump();
	EXPECT_EQ(b.dom, (std::vector<int>{2, 3}));
	EXPECT_EQ(b.t.slice_ns, 2000000u);
	EXPECT_EQ(handle(b, R"({"req":"get"})")["args"]["resp"]["primary_domain"], "2-3");
	// invalid domain: nothing changes, not even the valid field next to it
	int sets = b.sets;
	for (const char *bad : {R"({"req":"set","args":{"primary_domain":"0x30","slice_us":3000}})",
				R"({"req":"set","args":{"primary_domain":"0x0"}})",
				R"({"req":"set","args":{"primary_domain":"zz"}})",
				R"({"req":"set","args":{"primary_domain":[1]}})",
				R"({"req":"set","args":{"primary_domain":"0-1","slice_us":1}})"}) {
		r = handle(b, bad);
		EXPECT_NE(r["errno"], 0) << bad;
		EXPECT_EQ(b.sets, sets) << bad;
		EXPECT_EQ(b.dom, (std::vector<int>{2, 3})) << bad;
		EXPECT_EQ(b.t.slice_ns, 2000000u) << bad;
	}
	r = handle(b, R"({"req":"set","args":{"primary_domain":"all"}})");
	ASSERT_EQ(r["errno"], 0);
	EXPECT_TRUE(b.dom.empty());
}

TEST(Ctl, StatsMetaDescribesCounters)
{
	FakeBackend b;
	auto r = handle(b, R"({"req":"stats_meta"})");
	EXPECT_EQ(r["errno"], 0);
	EXPECT_TRUE(r["args"]["resp"].contains("enqueue"));
	EXPECT_TRUE(r["args"]["resp"].contains("deadline_renew"));
}

TEST(Ctl, Assignments)
{
	auto a = parse_assignments({"policy=deadline", "rr_interval_ms=4", "burst_enabled=false"});
	ASSERT_TRUE(a);
	EXPECT_EQ((*a)["policy"], "deadline");
	EXPECT_EQ((*a)["rr_interval_ms"], 4);
	EXPECT_EQ((*a)["burst_enabled"], false);
	EXPECT_FALSE(parse_assignments({"policy"}));
	EXPECT_FALSE(parse_assignments({"=3"}));
	// valid UTF-8 goes through, to be refused by the daemon's checks
	auto u = parse_assignments({"primary_domain=0x\xc3\xa9"});
	ASSERT_TRUE(u);
	EXPECT_EQ((*u)["primary_domain"], "0x\xc3\xa9");
}

// Invalid UTF-8 on the command line cannot go into a JSON request: `ctl
// set policy=$'\xff'` aborted in json::dump() (found by the cli_values
// fuzz target).  Now it is one clear error before anything is sent.
TEST(Ctl, CommandRequestRefusesInvalidUtf8)
{
	for (const char *w : {"policy=\xff", "\xc3=1", "primary_domain=0x\xc0\xaf",
			      "policy=dead\xedline"}) {
		CtlCommand cmd{"set", {"slice_us=2000", w}};
		Result<std::string> r;
		ASSERT_NO_THROW(r = ctl_command_request(cmd)) << w;
		ASSERT_FALSE(r) << w;
		EXPECT_NE(r.error().msg.find("is not valid UTF-8"), std::string::npos) << r.error().msg;
		EXPECT_NO_THROW((void)json(r.error().msg).dump()) << "the message itself is UTF-8";
	}
	auto ok = ctl_command_request({"set", {"policy=deadline", "slice_us=2000"}});
	ASSERT_TRUE(ok) << ok.error().msg;
	EXPECT_EQ(json::parse(*ok),
		  (json{{"req", "set"}, {"args", {{"policy", "deadline"}, {"slice_us", 2000}}}}));
	auto get = ctl_command_request({"get", {}});
	ASSERT_TRUE(get);
	EXPECT_EQ(*get, R"({"req":"get"})");
	EXPECT_FALSE(ctl_command_request({"get", {"policy=burst"}}));
	auto raw = ctl_command_request({"raw", {"{\"req\":", "\"get\"}"}});
	ASSERT_TRUE(raw);
	EXPECT_EQ(*raw, R"({"req": "get"})");
}

// A real server on a temporary socket, served by a thread.
class CtlSocket : public testing::Test {
protected:
	void SetUp() override
	{
		dir_ = std::filesystem::temp_directory_path() /
		       ("scx_burst_ctl_" + std::to_string(getpid()));
		std::filesystem::remove_all(dir_);
		path_ = (dir_ / "ctl.sock").string();
		auto s = CtlServer::listen(path_, limits_);
		ASSERT_TRUE(s) << s.error().msg;
		server_ = std::make_unique<CtlServer>(std::move(*s));
		// As the daemon's loop: serve after every poll, timeouts included.
		thread_ = std::thread([this] {
			std::vector<pollfd> fds;
			while (!stop_) {
				fds.clear();
				server_->add_pollfds(fds);
				poll(fds.data(), fds.size(), 20);
				auto t0 = std::chrono::steady_clock::now();
				server_->serve(fds, backend_);
				auto us = std::chrono::duration_cast<std::chrono::microseconds>(
					std::chrono::steady_clock::now() - t0).count();
				if (us > max_serve_us_)
					max_serve_us_ = us;
				size_t n = server_->nr_clients();
				nr_clients_ = n;
				if (n > max_clients_)
					max_clients_ = n;
			}
		});
	}
	void TearDown() override
	{
		stop_ = true;
		thread_.join();
		server_.reset();
		EXPECT_FALSE(std::filesystem::exists(path_)) << "socket left behind";
		std::filesystem::remove_all(dir_);
	}

	CtlLimits limits_;
	std::filesystem::path dir_;
	std::string path_;
	FakeBackend backend_;
	std::atomic<size_t> nr_clients_{0}, max_clients_{0};	// as the server saw them
	std::atomic<int64_t> max_serve_us_{0};			// longest serve() call
	std::unique_ptr<CtlServer> server_;
	std::thread thread_;
	std::atomic<bool> stop_{false};
};

TEST_F(CtlSocket, RoundTripAndMode)
{
	struct stat st;
	ASSERT_EQ(stat(path_.c_str(), &st), 0);
	EXPECT_EQ(st.st_mode & 0777, 0600u);
	EXPECT_TRUE(S_ISSOCK(st.st_mode));

	auto r = ctl_request(path_, {{"req", "set"}, {"args", {{"policy", "deadline"}}}});
	ASSERT_TRUE(r) << r.error().msg;
	EXPECT_EQ((*r)["errno"], 0);
	auto g = ctl_request(path_, {{"req", "get"}});
	ASSERT_TRUE(g);
	EXPECT_EQ((*g)["args"]["resp"]["policy"], "deadline");
	auto bad = ctl_request(path_, {{"req", "nope"}});
	ASSERT_TRUE(bad);
	EXPECT_NE((*bad)["errno"], 0);
	// the server is still fine after an error
	auto again = ctl_request(path_, {{"req", "get"}});
	ASSERT_TRUE(again);
	EXPECT_EQ((*again)["errno"], 0);
}

TEST_F(CtlSocket, SecondServerRefused)
{
	auto s = CtlServer::listen(path_);
	ASSERT_FALSE(s);
	EXPECT_NE(s.error().msg.find("another scx_burst daemon is already running"),
		  std::string::npos);
	// and the first still answers
	auto g = ctl_request(path_, {{"req", "get"}});
	ASSERT_TRUE(g) << g.error().msg;
}

TEST_F(CtlSocket, OversizedRequestRefused)
{
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	sockaddr_un addr{};
	addr.sun_family = AF_UNIX;
	strcpy(addr.sun_path, path_.c_str());
	ASSERT_EQ(connect(fd, (sockaddr *)&addr, sizeof(addr)), 0);
	std::string big(kCtlMaxLine + 100, 'x');
	ASSERT_GT(send(fd, big.data(), big.size(), MSG_NOSIGNAL), 0);
	std::string reply;
	char buf[512];
	ssize_t n;
	timeval tv{5, 0};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	while ((n = recv(fd, buf, sizeof(buf), 0)) > 0)
		reply.append(buf, n);	// until the server closes
	close(fd);
	auto nl = reply.find('\n');
	ASSERT_NE(nl, std::string::npos) << reply;
	auto j = json::parse(reply.substr(0, nl));
	EXPECT_EQ(j["errno"], E2BIG);
	EXPECT_EQ(backend_.sets, 0);
	auto g = ctl_request(path_, {{"req", "get"}});
	ASSERT_TRUE(g) << g.error().msg;
}

// A connected client socket that sends nothing unless told.
struct RawClient {
	explicit RawClient(const std::string &path)
	{
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		sockaddr_un addr{};
		addr.sun_family = AF_UNIX;
		strcpy(addr.sun_path, path.c_str());
		if (connect(fd, (sockaddr *)&addr, sizeof(addr))) {
			close(fd);
			fd = -1;
		}
	}
	RawClient(const RawClient &) = delete;
	~RawClient()
	{
		if (fd >= 0)
			close(fd);
	}
	// The server closed its end (reads EOF or an error) within @wait.
	bool closed_by_server(std::chrono::milliseconds wait) const
	{
		pollfd p{fd, POLLIN, 0};
		if (poll(&p, 1, wait.count()) <= 0)
			return false;
		char c;
		return recv(fd, &c, 1, MSG_DONTWAIT) <= 0;
	}

	int fd = -1;
};

using namespace std::chrono_literals;

// Polls @cond every few milliseconds for up to @limit.
template <typename F>
bool wait_for(F cond, std::chrono::milliseconds limit = 10s)
{
	auto end = std::chrono::steady_clock::now() + limit;
	while (!cond()) {
		if (std::chrono::steady_clock::now() > end)
			return false;
		std::this_thread::sleep_for(2ms);
	}
	return true;
}

class CtlSocketHeld : public CtlSocket {
protected:
	CtlSocketHeld() { limits_.idle_timeout = std::chrono::hours(1); }
};

// 50 silent clients hold connections: the server keeps the 16 newest, and
// a 51st client still gets its answer.
TEST_F(CtlSocketHeld, SilentClientsCannotLockTheOperatorOut)
{
	const size_t n = 50;
	std::vector<std::unique_ptr<RawClient>> silent;
	for (size_t i = 0; i < n; i++) {
		silent.push_back(std::make_unique<RawClient>(path_));
		ASSERT_GE(silent.back()->fd, 0) << "client " << i;
	}
	// The server evicts the one idle longest: the oldest 34 are closed.
	for (size_t i = 0; i < n - kCtlMaxClients; i++)
		EXPECT_TRUE(silent[i]->closed_by_server(10s)) << "client " << i << " kept";
	ASSERT_TRUE(wait_for([&] { return nr_clients_ == kCtlMaxClients; }))
		<< nr_clients_;
	for (size_t i = n - kCtlMaxClients; i < n; i++)
		EXPECT_FALSE(silent[i]->closed_by_server(0ms)) << "client " << i << " closed";

	auto g = ctl_request(path_, {{"req", "get"}});
	ASSERT_TRUE(g) << g.error().msg;
	EXPECT_EQ((*g)["errno"], 0);
	EXPECT_EQ((*g)["args"]["resp"]["policy"], "burst");
	EXPECT_LE(max_clients_, kCtlMaxClients);
}

// A client that sends requests and never reads the replies: the server
// must not wait for it (it waited up to 1 s per reply), and closes it once
// kCtlMaxPending of replies pile up.
TEST_F(CtlSocketHeld, ClientNotReadingDoesNotStallTheServer)
{
	RawClient flood(path_);
	ASSERT_GE(flood.fd, 0);
	std::string reqs;
	for (int i = 0; i < 3000; i++)
		reqs += "{\"req\":\"stats_meta\"}\n";
	size_t reply = ctl_handle_line(R"({"req":"stats_meta"})", backend_).size();
	ASSERT_GT(3000 * reply, 2 * kCtlMaxPending) << "replies too small to overflow";
	// The server may close it before it has read everything: ignore EPIPE.
	for (size_t off = 0; off < reqs.size();) {
		ssize_t n = send(flood.fd, reqs.data() + off, reqs.size() - off, MSG_NOSIGNAL);
		if (n <= 0)
			break;
		off += n;
	}
	auto g = ctl_request(path_, {{"req", "get"}});
	ASSERT_TRUE(g) << g.error().msg;
	EXPECT_EQ((*g)["errno"], 0);
	ASSERT_TRUE(wait_for([&] { return nr_clients_ == 0; })) << "the flooding client is kept";

	// Drain what was sent before the server gave up: then the end.
	timeval tv{10, 0};
	setsockopt(flood.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	char buf[65536];
	ssize_t n;
	size_t got = 0;
	while ((n = recv(flood.fd, buf, sizeof(buf), 0)) > 0)
		got += n;
	EXPECT_TRUE(n == 0 || errno == ECONNRESET) << "not closed: " << strerror(errno);
	EXPECT_LT(got, 3000 * reply) << "every reply arrived: the client was never dropped";
	EXPECT_LT(max_serve_us_, 900000) << "serve() blocked on a client";
}

class CtlSocketIdle : public CtlSocket {
protected:
	CtlSocketIdle() { limits_.idle_timeout = 1s; }
};

// A silent client is closed after the idle timeout, not before; one that
// keeps talking is not.
TEST_F(CtlSocketIdle, SilentClientsTimeOut)
{
	auto start = std::chrono::steady_clock::now();
	RawClient quiet(path_), chatty(path_);
	ASSERT_GE(quiet.fd, 0);
	ASSERT_GE(chatty.fd, 0);
	ASSERT_TRUE(wait_for([&] { return nr_clients_ == 2; }));

	std::string req = "{\"req\":\"get\"}\n";
	bool chatty_ok = true;
	while (!quiet.closed_by_server(50ms)) {
		ASSERT_LT(std::chrono::steady_clock::now() - start, 10s) << "never closed";
		ASSERT_EQ(send(chatty.fd, req.data(), req.size(), MSG_NOSIGNAL),
			  (ssize_t)req.size());
		char buf[4096];
		timeval tv{5, 0};
		setsockopt(chatty.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		std::string reply;
		while (reply.find('\n') == std::string::npos) {
			ssize_t r = recv(chatty.fd, buf, sizeof(buf), 0);
			if (r <= 0) {
				chatty_ok = false;
				break;
			}
			reply.append(buf, r);
		}
		ASSERT_TRUE(chatty_ok) << "the talking client was closed";
	}
	EXPECT_GE(std::chrono::steady_clock::now() - start, limits_.idle_timeout);
	EXPECT_FALSE(chatty.closed_by_server(0ms));
	// Once the other one falls silent too, it goes the same way.
	EXPECT_TRUE(chatty.closed_by_server(10s));
	EXPECT_TRUE(wait_for([&] { return nr_clients_ == 0; }));
}

TEST(CtlClient, NoDaemon)
{
	auto r = ctl_request("/nonexistent/scx_burst.sock", {{"req", "get"}});
	ASSERT_FALSE(r);
	EXPECT_NE(r.error().msg.find("cannot reach the scx_burst daemon"), std::string::npos);
}

}  // namespace

namespace {

// No request may take the daemon down: every line gets a reply that is
// valid JSON with a non-zero errno, and the settings stay as they were.
TEST(Ctl, HostileLinesGetAnErrorReply)
{
	FakeBackend b;
	auto before = b.t;
	const std::string lines[] = {
		"{\"req\":\"set\",\"args\":{\"primary_domain\":\"0x\xc3\xa9\"}}",	// 0xé
		"{\"req\":\"set\",\"args\":{\"primary_domain\":\"\xc3\xa9\"}}",
		"{\"req\":\"set\",\"args\":{\"policy\":\"d\xc3\xa9""adline\"}}",
		"{\"req\":\"s\xff\"}",						// invalid UTF-8
		std::string("{\"req\":\"get\"\0}", 15),				// NUL byte
		std::string(5000, '[') + std::string(5000, ']'),		// deep nesting
		"{\"req\":\"set\",\"args\":{\"slice_us\":1e400}}",
		"{\"req\":\"set\",\"args\":{\"slice_us\":-99999999999999999999}}",
		"{\"req\":\"set\",\"args\":{\"\xc3\xa9\":1}}",
		"{\"req\":\"set\",\"args\":[1,2]}",
		"{\"req\":\"set\",\"args\":null}",
		"{\"req\":\"set\",\"args\":{\"primary_domain\":[\"0-1\"]}}",
	};
	for (const auto &l : lines) {
		std::string reply;
		ASSERT_NO_THROW(reply = ctl_handle_line(l, b)) << l;
		auto r = json::parse(reply, nullptr, false);
		ASSERT_FALSE(r.is_discarded()) << reply;
		EXPECT_NE(r.value("errno", 0), 0) << reply;
	}
	EXPECT_EQ(b.sets, 0);
	EXPECT_EQ(std::memcmp(&b.t, &before, sizeof(before)), 0);
}

}  // namespace

namespace {

// Every request of the table is documented in docs/control.md's table and
// answers through the dispatcher.
TEST(CtlRequests, TableIsDocumentedAndDispatched)
{
	std::ifstream in(std::string(SCX_BURST_SOURCE_DIR) + "/docs/control.md");
	std::stringstream ss;
	ss << in.rdbuf();
	std::string doc = ss.str();
	ASSERT_FALSE(doc.empty());
	for (const auto &r : scx_burst::ctl_requests()) {
		EXPECT_NE(doc.find(std::string("| `") + r.name + "` |"), std::string::npos)
			<< r.name << " is missing from docs/control.md";
		EXPECT_EQ(scx_burst::find_ctl_request(r.name), &r);
		EXPECT_NE(r.handle, nullptr) << r.name;
	}
	EXPECT_EQ(scx_burst::find_ctl_request("raw"), nullptr) << "raw is the client's, not a request";
}

}  // namespace
