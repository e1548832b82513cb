// SPDX-License-Identifier: GPL-2.0
// The generated parts of scx_burst(8): the options as --help has them, the
// ctl keys from tunables_table.h and the stats columns from stats_table.h.
// docs/scx_burst.8.in holds the written parts; the build fills its
// @OPTIONS@, @CTL_KEYS@ and @STATS@ with `scx_burst --help-man SECTION`.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace scx_burst {

// roff text safe to put on a line of its own (dashes, backslashes and a
// leading dot escaped).
std::string roff_escape(const std::string &text);

// One .TP entry per visible option of @app, grouped as in --help.
std::string man_options(const CLI::App &app);

// One .TP entry per `ctl set` key, with its range and default.
std::string man_ctl_keys();

// One .TP entry per stats column (label, JSON name, meaning).
std::string man_stats();

}  // namespace scx_burst
