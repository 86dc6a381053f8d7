"""LangSmith tracing of agent runs, when LANGSMITH_API_KEY is set; off (and not imported) otherwise.

The tracer is passed as a callback to each run, so nothing depends on LangChain's own
environment variables (only the settings object reads the environment).
"""

from __future__ import annotations

import logging
from typing import Any

from agent.settings import Settings

log = logging.getLogger(__name__)


def build_tracers(settings: Settings) -> list[Any]:
    if settings.langsmith_api_key is None or not settings.langsmith_api_key.get_secret_value():
        return []
    from langchain_core.tracers.langchain import LangChainTracer
    from langsmith import Client

    client = Client(api_key=settings.langsmith_api_key.get_secret_value(), api_url=settings.langsmith_endpoint)
    log.info("tracing agent runs to LangSmith project %s", settings.langsmith_project)
    return [LangChainTracer(project_name=settings.langsmith_project, client=client)]
