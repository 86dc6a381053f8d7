"""What replicas share, each behind one protocol with an in-memory and a Redis twin: state.py and ledger.py."""
