"""The image runs `python -m bot` from its work directory, which imports the copied sources there, not the
installed package: each copied package must have its bytecode compiled at build time, or every start
compiles it again (PYTHONDONTWRITEBYTECODE is set, and the app user cannot write there anyway)."""

from __future__ import annotations

import re
from pathlib import Path

DOCKERFILE = Path(__file__).resolve().parents[1] / "Dockerfile"


def test_every_package_copied_into_the_work_directory_is_compiled_at_build_time():
    text = DOCKERFILE.read_text(encoding="utf-8")
    root = DOCKERFILE.parent
    copied = {m.group(1) for m in re.finditer(r"^COPY (\w+) \./\1$", text, re.MULTILINE)
              if (root / m.group(1) / "__init__.py").is_file()}  # Python packages, not the lock files
    compiled = re.search(r"python -m compileall -q ([\w ]+)", text)
    assert copied >= {"agent", "bot"}
    assert compiled is not None and copied <= set(compiled.group(1).split())
    assert re.search(r'^CMD \["python", "-m", "bot"\]', text, re.MULTILINE)  # run from the work directory
