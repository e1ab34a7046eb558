#!/usr/bin/env node
// TypeScript oracle for bench/accuracy.py: the compiler's language service answers
// "go to definition" for a batch of positions.
//
//   node bench/ts_oracle.js TYPESCRIPT_MODULE_DIR PROJECT_ROOT QUERIES.json OUT.json [CONFIG.json]
//
// CONFIG.json (optional) stands in for PROJECT_ROOT/tsconfig.json, relative paths in it
// resolved against PROJECT_ROOT (the JavaScript corpus: allowJs, its files as root names).
// QUERIES.json: [{"id": 0, "file": "src/a.ts", "offset": 123}, ...]  (offset in UTF-16
// code units from the start of the file, as the language service counts).
// OUT.json: {"typescript": version, "timings": {...}, "answers": [{"id", "defs": [...]}]}
// where each def is {"file": absolute path, "line0", "char16", "name", "kind", "containerName"}.
"use strict";

const fs = require("fs");
const path = require("path");
const {createService} = require("./ts_service.js");

function main() {
  const [tsDir, rootArg, queriesPath, outPath, configPath] = process.argv.slice(2);
  if (!outPath) {
    console.error("usage: node ts_oracle.js TYPESCRIPT_MODULE_DIR PROJECT_ROOT QUERIES.json OUT.json [CONFIG.json]");
    process.exit(2);
  }
  const t0 = process.hrtime.bigint();
  const ms = (a, b) => Number(b - a) / 1e6;
  const ts = require(path.resolve(tsDir));
  const tRequire = process.hrtime.bigint();

  const {root, fileNames, service} = createService(ts, rootArg, configPath);
  const tService = process.hrtime.bigint();

  const queries = JSON.parse(fs.readFileSync(queriesPath, "utf8"));
  const answers = [];
  const perQuery = [];
  let firstQueryMs = null;
  for (const q of queries) {
    const fileName = path.join(root, q.file);
    const a = process.hrtime.bigint();
    let defs = [];
    let error = null;
    try {
      defs = service.getDefinitionAtPosition(fileName, q.offset) || [];
    } catch (e) {
      error = String(e && e.message ? e.message : e);
    }
    const b = process.hrtime.bigint();
    if (firstQueryMs === null) firstQueryMs = ms(a, b);
    else perQuery.push(ms(a, b));
    const program = service.getProgram();
    answers.push({
      id: q.id,
      error,
      defs: defs.map((d) => {
        const sf = program.getSourceFile(d.fileName);
        const lc = sf ? sf.getLineAndCharacterOfPosition(d.textSpan.start) : { line: -1, character: -1 };
        return {
          file: d.fileName,
          line0: lc.line,
          char16: lc.character,
          name: d.name,
          kind: d.kind,
          containerName: d.containerName,
        };
      }),
    });
  }
  const tEnd = process.hrtime.bigint();
  const program = service.getProgram();
  const out = {
    typescript: ts.version,
    files_in_program: program ? program.getSourceFiles().length : null,
    root_files: fileNames.length,
    timings: {
      require_ms: ms(t0, tRequire),
      create_service_ms: ms(tRequire, tService),
      first_query_ms: firstQueryMs,
      cold_start_ms: ms(t0, tService) + (firstQueryMs || 0),
      per_query_ms: perQuery,
      total_ms: ms(t0, tEnd),
    },
    answers,
  };
  fs.writeFileSync(outPath, JSON.stringify(out));
}

main();
