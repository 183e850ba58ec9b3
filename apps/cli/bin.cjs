#!/usr/bin/env node
// The `pckgate` command of the npm package: checks the Node version, then runs the compiled CLI (dist/apps/cli/main.js).
// CommonJS in ES5 syntax on purpose: any Node, however old, parses this file and prints why it refuses, instead of a
// syntax error from the ES modules that only Node 24 runs. Even `import()` is kept out of the parser's sight.
"use strict"

var MINIMUM_MAJOR = 24
var major = parseInt(String(process.versions.node).split(".")[0], 10)

if (!(major >= MINIMUM_MAJOR)) {
  process.stderr.write(
    "pckgate needs Node.js " + MINIMUM_MAJOR + " or newer, but this is Node.js " + process.version + " (" + process.execPath + ").\n" +
      "Install Node.js " + MINIMUM_MAJOR + " or newer (https://nodejs.org/) and run pckgate again.\n"
  )
  process.exit(2) // the CLI's "cannot run" code
}

var path = require("path")
var url = require("url")
var main = url.pathToFileURL(path.join(__dirname, "..", "..", "dist", "apps", "cli", "main.js")).href
// A failure while the CLI runs rejects this promise: Node prints it and exits 1, as `node apps/cli/main.ts` would.
var importModule = new Function("specifier", "return import(specifier)")
importModule(main)
