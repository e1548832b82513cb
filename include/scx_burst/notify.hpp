// SPDX-License-Identifier: GPL-2.0
// The service manager's readiness protocol (sd_notify(3)), spoken directly:
// one datagram of "KEY=VALUE" lines to the socket named by $NOTIFY_SOCKET.
// Without that variable (not started by systemd as Type=notify) it does
// nothing, so the daemon calls it unconditionally.
#pragma once

#include <string>

#include "error.hpp"

namespace scx_burst {

// Sends @state ("READY=1", "STOPPING=1", "RELOADING=1\nMONOTONIC_USEC=...")
// to $NOTIFY_SOCKET; success without the variable.
Result<> sd_notify_send(const std::string &state);

// "RELOADING=1\nMONOTONIC_USEC=<CLOCK_MONOTONIC in us>", as
// systemd.service(5) asks for Type=notify-reload.
std::string sd_notify_reloading();

}  // namespace scx_burst
