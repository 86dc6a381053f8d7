"""The terminal surface: the REPL, the one-shot command line, replies as plain text."""
