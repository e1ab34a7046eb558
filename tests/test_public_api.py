"""The package's public names are deliberate: a change here is a change of the contract."""

import jupyter_codetrace


def test_public_names():
    assert sorted(jupyter_codetrace.__all__) == sorted([
        "Project", "InvalidRequest", "CodetraceError", "IndexStats",
        "DefinitionResult", "ReferencesResult", "SymbolsResult", "TraceResult", "GraphResult", "__version__",
    ])
    for name in jupyter_codetrace.__all__:
        assert hasattr(jupyter_codetrace, name)


def test_invalid_request_is_a_value_error():
    assert issubclass(jupyter_codetrace.InvalidRequest, ValueError)
