; Lua (fallback, tags-style): definitions and name references; resolution is by name.
(function_declaration name: (identifier) @name) @definition.function
(function_declaration name: (dot_index_expression field: (identifier) @name)) @definition.function
(function_declaration name: (method_index_expression method: (identifier) @name)) @definition.method
(comment) @comment
(function_declaration) @scope.function
(identifier) @reference
(function_call name: (_) @call.callee) @call
