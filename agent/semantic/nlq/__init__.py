"""The reader: English questions and follow-ups in a thread to StructuredIntents, by general rules
(`parse/` holds its passes), and the sentences said back ("why?", follow-up suggestions)."""
