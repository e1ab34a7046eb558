; Ruby (fallback, tags-style): definitions and name references; resolution is by name.
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.method
(class name: (constant) @name) @definition.class
(class name: (constant) @name superclass: (superclass (constant) @definition.extends)) @definition.class
(module name: (constant) @name) @definition.module
(assignment left: (constant) @name) @definition.constant
(assignment left: (identifier) @name) @definition.variable
(method_parameters (identifier) @name @definition.parameter)
(comment) @comment
[(method) (singleton_method)] @scope.function
[(class) (module)] @scope.class
(identifier) @reference
(constant) @reference
(call receiver: (_) @receiver method: (identifier) @reference) @reference.expression
(call method: (_) @call.callee) @call
