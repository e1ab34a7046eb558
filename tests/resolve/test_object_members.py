"""Members given to objects (TS/JS): `app.use = function …` on `var app = {}`, a constructor
function's `View.prototype.render = …`, the members of an untyped object literal — and what must
stay as it was: an assignment to a parameter's or a typed value's member defines nothing, and a
function's locals are not its members. (The caret assertions of fixtures/js_app/src/legacy and
fixtures/ts_app/src/routes.ts check the answers on a project; these check the facts and traps.)"""

from __future__ import annotations

import textwrap

from jupyter_codetrace import Project
from jupyter_codetrace.index.extract import extract_file
from jupyter_codetrace.languages import by_name


def _facts(source: str, language: str = "javascript", path: str = "a.js"):
    return extract_file(path, textwrap.dedent(source).encode(), by_name(language))


def _members(facts) -> dict[str, tuple[str, str]]:
    defs = facts.definitions
    return {d.name: (d.kind, defs[d.container].name) for d in defs if d.scope < 0 and d.container >= 0}


def test_members_belong_to_the_object_or_function_they_are_given_to():
    facts = _facts("""
        var app = exports = module.exports = {};
        app.use = function use(fn) { return this; };
        var res = Object.create(Base.prototype);
        res.send = (body) => body;
        res.set = res.header = function header(field, value) {};
        function View(name) { var local = 1; this.name = name; }
        View.prototype.render = function render() {};
        View.create = function create() {};
        const routes = { home() {}, user: (id) => id, base: '/api' };
    """)
    assert _members(facts) == {
        "use": ("method", "app"), "send": ("method", "res"), "set": ("method", "res"),
        "header": ("method", "res"), "name": ("field", "View"), "render": ("method", "View"),
        "create": ("method", "View"), "home": ("method", "routes"), "user": ("method", "routes"),
        "base": ("property", "routes"),
    }
    local = next(d for d in facts.definitions if d.name == "local")
    assert local.scope >= 0   # a local of View, never one of its members


def test_objects_from_elsewhere_and_typed_values_get_no_definition():
    facts = _facts("""
        const { helper } = require('./helper');
        function handle(req, options) {
          req.send = function send() {};
          helper.extra = function extra() {};
          exports.run = function run() {};
          let counter = 0;
          counter.bump = () => 1;
        }
    """)
    names = {d.name for d in facts.definitions}
    assert not {"send", "extra", "bump"} & names   # a parameter's, an import's, a number's
    assert "run" in names   # `exports.f = …` is still an export, not a member of `exports`
    typed = _facts("""
        interface Response { text(): string }
        function wrap(response: Response) {
          const copy: Response = response;
          copy.text = () => 'x';
          const typed: Response = { text() { return 'y'; } };
        }
    """, "typescript", "a.ts")
    assert [d.name for d in typed.definitions if d.name == "text"] == ["text"]   # the interface's only


def test_a_commonjs_module_is_the_object_it_exports(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "app.js").write_text(textwrap.dedent("""\
        var app = exports = module.exports = {};
        app.listen = function listen(port) {
          return this.handle(port);
        };
        app.handle = function handle(port) {
          return port;
        };
    """))
    (tmp_path / "main.js").write_text(textwrap.dedent("""\
        var app = require('./lib/app');
        function main() {
          return app.listen(3000);
        }
    """))
    project = Project(tmp_path, cache_dir=tmp_path / ".cache")
    listen = project.find_definition("listen", "main.js", 3, 14)
    assert (listen.status, listen.file, listen.line) == ("found", "lib/app.js", 2)
    handle = project.find_definition("handle", "lib/app.js", 3, 15)
    assert (handle.status, handle.line) == ("found", 5)
    refs = project.find_references("listen", "lib/app.js", 2, 5)
    assert [(r.file, r.line) for r in refs.references] == [("main.js", 3)]
    callers = project.dependents_of("lib/app.js", "app.handle")
    assert {n.id for n in callers.nodes} >= {"lib/app.js#app.listen", "main.js#main"}
    project.close()


def test_what_is_assigned_to_exports_binds_no_name_in_the_module(tmp_path):
    (tmp_path / "utils.js").write_text(textwrap.dedent("""\
        var etag = require('etag');
        exports.etag = makeTag();
        function makeTag() {
          return etag('x');
        }
        exports.check = function check() {
          return exports.etag;
        };
    """))
    (tmp_path / "main.js").write_text("const { etag } = require('./utils');\netag;\n")
    project = Project(tmp_path, cache_dir=tmp_path / ".cache")
    inside = project.find_definition("etag", "utils.js", 4, 10)
    assert inside.status == "unresolved" and inside.line is None   # the uninstalled package's, not line 2
    read = project.find_definition("etag", "utils.js", 7, 20)
    assert (read.status, read.line) == ("found", 2)
    imported = project.find_definition("etag", "main.js", 2, 1)
    assert (imported.status, imported.file, imported.line) == ("found", "utils.js", 2)
    project.close()


def test_members_of_an_object_not_defined_here_leave_no_scope_behind():
    """`Router.prototype = {handle(path) {}}` once `function Router` is renamed: handle is left
    out, and its scope with it (taken by the next definition, the parameter `path` was its own
    container, and every walk up the containers looped)."""
    facts = _facts("""
        function RouterRenamed(prefix) { this.prefix = prefix; }
        Router.prototype = {
          handle(path) { return path; },
        };
    """)
    for i, d in enumerate(facts.definitions):
        seen, at = set(), i
        while at >= 0:
            assert at not in seen, f"{d.name}: its containers loop"
            seen.add(at)
            at = facts.definitions[at].container
    assert "handle" not in {d.name for d in facts.definitions}


def test_jsdoc_gives_javascript_parameters_and_returns_their_types():
    facts = _facts("""
        /**
         * @typedef {import("./help.js").Help} Help
         */

        /**
         * Lays out the help.
         *
         * @param {Help} helper
         * @param {Map<string, number>} [widths]
         * @returns {Help}
         */

        function layout(helper, widths) { return helper; }

        /** @type {Help} */
        let current = null;
    """)
    by_name = {d.name: d for d in facts.definitions}
    assert (by_name["helper"].type, by_name["widths"].type, by_name["layout"].returns, by_name["current"].type) \
        == ("Help", "Map<string, number>", "Help", "Help")
    imported = [(i.module, i.name, i.local, i.line) for i in facts.imports]
    assert imported == [("./help.js", "Help", "Help", 3)]
    # TypeScript files declare types in code: their JSDoc is documentation only
    ts = _facts("""
        /** @param {Help} helper */
        function layout(helper: string) { return helper; }
    """, "typescript", "a.ts")
    assert next(d for d in ts.definitions if d.name == "helper").type == "string"


def test_a_jsdoc_type_names_its_one_class():
    from jupyter_codetrace.languages.javascript import doc_type_name

    named = {text: doc_type_name(text) for text in (
        "Option", "Option[]", "Array<Option>", "(Option | null | undefined)", "?Option", "Option=",
        "Promise<Command>", "Map<string, Option>", "string | number", "{a: number}", "")}
    assert named == {
        "Option": "Option", "Option[]": "Option", "Array<Option>": "Option", "(Option | null | undefined)": "Option",
        "?Option": "Option", "Option=": "Option", "Promise<Command>": "Command", "Map<string, Option>": None,
        "string | number": None, "{a: number}": None, "": None,
    }


def test_values_given_to_objects_are_their_properties_where_the_object_is_bound():
    facts = _facts("""
        function createDebug(namespace) { return namespace; }
        createDebug.names = [];
        createDebug.enabled = isEnabled;
        const opts = { host: undefined };
        opts.host = 'localhost';
        Object.defineProperty(createDebug, 'VERSION', { value: '4' });
        function reset() {
          createDebug.names = [];
          createDebug.later = 1;
        }
    """)
    members = [(d.name, d.kind, facts.definitions[d.container].name, d.line)
               for d in facts.definitions if d.scope < 0 and d.container >= 0]
    assert members == [("names", "property", "createDebug", 3), ("enabled", "property", "createDebug", 4),
                       ("host", "property", "opts", 5), ("VERSION", "property", "createDebug", 7)]
    # opts.host (line 6) and what reset() assigns are writes: the first place that gives a member
    # defines it, and a value given away from where its object is bound is no definition


def test_members_given_to_a_function_declared_below_are_its_own():
    facts = _facts("""
        function setup() {
          createDebug.names = [];
          createDebug.enable = enable;
          return createDebug;
          function createDebug(namespace) { return namespace; }
          function enable() { createDebug.names = []; }
        }
        other.names = [];
    """)
    members = [(d.name, facts.definitions[d.container].name, d.line)
               for d in facts.definitions if d.scope < 0 and d.container >= 0]
    assert members == [("names", "createDebug", 3), ("enable", "createDebug", 4)]
    assert not [d for d in facts.definitions if d.scope < 0 and d.container < 0]   # none left over


def test_a_base_given_after_the_constructor_is_its_base():
    facts = _facts("""
        function Shape() {}
        function Circle() {}
        Circle.prototype = Object.create(Shape.prototype);
        function Square() {}
        util.inherits(Square, Shape);
        function Loose() {}
        Loose.prototype = Object.create(null);
    """)
    bases = {d.name: [facts.references[t[1]].name for t in d.extends] for d in facts.definitions}
    assert bases == {"Shape": [], "Circle": ["Shape"], "Square": ["Shape"], "Loose": []}
