; inherits: typescript
; TSX: everything typescript.scm says (the tsx grammar has every node it names; it lacks only
; `<T>x` casts, which that query does not use), then the JSX nodes below.
; Capture names are the vocabulary of languages/captures.py.

; ================================================================ JSX

; `<div>`: an intrinsic (lower-case) element names nothing; a closing tag repeats its opening
; tag's name and is not a second reference.
((jsx_opening_element name: (identifier) @ignore) (#match? @ignore "^[a-z]"))
((jsx_self_closing_element name: (identifier) @ignore) (#match? @ignore "^[a-z]"))
(jsx_closing_element name: (identifier) @ignore)
(jsx_closing_element
  name: (member_expression object: (_) @ignore property: (property_identifier) @ignore))
