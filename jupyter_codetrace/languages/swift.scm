; Swift (fallback, tags-style): definitions and name references; resolution is by name.
(class_declaration name: (type_identifier) @name) @definition.class
(protocol_declaration name: (type_identifier) @name) @definition.interface
(function_declaration name: (simple_identifier) @name) @definition.function
(comment) @comment
(function_declaration) @scope.function
(class_declaration) @scope.class
(simple_identifier) @reference
(type_identifier) @reference.type
(call_expression . (_) @call.callee) @call
