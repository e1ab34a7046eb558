// The TypeScript language service over a project's tsconfig.json, for the bench oracles
// (ts_oracle.js: go to definition; ts_refs_oracle.js: find all references). configPath, when
// given, is read instead of ROOT/tsconfig.json (its paths still relative to ROOT): the
// JavaScript corpus gets its allowJs options that way and is left as published.
"use strict";

const path = require("path");

function createService(ts, rootArg, configPath) {
  const root = path.resolve(rootArg);
  const config = ts.readConfigFile(configPath || path.join(root, "tsconfig.json"), ts.sys.readFile);
  if (config.error) {
    throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, "\n"));
  }
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const snapshots = new Map();
  const host = {
    getScriptFileNames: () => parsed.fileNames,
    getScriptVersion: () => "0",
    getScriptSnapshot: (fileName) => {
      if (!snapshots.has(fileName)) {
        const text = ts.sys.readFile(fileName);
        snapshots.set(fileName, text === undefined ? undefined : ts.ScriptSnapshot.fromString(text));
      }
      return snapshots.get(fileName);
    },
    getCurrentDirectory: () => root,
    getCompilationSettings: () => parsed.options,
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames,
  };
  return {root, fileNames: parsed.fileNames, service: ts.createLanguageService(host, ts.createDocumentRegistry())};
}

module.exports = {createService};
