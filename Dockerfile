# The Slack app in HTTP mode: POST /slack/events, GET /livez and /readyz on $PORT.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    BOT_MODE=http \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data

WORKDIR /app
# The locked set first (its own layer, cached until the lock changes), then the project without resolving again.
# For a warehouse driver, use its lock instead: requirements/postgres.txt, requirements/mysql.txt, ...
ARG LOCK=requirements/run.txt
COPY requirements ./requirements
RUN pip install -r "$LOCK"
COPY pyproject.toml README.md ./
COPY agent ./agent
COPY bot ./bot
COPY checkpoint_redis ./checkpoint_redis
# `python -m bot` runs from /app, so it imports ./agent and ./bot, not the installed copy: their bytecode is
# compiled here, once (PYTHONDONTWRITEBYTECODE, and a read-only /app for the app user, would otherwise have
# every start compile them again, about a second of CPU before /readyz can say 200).
RUN pip install --no-deps --no-build-isolation . \
    && python -m compileall -q agent bot checkpoint_redis \
    && useradd --create-home --uid 10001 app \
    && mkdir -p /app/data \
    && chown app:app /app/data

USER app
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(f'http://127.0.0.1:{os.environ.get(\"PORT\", \"3000\")}/livez', timeout=4)"]
CMD ["python", "-m", "bot"]
