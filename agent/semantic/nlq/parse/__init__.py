"""The offline parser's passes; `agent.semantic.extract.extract_intent` runs them in order."""
