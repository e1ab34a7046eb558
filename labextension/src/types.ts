/* Generated from jupyter_codetrace/schema/results.schema.json by json-schema-to-typescript (jlpm gen:types). Do not edit. */

/**
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "Definition".
 */
export type Definition =
  | {
      status: "found";
      symbol?: string;
      mode?: "definition" | "declaration" | "type_definition";
      name: string;
      kind:
        | "function"
        | "method"
        | "constructor"
        | "class"
        | "interface"
        | "type"
        | "enum"
        | "enum_member"
        | "struct"
        | "trait"
        | "impl"
        | "module"
        | "namespace"
        | "variable"
        | "constant"
        | "property"
        | "field"
        | "parameter"
        | "macro";
      language: string;
      file: string;
      line: number;
      column: number;
      end_line: number;
      end_column: number;
      cell?: number;
      path: string[];
      qualified_name?: string | null;
      signature: string | null;
      parameters: Parameter[];
      returns: string | null;
      generics: string | null;
      modifiers: string[];
      decorators?: string[];
      exported: boolean;
      declaration?: boolean;
      doc: string | null;
      code: string | null;
      resolved_from: ChainStep[];
      members: {
        [k: string]: unknown;
      }[];
      overloads: {
        [k: string]: unknown;
      }[];
      candidates: Location[];
      resolution: "scope" | "import" | "member" | "inferred" | "name-only";
      mode_resolution: "exact" | "fell_back_to_definition";
      message?: string;
      library?: Library;
      [k: string]: unknown;
    }
  | NotFound;
/**
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "References".
 */
export type References =
  | {
      status: "found";
      symbol: string;
      definition: Location;
      count: number;
      files: number;
      references: Reference[];
      re_exports: {
        [k: string]: unknown;
      }[];
      [k: string]: unknown;
    }
  | NotFound;
/**
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "Trace".
 */
export type Trace =
  | {
      status: "found";
      symbol: string;
      definition: Definition;
      note?: string;
      references?: {
        total: number;
        files: number;
        byFile: {
          file: string;
          test: boolean;
          usages: string[];
          [k: string]: unknown;
        }[];
        reExports: {
          [k: string]: unknown;
        }[];
        locations?: Reference[];
        [k: string]: unknown;
      };
      calls?: {
        incoming: CallTreeNode[];
        outgoing: CallTreeNode[];
        truncated?: boolean;
        [k: string]: unknown;
      };
      types?: {
        hierarchy: {
          extends: {
            symbol: string;
            file: string;
            kind: string;
            line?: number;
            [k: string]: unknown;
          }[];
          implements: {
            symbol: string;
            file: string;
            kind: string;
            line?: number;
            [k: string]: unknown;
          }[];
          subtypes: {
            symbol: string;
            file: string;
            kind: string;
            line?: number;
            [k: string]: unknown;
          }[];
          [k: string]: unknown;
        };
        flows: {
          parameters: {
            name?: string;
            type: string;
            file?: string;
            [k: string]: unknown;
          }[];
          returns: null | {
            name?: string;
            type: string;
            file?: string;
            [k: string]: unknown;
          };
          properties: {
            name?: string;
            type: string;
            file?: string;
            [k: string]: unknown;
          }[];
          [k: string]: unknown;
        };
        typeGuard: null | {
          [k: string]: unknown;
        };
        mergedDeclarations: {
          [k: string]: unknown;
        }[];
        [k: string]: unknown;
      };
      [k: string]: unknown;
    }
  | NotFound;

export interface JupyterCodetraceResultPayloadsToDictOfEveryQuery {
  [k: string]: unknown;
}
/**
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "Location".
 */
export interface Location {
  file: string;
  line: number;
  column: number;
  kind?: string;
  name?: string;
  cell?: number;
  library?: Library;
  [k: string]: unknown;
}
/**
 * Set when the file is library code outside the project (standard library, an installed package, node_modules): `file` is then the path under its import root (json/__init__.py, networkx/classes/digraph.py).
 *
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "Library".
 */
export interface Library {
  kind: "stdlib" | "package";
  /**
   * 'python' for the standard library, else the distribution or npm package name
   */
  package: string;
  version?: string | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "Suggestion".
 */
export interface Suggestion {
  name?: string;
  file?: string;
  line?: number;
  column?: number;
  kind?: string;
  library?: Library;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "NotFound".
 */
export interface NotFound {
  status:
    | "file_not_indexed"
    | "reference_not_found"
    | "symbol_not_found"
    | "unresolved"
    | "builtin"
    | "no_path"
    | "same_symbol";
  message: string;
  suggestions?: Suggestion[];
  symbol?: string;
  query?: string;
  mode?: string;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "Parameter".
 */
export interface Parameter {
  name: string;
  type: string | null;
  default: string | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "ChainStep".
 */
export interface ChainStep {
  file: string;
  via: string;
  library?: Library;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "Reference".
 */
export interface Reference {
  file: string;
  line: number;
  column: number;
  usage: "call" | "import" | "read" | "write" | "type-ref" | "declaration";
  test: boolean;
  context: string;
  resolution: "scope" | "import" | "member" | "inferred" | "name-only";
  cell?: number;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "Symbols".
 */
export interface Symbols {
  status: "found" | "symbol_not_found";
  query: string;
  count: number;
  truncated: boolean;
  message?: string;
  symbols: {
    name: string;
    kind:
      | "function"
      | "method"
      | "constructor"
      | "class"
      | "interface"
      | "type"
      | "enum"
      | "enum_member"
      | "struct"
      | "trait"
      | "impl"
      | "module"
      | "namespace"
      | "variable"
      | "constant"
      | "property"
      | "field"
      | "parameter"
      | "macro";
    file: string;
    line: number;
    column: number;
    container: string | null;
    signature: string | null;
    score: number;
    exported: boolean;
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}
/**
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "IndexStats".
 */
export interface IndexStats {
  skipped: {
    [k: string]: unknown;
  }[];
  warnings: {
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}
/**
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "GraphNode".
 */
export interface GraphNode {
  /**
   * file#nesting (a module: file#)
   */
  id: string;
  name: string;
  qualified_name: string;
  kind: string;
  file: string;
  line: number;
  end_line: number;
  offset: number;
  limit: number;
  external_calls?: string[];
  cell?: number;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "GraphEdge".
 */
export interface GraphEdge {
  source: string;
  target: string;
  kind: "CALLS" | "REFERENCES" | "EXTENDS" | "IMPLEMENTS" | "IMPORTS";
  file: string;
  line: number;
  resolution: "scope" | "import" | "member" | "inferred" | "name-only";
  [k: string]: unknown;
}
/**
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "Graph".
 */
export interface Graph {
  status: "found" | "file_not_indexed" | "symbol_not_found" | "no_path" | "same_symbol";
  query: "dependencies" | "dependents" | "paths" | "graph";
  message?: string;
  suggestions?: Suggestion[];
  inputs: string[];
  nodes: GraphNode[];
  edges: GraphEdge[];
  paths?: string[][];
  truncated: boolean;
  include_name_matches: boolean;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "CallTreeNode".
 */
export interface CallTreeNode {
  symbol: string;
  id?: string;
  kind?: string;
  file?: string;
  line?: number;
  cell?: number;
  cycle?: boolean;
  seen?: boolean;
  external?: boolean;
  children: CallTreeNode[];
  [k: string]: unknown;
}
/**
 * Project.library_source: the text of a library file an answer led to
 *
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "LibrarySource".
 */
export interface LibrarySource {
  status: "found" | "file_not_indexed";
  file: string;
  message?: string;
  language?: string | null;
  library?: Library;
  text?: string;
  [k: string]: unknown;
}
/**
 * REST 400: invalid input; field names the argument that is wrong (null: the body)
 *
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "InvalidRequest".
 */
export interface InvalidRequest {
  status: "invalid_request";
  message: string;
  field?: string | null;
  [k: string]: unknown;
}
/**
 * REST 403: a path outside the project root (field names the argument; the path is not echoed). jupyter-server's own 403 (not authenticated or not authorized) carries only a message
 *
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "Forbidden".
 */
export interface Forbidden {
  status?: "forbidden";
  message: string;
  field?: string | null;
  [k: string]: unknown;
}
/**
 * REST status and reindex: the index's state and progress, and once indexed what it holds
 *
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "Status".
 */
export interface Status {
  state: "idle" | "indexing" | "ready" | "error";
  done: number;
  total: number;
  current?: string | null;
  started?: number | null;
  finished?: number | null;
  error?: string | null;
  runs?: number;
  root?: string;
  /**
   * The root as a path of the server's contents ('' = root_dir, null = outside)
   */
  contents_path?: string | null;
  files?: number | null;
  languages?: {
    [k: string]: unknown;
  } | null;
  skipped?: unknown[] | null;
  warnings?: unknown[] | null;
  syntax_errors?: unknown[] | null;
  seconds?: number | null;
  started_now?: boolean;
  [k: string]: unknown;
}
/**
 * REST 503 (with Retry-After) while the first index of the root runs
 *
 * This interface was referenced by `JupyterCodetraceResultPayloadsToDictOfEveryQuery`'s JSON-Schema
 * via the `definition` "Indexing".
 */
export interface Indexing {
  status: "indexing";
  message: string;
  progress: Status;
  [k: string]: unknown;
}
