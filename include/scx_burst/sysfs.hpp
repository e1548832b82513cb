// SPDX-License-Identifier: GPL-2.0
// Pre-flight checks against /sys/kernel/sched_ext, before anything loads.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "error.hpp"

namespace scx_burst {

inline const std::filesystem::path kSchedExtRoot = "/sys/kernel/sched_ext";

// First line of a file, without the newline; empty if unreadable.
std::string read_line(const std::filesystem::path &path);

// "disabled", "enabled", ... or empty when sched_ext is absent.
std::string sched_ext_state(const std::filesystem::path &root = kSchedExtRoot);

// The kernel's CPU hotplug event counter, 0 if unreadable.
uint64_t sched_ext_hotplug_seq(const std::filesystem::path &root = kSchedExtRoot);

// Name of the active sched_ext scheduler, empty if none.
std::string sched_ext_ops(const std::filesystem::path &root = kSchedExtRoot);

// Fails with a one-line reason if the kernel has no sched_ext.
Result<> check_sched_ext_present(const std::filesystem::path &root = kSchedExtRoot);

// Fails with a one-line reason if a scheduler cannot be loaded now: no
// sched_ext in the kernel, or another scheduler active.
Result<> check_sched_ext(const std::filesystem::path &root = kSchedExtRoot);

// The one-line error for "another scheduler is active" (@ops and @state as
// root/ops and state read), with how to stop the usual ones.
std::string active_scheduler_error(const std::string &ops, const std::string &state);

// Fails unless running as root.
Result<> check_root();

}  // namespace scx_burst
