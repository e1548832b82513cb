/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scx_burst's per-task state (struct burst_task_ctx), one task storage
 * map.  The scheduler owns it; the tracer (trace.bpf.c) declares the same
 * map from this header so that libbpf can hand it the scheduler's map
 * (bpf_map__reuse_fd), which works only when the two definitions match.
 */
#ifndef SCX_BURST_TASK_CTX_MAP_BPF_H
#define SCX_BURST_TASK_CTX_MAP_BPF_H

#include <scx_burst/intf.h>

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct burst_task_ctx);
} task_ctxs SEC(".maps");

#endif /* SCX_BURST_TASK_CTX_MAP_BPF_H */
