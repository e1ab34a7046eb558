; inherits: typescript,jsx
; TSX: everything typescript.scm says (the tsx grammar has every node it names; it lacks only
; `<T>x` casts, which that query does not use), then the JSX nodes of jsx.scm.
