; Elixir: definitions, scopes, references, aliases and calls for jupyter_codetrace.
; Everything is a `call` in this grammar: the macro name (`def`, `alias` …) is matched by predicate.
; Capture names are the vocabulary of languages/captures.py.

; ---------------------------------------------------------------- Definitions

((call target: (identifier) @_kw (arguments . (alias) @name) (do_block) @definition.body) @definition.module
 (#any-of? @_kw "defmodule" "defprotocol"))

; def name(args) do … end / def name(args), do: … / def name, do: … ; `when` guards.
((call target: (identifier) @_kw
   (arguments . [(call target: (identifier) @name (arguments) @definition.params)
                 (binary_operator left: (call target: (identifier) @name (arguments) @definition.params))
                 (identifier) @name])) @definition.function
 (#any-of? @_kw "def" "defp" "defmacro" "defmacrop" "defguard" "defdelegate"))
((call target: (identifier) @_kw
   (arguments . [(call target: (identifier) @name) (binary_operator left: (call target: (identifier) @name)) (identifier) @name])) @exported.owner
 (#any-of? @_kw "def" "defmacro" "defguard" "defdelegate"))
((call target: (identifier) @_kw (arguments . (alias))) @exported.owner
 (#eq? @_kw "defmodule"))

; Parameters: identifiers in a def head.
((call target: (identifier) @_kw
   (arguments . (call (arguments (identifier) @name @definition.parameter))))
 (#any-of? @_kw "def" "defp" "defmacro" "defmacrop"))

(stab_clause left: (arguments (identifier) @name @definition.parameter))

; `x = value` binds x.
(binary_operator left: (identifier) @name operator: "=" right: (_) @definition.value) @definition.variable

; Docs: `@doc "…"` / `@moduledoc "…"` before a definition.
(do_block
  (unary_operator operand: (call target: (identifier) @_doc (arguments (string) @doc)))
  . (call) @doc.owner
  (#eq? @_doc "doc"))
(call target: (identifier) @_kw
  (do_block . (unary_operator operand: (call target: (identifier) @_doc (arguments (string) @doc))))
  (#eq? @_kw "defmodule") (#eq? @_doc "moduledoc")) @doc.owner

(comment) @comment

; ---------------------------------------------------------------- Scopes

((call target: (identifier) @_kw) @scope.function
 (#any-of? @_kw "def" "defp" "defmacro" "defmacrop" "defmodule" "defprotocol" "defimpl"))
(anonymous_function) @scope.function
(stab_clause) @scope

; ---------------------------------------------------------------- References

(identifier) @reference
(alias) @reference
(dot left: (_) @receiver right: (identifier) @reference) @reference.expression

; The macro names themselves and keyword keys name nothing.
((call target: (identifier) @ignore)
 (#any-of? @ignore "def" "defp" "defmacro" "defmacrop" "defmodule" "defprotocol" "defimpl" "defguard"
  "defdelegate" "alias" "import" "use" "require" "defstruct" "quote" "unquote" "case" "cond" "with" "for"
  "if" "unless" "fn" "receive" "try"))
(unary_operator operand: (call target: (identifier) @ignore))
(unary_operator operand: (identifier) @ignore)

; ---------------------------------------------------------------- Calls

; `item.cents` (a variable's dotted name without parentheses) reads a map or struct field: no call.
((call target: (_) @call.callee) @call
 (#not-match? @call "^[a-z_][A-Za-z0-9_]*[.][a-z_][A-Za-z0-9_]*[?!]?$"))

; ---------------------------------------------------------------- Imports

((call target: (identifier) @_kw (arguments . (alias) @import.module .)) @import
 (#eq? @_kw "alias"))
((call target: (identifier) @_kw
   (arguments . (alias) @import.module (keywords (pair key: (keyword) @_as value: (alias) @import.alias)))) @import
 (#eq? @_kw "alias"))
((call target: (identifier) @_kw (arguments . (alias) @import.module)) @import @import.star
 (#any-of? @_kw "import" "use"))
