; PHP (fallback, tags-style): definitions and name references; resolution is by name.
(function_definition name: (name) @name) @definition.function
(method_declaration name: (name) @name) @definition.method
(class_declaration name: (name) @name) @definition.class
(class_declaration name: (name) @name (base_clause (name) @definition.extends)) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
(comment) @comment
[(function_definition) (method_declaration)] @scope.function
[(class_declaration) (interface_declaration) (trait_declaration)] @scope.class
(name) @reference
(member_call_expression object: (_) @receiver name: (name) @reference) @reference.expression
(function_call_expression function: (_) @call.callee) @call
(member_call_expression) @call @call.callee
(object_creation_expression (name) @call.callee) @call @call.new
