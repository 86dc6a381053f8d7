"""The runtime semantic model: the flat view of a layer the reader and compiler use, how it is loaded,
the warehouse's values and the words its descriptions give."""
