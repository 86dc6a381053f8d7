"""What the forkserver loads once, so every worker forked from it starts with it.

A new worker (one replacing a stopped step's) must read its first question and draw its first chart
within the step's budget: the SQL layer's steps, the reader's word data (lemminflect's and wordfreq's
whole tables, which a question's new word would otherwise load) and matplotlib are loaded here, not in
the worker; on a loaded machine an overrun kills the worker, whose replacement would pay them again.
A process answering in-process (the command line) imports none of this: it loads what it uses.
"""

from agent.tools import steps  # noqa: F401 - loaded for the workers
from agent.charts import render  # noqa: F401 - loaded for the workers
from agent.text import words

words.load()
