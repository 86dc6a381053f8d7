"""A bot that serves has grown its descriptor table already: a burst's sockets never wait for it to grow
(bot/descriptors.py), and growing it touches no descriptor in use."""

from __future__ import annotations

import os
import resource
from pathlib import Path

from bot.descriptors import RESERVED, reserve_descriptors


def table_size() -> int:
    """How many descriptors the process's table holds now (Linux's FDSize)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("FDSize:"):
            return int(line.split()[1])
    raise AssertionError("no FDSize in /proc/self/status")


def reservable() -> int:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return RESERVED if soft == resource.RLIM_INFINITY else min(RESERVED, soft)


async def test_a_started_bot_has_grown_its_descriptor_table_before_the_first_request(bot_settings, fake_agent):
    from bot.runtime import build_runtime

    runtime = build_runtime(bot_settings, fake_agent)
    await runtime.start()
    try:
        assert table_size() >= reservable()
    finally:
        await runtime.close()


def test_growing_the_table_leaves_a_descriptor_open_at_the_top_as_it_was(tmp_path):
    kept = tmp_path / "kept"
    kept.write_text("still here")
    top = reservable() - 1
    with open(kept, "rb") as source:
        os.dup2(source.fileno(), top)  # a descriptor in use where the table is grown to
    try:
        reserve_descriptors()
        assert os.pread(top, 100, 0) == b"still here"
        assert table_size() >= reservable()
    finally:
        os.close(top)
