#!/usr/bin/env node
// TypeScript oracle for bench/references_accuracy.py: the language service's "find all
// references" for a batch of definition positions.
//
//   node bench/ts_refs_oracle.js TYPESCRIPT_MODULE_DIR PROJECT_ROOT QUERIES.json OUT.json
//
// QUERIES.json: [{"id": 0, "file": "src/a.ts", "offset": 123}, ...] (UTF-16 offsets).
// OUT.json: {"typescript": version, "answers": [{"id", "error", "refs": [{file, line0, char16,
// definition, write}]}]} — every entry of every referenced symbol the service reports.
"use strict";

const fs = require("fs");
const path = require("path");
const {createService} = require("./ts_service.js");

function main() {
  const [tsDir, rootArg, queriesPath, outPath] = process.argv.slice(2);
  const ts = require(path.resolve(tsDir));
  const {root, service} = createService(ts, rootArg);
  const queries = JSON.parse(fs.readFileSync(queriesPath, "utf8"));
  const answers = [];
  for (const q of queries) {
    let refs = [];
    let error = null;
    try {
      const symbols = service.findReferences(path.join(root, q.file), q.offset) || [];
      const program = service.getProgram();
      for (const symbol of symbols) {
        for (const entry of symbol.references) {
          const sf = program.getSourceFile(entry.fileName);
          const lc = sf.getLineAndCharacterOfPosition(entry.textSpan.start);
          refs.push({file: entry.fileName, line0: lc.line, char16: lc.character,
                     definition: Boolean(entry.isDefinition), write: Boolean(entry.isWriteAccess)});
        }
      }
    } catch (e) {
      error = String(e && e.message ? e.message : e);
    }
    answers.push({id: q.id, error, refs});
  }
  fs.writeFileSync(outPath, JSON.stringify({typescript: ts.version, answers}));
}

main();
