"""From a StructuredIntent (what a question asks, in the model's names) to one SQL statement: the planner
(`compiler`) apart from the renderer (`sqlgen`), as MetricFlow keeps them, and the reading line said back."""
