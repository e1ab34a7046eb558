"""An import written over several lines is shown as one line (`resolved_from`, cards)."""

from jupyter_codetrace.index.extract import extract_file
from jupyter_codetrace.languages import by_name


def test_a_multi_line_typescript_import_is_one_line():
    source = b'import {\n  formatDate,\n  parseDate,\n} from "./dates.js";\nformatDate(parseDate("x"));\n'
    facts = extract_file("a.ts", source, by_name("typescript"))
    assert {imp.statement for imp in facts.imports} == {'import {formatDate, parseDate} from "./dates.js";'}


def test_a_multi_line_python_import_is_one_line():
    source = b"from shop.pricing import (\n    total,\n    subtotal,\n)\ntotal()\n"
    facts = extract_file("a.py", source, by_name("python"))
    assert {imp.statement for imp in facts.imports} == {"from shop.pricing import (total, subtotal)"}


def test_a_one_line_import_keeps_its_spelling():
    source = b'import { a } from "./x.js";\na();\n'
    facts = extract_file("a.ts", source, by_name("typescript"))
    assert [imp.statement for imp in facts.imports] == ['import { a } from "./x.js";']
