"""How long a test waits for a child process before calling it hung: a guard, never a speed check."""

# A CLI start-up needs a few CPU seconds, yet on a shared 2-core machine at load 20 one took over two
# minutes (imports alone: 34 s), and a 120 s guard failed a correct test.
PROCESS_TIMEOUT_S = 600
