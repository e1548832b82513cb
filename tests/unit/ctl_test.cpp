// SPDX-License-Identifier: GPL-2.0
// The control protocol, against a fake backend: request handling line by
// line, then a real server on a temporary socket.
#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "scx_burst/ctl.hpp"
#include "scx_burst/ctl_client.hpp"
#include "scx_burst/ctl_server.hpp"
#include "scx_burst/domain.hpp"
#include "scx_burst/options.hpp"

namespace {

using nlohmann::json;
using namespace scx_burst;

class FakeBackend : public CtlBackend {
public:
	FakeBackend() { t = default_tunables(); }
	burst_tunables get() override { return t; }
	void set(const burst_tunables &n) override
	{
		t = n;
		sets++;
	}
	json stats() override { return {{"policy", policy_name(t.policy)}, {"cpus", json::array()}}; }
	std::string domain() override { return dom.empty() ? "all" : format_cpulist(dom); }
	Result<std::vector<int>> check_domain(const std::string &spec) override
	{
		Topology topo;
		topo.nr_cpu_ids = 4;
		topo.online = {0, 1, 2, 3};
		auto d = resolve_domain(spec, topo);
		if (!d)
			return std::unexpected(d.error());
		return d->cpus;
	}
	Result<> set_domain(const std::vector<int> &cpus) override
	{
		dom = cpus;
		sets++;
		return {};
	}

	burst_tunables t;
	std::vector<int> dom;
	int sets = 0;
};

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
		auto s = CtlServer::listen(path_);
		ASSERT_TRUE(s) << s.error().msg;
		server_ = std::make_unique<CtlServer>(std::move(*s));
		thread_ = std::thread([this] {
			std::vector<pollfd> fds;
			while (!stop_) {
				fds.clear();
				server_->add_pollfds(fds);
				if (poll(fds.data(), fds.size(), 20) > 0)
					server_->serve(fds, backend_);
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

	std::filesystem::path dir_;
	std::string path_;
	FakeBackend backend_;
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
