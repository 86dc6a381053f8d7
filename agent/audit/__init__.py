"""The audit trail: one record per query the warehouse was asked to run, who asked and how it went."""

from agent.audit.trail import AuditRecord, AuditTrail, read_tail

__all__ = ["AuditRecord", "AuditTrail", "read_tail"]
