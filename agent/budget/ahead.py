"""One CPU step in a process started before the step is asked for, for a command line's one question.

A command line runs its steps in its own process (agent/budget/in_process.py), but one of them, the
chart, first imports a library that costs about a fifth of the command's CPU (matplotlib), and nothing
else needs it. A process forked at the start imports it on another core while the command reads the
question, imports and runs the rest; the step then only waits for the drawing. Forked, not started
afresh: it shares what the command has imported already (pydantic, the agent's modules), where a new
interpreter would import them again, about as much CPU as the library itself. It is forked while the
command has no other thread (before the warehouse opens), so no lock another thread held is copied.

The step and its result are the same as in-process: `target` names the function the step calls. Its
budget is the step's, counted from when the step is sent, as in-process (where the library's import
also falls inside it): past it the process is killed. It serves one step, then exits; when the step
does not come (the answer has no chart), it is killed when the caller closes it: the guess cost the
CPU it had used by then, on another core.
"""

from __future__ import annotations

import importlib
import logging
import os
import pickle
import select
import signal
import sys
import time
import traceback
from typing import Any

from agent.errors import InputTooLargeError, StepOverrunError

log = logging.getLogger(__name__)


class StepAhead:
    """The process for one step, forked now; `run` sends it the step's arguments and waits for its result."""

    def __init__(self, target: str):
        self.target = target
        self.overran = False  # the step ran past its budget and was stopped
        step_in, self._send = os.pipe()
        self._receive, result_out = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns to the caller's code
            status = 1
            try:
                os.close(self._send)
                os.close(self._receive)
                signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C stops the command; the child with it
                _serve(target, step_in, result_out)
                status = 0
            except BaseException:  # noqa: BLE001 - said on stderr; the caller sees the process fail
                traceback.print_exc()
            finally:
                sys.stderr.flush()  # only stderr: what the caller had not yet written to stdout is its own
                os._exit(status)  # nothing of the caller's (open files, the warehouse) is closed twice
        os.close(step_in)
        os.close(result_out)
        self._pid: int | None = pid

    def run(self, what: str, budget_s: float, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """The step's result, or the error it raised (as in-process); blocks the calling thread."""
        if self._pid is None:
            raise RuntimeError(f"the process for {self.target} has served its step already")
        with os.fdopen(self._send, "wb") as step:
            step.write(pickle.dumps((args, kwargs), protocol=pickle.HIGHEST_PROTOCOL))
        out = _read_all(self._receive, time.monotonic() + budget_s)
        os.close(self._receive)
        if out is None:
            self.overran = True
            self._stop()
            log.warning("%s ran past its %gs budget; its process was stopped", what, budget_s)
            raise StepOverrunError(
                f"{what} took longer than {budget_s:g} seconds, so I stopped it. Please send something shorter or simpler."
            )
        status = self._reap()
        if status != 0 or not out:
            log.error("%s: its process stopped with status %s", what, status)
            raise StepOverrunError(f"{what} failed: the worker running it stopped unexpectedly. Please try again.")
        done, value = pickle.loads(out)
        if done:
            return value
        if isinstance(value, RecursionError):
            raise InputTooLargeError(f"{what} stopped: the input is nested too deeply for me to read.")
        raise value

    def close(self) -> None:
        """Stop the process if its step never came, and reap it (so its CPU is counted as the caller's)."""
        if self._pid is not None:
            os.close(self._send)
            os.close(self._receive)
            self._stop()

    def _stop(self) -> None:
        assert self._pid is not None
        os.kill(self._pid, signal.SIGKILL)
        self._reap()

    def _reap(self) -> int:
        assert self._pid is not None
        _, status = os.waitpid(self._pid, 0)
        self._pid = None
        return os.waitstatus_to_exitcode(status)


def _read_all(fd: int, deadline: float) -> bytes | None:
    """Everything written to `fd` until its writer closes it, or None at `deadline`."""
    chunks: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return None
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _serve(target: str, step_in: int, result_out: int) -> None:
    module, _, name = target.partition(":")
    step = getattr(importlib.import_module(module), name)
    with os.fdopen(step_in, "rb") as received:
        data = received.read()
    if not data:  # closed unused
        return
    args, kwargs = pickle.loads(data)
    try:
        outcome: tuple[bool, Any] = (True, step(*args, **kwargs))
    except Exception as exc:  # noqa: BLE001 - the step's error goes back to the caller, who raises it
        outcome = (False, exc)
    try:
        payload = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # noqa: BLE001 - an error that does not pickle is still reported, as text
        payload = pickle.dumps((False, RuntimeError(f"{type(outcome[1]).__name__}: {outcome[1]} ({exc})")))
    with os.fdopen(result_out, "wb") as result:
        result.write(payload)
