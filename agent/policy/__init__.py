"""Who may read what (POLICY_PATH): the policy file, one person's rights, and the run's scoped view."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent.policy.access import AccessDenied, Access, Identity, Policy
from agent.policy.model import PolicyFileError

if TYPE_CHECKING:
    from agent.context import AgentContext

__all__ = ["Access", "AccessDenied", "Identity", "Policy", "PolicyFileError", "check_readable"]


def check_readable(ctx: AgentContext, sql: str, dialect: str | None = None, *, loosely: bool = False) -> None:
    """Refuse SQL the run's person may not read, before a tool explains or repairs it; `loosely`
    judges SQL that does not parse by the names it uses."""
    access = getattr(ctx.warehouse, "access", None)
    if access is None:
        return
    if loosely:
        access.authorize_text(sql, dialect)
    else:
        access.authorize(sql, dialect)
