"""One module per contract query: validate -> compute -> Result (no rendering, no I/O).

Nothing is imported here: ``Project`` imports a query's module when it is first asked, so a
process answering a definition does not load the graph, trace or search modules."""
