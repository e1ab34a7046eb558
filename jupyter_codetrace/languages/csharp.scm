; C# (fallback, tags-style): definitions and name references; resolution is by name.
(class_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.class
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(property_declaration name: (identifier) @name) @definition.property
(namespace_declaration name: (_) @name) @definition.namespace
(comment) @comment
[(method_declaration) (constructor_declaration)] @scope.function
[(class_declaration) (struct_declaration) (interface_declaration) (record_declaration)] @scope.class
(identifier) @reference
(member_access_expression expression: (_) @receiver name: (identifier) @reference) @reference.expression
(invocation_expression function: (_) @call.callee) @call
(object_creation_expression type: (_) @call.callee) @call @call.new
