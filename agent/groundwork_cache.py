"""The demo warehouse's semantic model and values, kept in DATA_DIR/cache from one start to the next.

Reading the model's YAML and the warehouse's values is most of what a start does besides importing
(about 0.1 s of CPU, measured); for the demo both follow from inputs that can be hashed, so the
result is pickled under a name that is the SHA-256 of all of them: the warehouse file's bytes, the
files of SEMANTIC_MODEL_PATH, the agent package's code and YAML (the code that reads them), the
settings, and the versions of Python, of the libraries whose objects are pickled and of the word
tables. Any change gives another name, so what is read back is never stale. The files' own digests
are kept too, while the files are unchanged (agent/file_digests.py), so a start does not read them
all again to find the name. Another warehouse's values are live data with no content to hash: it is
read at every start, as before.

A file that cannot be read back (cut short, from another pickle protocol) is ignored and replaced;
writes replace the file whole, so a reader never sees half of one.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import sys
import tempfile
from pathlib import Path

import pydantic
import pydantic_core
import sqlglot

from agent.file_digests import FileDigests
from agent.text import word_cache
from agent.semantic.model.runtime import SemanticModel
from agent.semantic.model.values import ValueIndex
from agent.settings import Settings
from agent.warehouse import Warehouse

log = logging.getLogger(__name__)

FORMAT = 2  # bump when what the file holds changes shape (2: values of shared column names by table)
AGENT_ROOT = Path(__file__).resolve().parent
CODE_SUFFIXES = (".py", ".yaml", ".yml")
DIGESTS = "file-digests.json"  # in DATA_DIR/cache, beside the kept groundwork
KEPT_FILES = 4  # a few configurations sharing a data folder (the bot's, the command line's) each keep theirs
# Settings that cannot change the model or the values read (the LLM, sessions, logs, the audit trail): left
# out of the name so a command line and the bot on one data folder share a file. Any other setting is in it.
UNRELATED_SETTINGS = frozenset({
    "openai_api_key", "openai_base_url", "llm_model", "llm_timeout_s", "llm_max_retries", "redis_url", "data_dir",
    "cpu_workers", "cpu_step_budget_s", "max_execute_second", "confirm_before_run", "pending_ttl_s",
    "session_idle_ttl_s", "memory_sessions_max", "policy_path", "audit_path", "audit_stream_key",
    "audit_stream_maxlen", "learning_key_prefix", "langsmith_api_key", "langsmith_endpoint", "langsmith_project",
    "log_level", "log_format",
})


def cache_path(settings: Settings, warehouse: Warehouse) -> Path | None:
    """Where the model and values read for `warehouse` under `settings` are kept; None for a warehouse
    whose content has no file to hash (only the demo's)."""
    data_file = getattr(warehouse, "path", None)
    if not warehouse.is_demo or not isinstance(data_file, Path):
        return None
    digests = FileDigests(Path(settings.data_dir) / "cache" / DIGESTS)
    digest = hashlib.sha256()
    for part in (str(FORMAT), sys.version, pydantic.VERSION, pydantic_core.__version__,
                 getattr(sqlglot, "__version__", ""),
                 word_cache.file_name(), warehouse.dialect,
                 settings.model_dump_json(include=set(Settings.model_fields) - UNRELATED_SETTINGS)):
        digest.update(part.encode())
        digest.update(b"\0")
    _hash_file(digest, data_file, digests)
    _hash_tree(digest, AGENT_ROOT, CODE_SUFFIXES, digests)
    if settings.semantic_model_path is not None:
        _hash_tree(digest, Path(settings.semantic_model_path), None, digests)
    digests.save()
    return Path(settings.data_dir) / "cache" / f"groundwork-{digest.hexdigest()[:32]}.pickle"


def load(path: Path) -> tuple[SemanticModel, ValueIndex] | None:
    try:
        semantic, values = pickle.loads(path.read_bytes())
    except FileNotFoundError:
        return None
    except Exception as exc:  # noqa: BLE001 - any unreadable file is read afresh and replaced
        log.info("reading the warehouse again: the kept model and values in %s do not load (%s)", path, exc)
        return None
    if not isinstance(semantic, SemanticModel) or not isinstance(values, ValueIndex):
        return None
    return semantic, values


def save(path: Path, semantic: SemanticModel, values: ValueIndex) -> None:
    """Keep them for the next start; a folder that cannot be written only costs that start the reads."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".groundwork-", delete=False) as partial:
            partial.write(pickle.dumps((semantic, values), protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(partial.name, path)
        kept = sorted(path.parent.glob("groundwork-*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True)
        for stale in kept[KEPT_FILES:]:  # older inputs (code, data, settings): unlikely to come back
            stale.unlink(missing_ok=True)
    except OSError as exc:
        log.info("could not keep the model and values in %s: %s", path.parent, exc)


def _hash_file(digest: hashlib._Hash, path: Path, digests: FileDigests) -> None:
    digest.update(str(path.name).encode() + b"\0")
    digest.update(digests.digest(path))
    digest.update(b"\0")


def _hash_tree(digest: hashlib._Hash, root: Path, suffixes: tuple[str, ...] | None, digests: FileDigests) -> None:
    """Every file under `root` (with one of `suffixes`, when given), by path and content, in a fixed order."""
    if root.is_file():
        _hash_file(digest, root, digests)
        return
    for path in sorted(_files_under(root)):
        if suffixes is None or path.suffix in suffixes:
            digest.update(str(path.relative_to(root)).encode() + b"\0")
            _hash_file(digest, path, digests)


def _files_under(root: Path) -> list[Path]:
    """The files under `root`, none in a `__pycache__` folder (which is not entered: rglob stat()ed each of
    its .pyc files, two thirds of the time a start spent naming its cache). Symbolic links to folders
    are not followed, as rglob did not."""
    found = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [name for name in subfolders if name != "__pycache__"]
        found += [path for name in names if (path := Path(folder, name)).is_file()]
    return found
