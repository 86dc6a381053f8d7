"""The offline parser's passes; `agent.semantic.nlq.extract.extract_intent` runs them in order."""
