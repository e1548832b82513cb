#!/usr/bin/env bash
# The run command's old place: the command now lives at the top of the
# tree (./run-scx-burst.sh, README "The two commands"); this forwards to it.
exec "$(cd "$(dirname "$0")/.." && pwd)/run-scx-burst.sh" "$@"
