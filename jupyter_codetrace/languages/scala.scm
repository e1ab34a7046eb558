; Scala (fallback, tags-style): definitions and name references; resolution is by name.
(class_definition name: (identifier) @name) @definition.class
(object_definition name: (identifier) @name) @definition.class
(trait_definition name: (identifier) @name) @definition.trait
(function_definition name: (identifier) @name) @definition.function
(val_definition pattern: (identifier) @name) @definition.variable
(comment) @comment
(function_definition) @scope.function
[(class_definition) (object_definition) (trait_definition)] @scope.class
(identifier) @reference
(type_identifier) @reference.type
(call_expression function: (_) @call.callee) @call
