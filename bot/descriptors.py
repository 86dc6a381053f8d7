"""The process's file descriptor table, grown once before the bot serves instead of during a burst.

Linux grows a process's descriptor table by doubling it (past 256, 512, 1024… open descriptors), and in
a process with more than one thread each growth first waits for an RCU grace period: 5-15 ms measured
here, during which the thread opening the descriptor stands still. That thread is the event loop,
accepting a connection: a burst of requests is when the sockets first pass such a size, so every ack
of the burst waited for it (bench/burst_bench.py: the bot's ack p99 1.4x a bare app's, the same code
on a table already grown 1.1-1.2x). Grown here to RESERVED descriptors (or the soft limit), the table
does not grow again until that many are open at once; it costs 8 bytes a descriptor, and the kernel never
shrinks it.
"""

from __future__ import annotations

import fcntl
import logging
import os
import resource

log = logging.getLogger(__name__)

RESERVED = 4096  # far more sockets than the bot holds open at once (Slack's requests, its Web API pools)


def reserve_descriptors() -> None:
    """Grow the table to hold RESERVED descriptors (at most the soft RLIMIT_NOFILE) now."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    highest = RESERVED - 1 if soft == resource.RLIM_INFINITY else min(RESERVED, soft) - 1
    try:
        with open(os.devnull, "rb") as null:
            # F_DUPFD takes the lowest free descriptor at or above `highest` (dup2 would close one in use
            # there); the table is grown to hold it, and keeps that size once it is closed.
            os.close(fcntl.fcntl(null.fileno(), fcntl.F_DUPFD, highest))
    except OSError as exc:  # no descriptor free up there: the table grows as descriptors are opened
        log.debug("descriptor table not grown ahead: %s", exc)
