"""ChatBI: an answer, insights, a chart and follow-ups from a query result (see `analyze`)."""
