"""The supervisor's tools: small typed async functions, each with its ToolSpec beside it (registry.py lists them)."""
