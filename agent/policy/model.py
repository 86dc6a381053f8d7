"""The access policy file (POLICY_PATH): its shape, and loading it with errors that name a line.

```yaml
version: 1
contact: "#data-access"          # named in every refusal
default: deny                    # allow | deny: what is readable where no rule says
groups: {analysts: [U0123]}      # groups defined here (the bot may pass Slack user-group ids too)
run_button: [data-leads]         # who may answer someone else's confirmation (the asker always may)
teach: [data-leads]              # who may confirm a word or a verified query for everyone (absent: anyone)
rules:
  - groups: [analysts]           # who a rule is for: users, channels, groups, or everyone: true
    allow: [main.flights, airlines]   # table (default schema), schema.table or schema.table.column; * ? globs
    deny: [main.flights.tailnum]
    mask: [main.airlines.name]   # readable, but every value comes back as ***
```
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

import yaml
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import ErrorDetails

from agent.errors import SettingsError

# Where something is in the YAML file: its keys and list indexes from the top (as pydantic's `loc`).
Location = tuple[str | int, ...]

# A name pattern: one part (a table of the default schema), two (schema.table) or three (one
# column); each part a name or a glob.
_PART = re.compile(r"^[\w $*?\[\]-]+$")  # names may hold spaces and any letter ('Sales Rep', 'Größe')


class PolicyFileError(SettingsError):
    """The policy file is missing, not YAML, or says something invalid; start-up stops."""

    code = "policy_file"


class _Strict(BaseModel):
    # A misspelt key ("alow") must stop start-up, not quietly grant or withhold access.
    model_config = ConfigDict(extra="forbid", frozen=True)


def _check_pattern(pattern: str) -> str:
    parts = pattern.split(".")
    if len(parts) not in (1, 2, 3) or not all(_PART.match(p) for p in parts):
        raise ValueError(f"'{pattern}' should be table, schema.table or schema.table.column (globs * and ? allowed)")
    return pattern  # spelt as written: `Bakers` and `bakers` may be two tables (see access.NamePattern)


Pattern = Annotated[str, AfterValidator(_check_pattern)]


class Rule(_Strict):
    name: str | None = None
    everyone: bool = False
    users: list[str] = Field(default_factory=list)
    channels: list[str] = Field(default_factory=list)
    groups: list[str] = Field(default_factory=list)
    allow: list[Pattern] | None = None  # None: this rule does not narrow what the default allows
    deny: list[Pattern] = Field(default_factory=list)
    mask: list[Pattern] = Field(default_factory=list)

    @model_validator(mode="after")
    def _names_someone(self) -> "Rule":
        if not (self.everyone or self.users or self.channels or self.groups):
            raise ValueError("a rule needs users, channels, groups or everyone: true")
        if self.allow is None and not self.deny and not self.mask:
            raise ValueError("a rule needs allow, deny or mask")
        return self


class PolicyData(_Strict):
    version: Literal[1] = 1
    contact: str = Field(min_length=1)
    default: Literal["allow", "deny"]
    groups: dict[str, list[str]] = Field(default_factory=dict)
    run_button: list[str] = Field(default_factory=list)
    teach: list[str] | None = None  # groups or users; None: anyone may teach (and it is recorded)
    rules: list[Rule] = Field(default_factory=list)


@dataclass(frozen=True)
class LoadedPolicy:
    data: PolicyData
    path: str
    lines: dict[Location, int]  # location in the YAML (keys and list indexes) -> line number


def load_policy_file(path: Path | str) -> LoadedPolicy:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PolicyFileError(f"The access policy file {path} could not be read: {exc.strerror}.") from None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        raw = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f", line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise PolicyFileError(f"The access policy file {path}{where} is not valid YAML: {problem}.") from None
    if not isinstance(raw, dict) or node is None:
        raise PolicyFileError(f"The access policy file {path}, line 1: expected a mapping with contact, default and rules.")
    lines: dict[Location, int] = {}
    _index_lines(node, (), lines)
    try:
        data = PolicyData.model_validate(raw)
    except ValidationError as exc:
        problems = [_describe(err, lines) for err in exc.errors()]
        raise PolicyFileError(f"The access policy file {path} is invalid: " + "; ".join(problems)) from None
    return LoadedPolicy(data=data, path=str(path), lines=lines)


def _index_lines(node: yaml.Node, where: Location, lines: dict[Location, int]) -> None:
    lines[where] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            _index_lines(value, (*where, key.value), lines)
            lines[(*where, key.value)] = key.start_mark.line + 1  # the key's line, not its value's
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _index_lines(item, (*where, index), lines)


def line_of(lines: dict[Location, int], loc: Location) -> int:
    """The line of the deepest part of `loc` the file has (an unknown key: its parent's line)."""
    for end in range(len(loc), -1, -1):
        if tuple(loc[:end]) in lines:
            return lines[tuple(loc[:end])]
    return 1


def field_name(loc: Location) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


def _describe(error: ErrorDetails, lines: dict[Location, int]) -> str:
    loc = tuple(error["loc"])
    message = error["msg"].removeprefix("Value error, ")
    if error["type"] == "extra_forbidden":
        message = "unknown field (check the spelling)"
    return f"line {line_of(lines, loc)}, {field_name(loc)}: {message}"
