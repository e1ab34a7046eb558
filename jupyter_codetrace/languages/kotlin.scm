; Kotlin (fallback, tags-style): definitions and name references; resolution is by name.
(class_declaration (type_identifier) @name) @definition.class
(object_declaration (type_identifier) @name) @definition.class
(function_declaration (simple_identifier) @name) @definition.function
(property_declaration (variable_declaration (simple_identifier) @name)) @definition.variable
(function_declaration) @scope.function
[(class_declaration) (object_declaration)] @scope.class
(simple_identifier) @reference
(type_identifier) @reference.type
(call_expression . (_) @call.callee) @call
