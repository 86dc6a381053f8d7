"""Bolt listeners: they ack at once, decide whether and what to run, and queue a job (app.py)."""
