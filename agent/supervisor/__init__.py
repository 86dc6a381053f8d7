"""The supervisor graph (DESIGN.md §4): graph.py wires it, dispatch.py decides, human.py pauses, reply.py answers."""
