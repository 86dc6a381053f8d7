"""The data assistant agent: a LangGraph supervisor over warehouse, SQL and semantic tools (api.py is its door)."""

from agent import lazy_init

lazy_init.install()  # before anything imports LangGraph or LangChain: see agent/lazy_init.py
