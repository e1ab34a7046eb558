; Bash (fallback, tags-style): functions and the commands that call them; resolution is by name.
(function_definition name: (word) @name) @definition.function
(variable_assignment name: (variable_name) @name) @definition.variable
(comment) @comment
(command_name (word) @reference)
(variable_name) @reference
(command name: (command_name) @call.callee) @call
