"""The data assistant agent: a LangGraph supervisor over warehouse, SQL and semantic tools (api.py is its door)."""
