; JSX, for javascript.scm and tsx.scm (both inherit it): elements as calls of their components,
; attributes as members of the props those take. Capture names are the vocabulary of captures.py.

; `<div>`: an intrinsic (lower-case) element names nothing; a closing tag repeats its opening
; tag's name and is not a second reference.
((jsx_opening_element name: (identifier) @ignore) (#match? @ignore "^[a-z]"))
((jsx_self_closing_element name: (identifier) @ignore) (#match? @ignore "^[a-z]"))
(jsx_closing_element name: (identifier) @ignore)
(jsx_closing_element
  name: (member_expression object: (_) @ignore property: (property_identifier) @ignore))

; A component's element calls it (`<Card …/>`, `<ui.Card>…</ui.Card>`), as TypeScript's call
; hierarchy counts it: a capitalised name or a member expression names a component.
((jsx_self_closing_element name: (identifier) @call.callee) @call (#match? @call.callee "^[A-Z]"))
((jsx_opening_element name: (identifier) @call.callee) @call (#match? @call.callee "^[A-Z]"))
(jsx_self_closing_element name: (member_expression) @call.callee) @call
(jsx_opening_element name: (member_expression) @call.callee) @call

; Its attributes (`title="Orders"`) name members of the props the component takes.
((jsx_self_closing_element
   name: (identifier) @_component
   attribute: (jsx_attribute . (property_identifier) @reference)) @receiver.props
 (#match? @_component "^[A-Z]"))
((jsx_opening_element
   name: (identifier) @_component
   attribute: (jsx_attribute . (property_identifier) @reference)) @receiver.props
 (#match? @_component "^[A-Z]"))
(jsx_self_closing_element
  name: (member_expression)
  attribute: (jsx_attribute . (property_identifier) @reference)) @receiver.props
(jsx_opening_element
  name: (member_expression)
  attribute: (jsx_attribute . (property_identifier) @reference)) @receiver.props
