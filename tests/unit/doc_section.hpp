// SPDX-License-Identifier: GPL-2.0
// Generated sections of docs/*.md: the text between two marker lines must
// be what the code prints now.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace scx_burst::test {

// The text of SCX_BURST_SOURCE_DIR/@doc between "<!-- @name: generated -->"
// and "<!-- end of @name -->" equals @generated; @regen says how to
// regenerate it.
inline void expect_doc_section(const std::string &doc, const std::string &name,
			       const std::string &generated, const std::string &regen)
{
	std::ifstream in(std::string(SCX_BURST_SOURCE_DIR) + "/" + doc);
	ASSERT_TRUE(in) << doc << " missing";
	std::stringstream ss;
	ss << in.rdbuf();
	const std::string text = ss.str();
	const std::string begin = "<!-- " + name + ": generated -->\n";
	const std::string end = "<!-- end of " + name + " -->";
	auto b = text.find(begin), e = text.find(end);
	ASSERT_NE(b, std::string::npos) << doc << ": no line " << begin;
	ASSERT_NE(e, std::string::npos) << doc << ": no line " << end;
	EXPECT_EQ(text.substr(b + begin.size(), e - b - begin.size()), generated)
		<< "regenerate " << doc << "'s " << name << ": " << regen;
}

}  // namespace scx_burst::test
