"""ChatBI: an answer, insights, a chart and follow-ups from a query result."""

from agent.chatbi.analyze import Analysis, analyze

__all__ = ["Analysis", "analyze"]
