/* A query's matches as one flat array of int32, made in C (bench/extraction_ceiling.py --native):
 * what running the query costs when no syntax node becomes a Python object. Per capture: pattern
 * index, capture index, match id, start byte, end byte, start row, start column. Predicates
 * (#eq?, #match?) are not applied: the figure is the walk and the matching, an upper bound's floor.
 *
 * It reads py-tree-sitter's Node and Query objects by their C layout (tree_sitter/binding/types.h
 * of the installed version: the script builds against that version's sdist) and links its own copy
 * of the same version's runtime (lib.c), which works on the trees and queries the binding made. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include "tree_sitter/api.h"

typedef struct { PyObject_HEAD TSNode node; PyObject *children; PyObject *tree; } BindingNode;
typedef struct { PyObject_HEAD TSQuery *query; PyObject *predicates; PyObject *settings; PyObject *assertions; } BindingQuery;

static PyObject *flat_matches(PyObject *self, PyObject *args) {
    PyObject *query, *node;
    unsigned int limit;
    if (!PyArg_ParseTuple(args, "OOI", &query, &node, &limit)) return NULL;
    TSQueryCursor *cursor = ts_query_cursor_new();
    ts_query_cursor_set_match_limit(cursor, limit);
    ts_query_cursor_exec(cursor, ((BindingQuery *)query)->query, ((BindingNode *)node)->node);
    size_t room = 1 << 16, used = 0;
    int32_t *rows = malloc(room * sizeof(int32_t));
    TSQueryMatch match;
    while (rows != NULL && ts_query_cursor_next_match(cursor, &match)) {
        for (uint16_t i = 0; i < match.capture_count; i++) {
            if (used + 7 > room) {
                int32_t *grown = realloc(rows, 2 * room * sizeof(int32_t));
                if (grown == NULL) { free(rows); rows = NULL; break; }
                rows = grown;
                room *= 2;
            }
            TSNode captured = match.captures[i].node;
            TSPoint start = ts_node_start_point(captured);
            rows[used++] = match.pattern_index;
            rows[used++] = match.captures[i].index;
            rows[used++] = (int32_t)match.id;
            rows[used++] = ts_node_start_byte(captured);
            rows[used++] = ts_node_end_byte(captured);
            rows[used++] = start.row;
            rows[used++] = start.column;
        }
    }
    ts_query_cursor_delete(cursor);
    if (rows == NULL) return PyErr_NoMemory();
    PyObject *blob = PyBytes_FromStringAndSize((char *)rows, used * sizeof(int32_t));
    free(rows);
    return blob;
}

static PyMethodDef methods[] = {{"flat_matches", flat_matches, METH_VARARGS, NULL}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "native_matches", NULL, -1, methods};
PyMODINIT_FUNC PyInit_native_matches(void) { return PyModule_Create(&module); }
