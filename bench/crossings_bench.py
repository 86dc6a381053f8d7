"""Package crossings in the review's walk of one @mention (issue 23): how often the code that answers
a data question calls from one package into another.

The walk: "average arrival delay by carrier last month" asked through `agent.api` (ask, the reply,
then "run" at the confirmation, as bench/reader_bench.py's `_ask` does), on the demo warehouse with
the offline model, its CPU steps in this process so their calls are seen too.

A package is the first level under agent/ or bot/ (agent.tools, agent.supervisor, agent.semantic,
agent.bootstrap, ...). A crossing is a call into project code whose nearest project caller is in
another package. Third-party frames are transparent (agent.tools calling agent.supervisor through
LangGraph counts once, as agent.tools -> agent.supervisor), and so are the event loop and
`asyncio.to_thread`: a task or a thread is charged to the project frame that started it. A coroutine
or generator resumed is not a call; only its start is.

    python bench/crossings_bench.py [--smoke] [--top N] [--functions N]

It first walks another question ("number of flights by origin", not counted), so what the process
reads once (imports, word tables, the warehouse's schema) is not charged to the walk; --smoke skips
that and prints less, to check the bench itself works.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import dis
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

QUESTION = "average arrival delay by carrier last month"
WARM_UP = "number of flights by origin"
ROOTS = ("agent", "bot")
CHECKPOINTER = "agent.session.memory"  # a module of agent.session


def package(module: str) -> str | None:
    """`agent.tools.semantic` -> `agent.tools`; `agent.bootstrap` -> `agent.bootstrap`; None outside the project."""
    parts = module.split(".")
    if parts[0] not in ROOTS:
        return None
    return ".".join(parts[:2])


class Crossings:
    """A profile hook counting crossings while `counting` is set (in every thread it was installed in)."""

    def __init__(self) -> None:
        self.counting = False
        self.pairs: collections.Counter[tuple[str, str]] = collections.Counter()
        self.functions: dict[tuple[str, str], collections.Counter[str]] = collections.defaultdict(collections.Counter)
        self.calls = 0  # project calls seen while counting, crossing or not
        self._starts: dict[CodeType, int] = {}  # each code's offset where a fresh call begins
        # where a task's or a thread's first frame was started from: id(frame) or thread id -> caller
        # (the frame is kept with it, so its id is not reused by another frame meanwhile)
        self._task_parents: dict[int, tuple[FrameType, tuple[str, str]]] = {}
        self._thread_parent = threading.local()

    # -- where a call comes from --------------------------------------------------------------

    def _fresh(self, frame: FrameType) -> bool:
        """A call, not a generator or coroutine resumed: the frame stands at its code's first RESUME."""
        code = frame.f_code
        start = self._starts.get(code)
        if start is None:
            start = next((i.offset for i in dis.get_instructions(code) if i.opname == "RESUME"), 0)
            self._starts[code] = start
        return frame.f_lasti <= start

    def caller(self, frame: FrameType | None) -> tuple[str, str] | None:
        """(package, function) of the nearest project frame from `frame` up, across tasks and threads."""
        while frame is not None:
            pkg = package(frame.f_globals.get("__name__", ""))
            if pkg is not None:
                return pkg, f"{frame.f_globals['__name__']}.{frame.f_code.co_qualname}"
            started = self._task_parents.get(id(frame))
            if started is not None:
                return started[1]
            frame = frame.f_back
        return getattr(self._thread_parent, "caller", None)

    # -- the hook ------------------------------------------------------------------------------

    def hook(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or not self.counting:
            return
        module = frame.f_globals.get("__name__", "")
        pkg = package(module)
        # `<module>`: an annotation evaluated in a module's namespace (typing.get_type_hints), not a call
        if pkg is None or frame.f_code.co_name == "<module>" or not self._fresh(frame):
            return
        self.calls += 1
        found = self.caller(frame.f_back)
        if found is None or found[0] == pkg:
            return
        pair = (found[0], pkg)
        self.pairs[pair] += 1
        self.functions[pair][f"{found[1]} -> {module}.{frame.f_code.co_qualname}"] += 1

    # -- tasks and threads charged to who started them ------------------------------------------

    def task_factory(self, loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
        frame = getattr(coro, "cr_frame", None)
        if frame is not None:
            parent = self.caller(sys._getframe(1))
            if parent is not None:
                self._task_parents[id(frame)] = (frame, parent)
        return asyncio.Task(coro, loop=loop, **kwargs)

    def to_thread(self, original: Callable[..., Any]) -> Callable[..., Any]:
        hook = self

        async def to_thread(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
            parent = hook.caller(sys._getframe(1))

            def charged() -> Any:
                hook._thread_parent.caller = parent
                try:
                    return func(*args, **kwargs)
                finally:
                    hook._thread_parent.caller = None

            return await original(charged)

        return to_thread

    def clear(self) -> None:
        self.pairs.clear()
        self.functions.clear()
        self.calls = 0

    @property
    def total(self) -> int:
        return sum(self.pairs.values())


async def walk(assistant: Any, question: str) -> Any:
    """One @mention as the bot makes it: ask, then "run" at the confirmation."""
    session = "crossings-" + uuid.uuid4().hex[:8]
    reply = await assistant.reply(assistant.ask(session, question))
    for _ in range(3):
        if not (reply.ask_human and reply.ask_human.kind == "confirm_sql"):
            break
        reply = await assistant.reply(assistant.resume(session, "run"))
    if reply.error is not None or not reply.rows:
        raise SystemExit(f"the walk did not end in rows: {reply.error or reply.text!r}")
    return reply


async def measure(smoke: bool) -> Crossings:
    from agent.api import Assistant, load_settings
    from agent.bootstrap import build_context

    crossings = Crossings()
    asyncio.get_running_loop().set_task_factory(crossings.task_factory)
    to_thread = asyncio.to_thread
    asyncio.to_thread = crossings.to_thread(to_thread)  # type: ignore[assignment]
    threading.setprofile(crossings.hook)
    sys.setprofile(crossings.hook)
    data_dir = tempfile.mkdtemp(prefix="crossings-bench-")
    settings = load_settings(_env_file=None, data_dir=data_dir, openai_api_key=None, redis_url=None,
                             warehouse_url=None, semantic_model_path=None, catalog_path=None, policy_path=None)
    # Its CPU steps in this process: the hook sees them (a worker's calls would be out of its sight).
    assistant = Assistant(build_context(settings, in_process=True, warm=False))
    try:
        if not smoke:
            await walk(assistant, WARM_UP)
        crossings.counting = True
        await walk(assistant, QUESTION)
        crossings.counting = False
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
        asyncio.to_thread = to_thread  # type: ignore[assignment]  # bench/smoke_all.py runs more benches here
        await assistant.aclose()
    return crossings


def report(crossings: Crossings, top: int, functions: int) -> None:
    print(f"walk: {QUESTION!r} (ask, then run at the confirmation)")
    print(f"package crossings: {crossings.total} (of {crossings.calls} calls into project code)")
    # LangGraph calls the in-process checkpointer's serializer once per channel per checkpoint read or
    # write; with REDIS_URL set the same work is checkpoint_redis's, outside agent/ and not counted.
    saver = sum(n for names in crossings.functions.values() for name, n in names.items()
                if name.split(" -> ")[1].startswith(CHECKPOINTER + "."))
    print(f"  of which {saver} into the in-process checkpointer ({CHECKPOINTER}: its serializer, per channel "
          f"of each checkpoint read or written); {crossings.total - saver} without")
    edges = sum(len(names) for names in crossings.functions.values())
    print(f"  {edges} distinct caller -> callee function pairs in all (the surface a reader meets)")
    for (source, target), count in crossings.pairs.most_common(top):
        print(f"{count:>5}  {source} -> {target}")
        for name, n in crossings.functions[(source, target)].most_common(functions):
            print(f"{'':>9}{n:>4}  {name}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="no warm-up walk, a short list: the bench works")
    parser.add_argument("--top", type=int, default=12, help="package pairs shown")
    parser.add_argument("--functions", type=int, default=4, help="functions shown per pair")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    crossings = asyncio.run(measure(args.smoke))
    if args.smoke:
        args.top, args.functions = 5, 2
    report(crossings, args.top, args.functions)
    print(f"({time.perf_counter() - started:.1f} s with the profiler on)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
