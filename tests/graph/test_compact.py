"""CompactGraph's snapshot: what a graph read back answers, and what writing it again keeps."""

from jupyter_codetrace.graph.compact import _LAZY, CompactGraph


def _small_graph() -> CompactGraph:
    graph = CompactGraph()
    graph.add_node("a.py#", kind="module", line=1)
    graph.add_node("a.py#f", kind="function", line=3, nesting="f", declaration=False, stale=True)
    graph.add_node("b.py#g", kind="function", line=7, external_calls=["print"], declaration=True, offset=2**63,
                   stale=1)
    graph.add_edges("a.py", [("a.py#", "a.py#f", "CALLS", 9, "scope"), ("a.py#f", "b.py#g", "CALLS", 4, "import"),
                             ("a.py#f", "b.py#g", "REFERENCES", 5, "import")])
    graph.add_edge("b.py#g", "a.py#f", "CALLS", "b.py", 8, "inferred")
    return graph


def _answers(graph: CompactGraph, keys: bool = True) -> tuple:
    """Nodes, and each node's edges in order (with their keys unless the snapshot renumbered them:
    removed edges not listed in its order leave no slot)."""
    nodes = sorted((node, sorted(attrs.items())) for node, attrs in graph.nodes(data=True))
    edges = {node: (list(graph.out_edges(node, keys=keys, data=True)), list(graph.in_edges(node, keys=keys, data=True)))
             for node in graph.nodes}
    return nodes, edges, graph.number_of_edges()


def _reread(graph: CompactGraph, order=()) -> CompactGraph:
    data, _new_key = graph.snapshot(list(order))
    return CompactGraph.from_snapshot(data)


def test_a_snapshot_read_back_answers_as_the_graph_did():
    graph = _small_graph()
    assert _answers(_reread(graph)) == _answers(graph)
    # each value of its own type: flags stay booleans, a node without one has none, integers
    # too large for an array and columns of mixed types are kept as values
    read = _reread(graph)
    assert read.nodes["a.py#f"]["declaration"] is False and read.nodes["b.py#g"]["declaration"] is True
    assert "declaration" not in read.nodes["a.py#"] and read.nodes["b.py#g"]["offset"] == 2**63
    assert read.nodes["a.py#f"]["stale"] is True and type(read.nodes["b.py#g"]["stale"]) is int


def test_a_graph_read_from_a_snapshot_and_changed_is_written_again_whole():
    made = _small_graph()
    read = _reread(made)
    for graph in (made, read):   # the same changes to a graph made here and to one read back
        graph.remove_nodes_from(["b.py#g"])
        graph.add_edge("a.py#f", "c.py#h", "CALLS", "a.py", 6, "scope")
        graph.nodes["c.py#h"]["kind"] = "function"
    assert _answers(read) == _answers(made)
    assert _answers(_reread(read), keys=False) == _answers(made, keys=False)


def test_writing_a_read_graph_leaves_what_it_never_asked_for_in_the_base():
    read = _reread(_small_graph())
    data, new_key = read.snapshot([])
    # nothing was made into objects: the edges, attributes and adjacency stay the base's arrays
    assert all(edge is _LAZY for edge in read._edges)
    assert read._attrs == [None] * 3 and read._succ == [None] * 3
    assert list(new_key) == [0, 1, 2, 3]
    assert _answers(CompactGraph.from_snapshot(data)) == _answers(_small_graph())


def test_the_key_map_follows_the_order_asked_for_then_the_edges_not_in_it():
    graph = _small_graph()
    graph.discard_edge(1)
    _data, new_key = graph.snapshot([3, 1])
    assert list(new_key) == [2, 1, 3, 0]   # 1 keeps its (removed) place; 0 and 2 follow in key order
