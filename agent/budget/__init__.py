"""Budgets: size limits on input, CPU steps in worker processes, slots for blocking warehouse calls.

A leaf: it knows nothing of what it runs. The steps (`agent.tools.steps`) and the callers name
what a worker imports and which steps need a process of their own.
"""
