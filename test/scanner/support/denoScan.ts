// Run by test/scanner/deno.test.ts under Deno: scans a file and prints the report as JSON.
// Uses node: modules, which Deno provides, so the same file type-checks with the project's tsc.
import { readFile } from "node:fs/promises"
import process from "node:process"
import { bytesSource } from "../../../adapters/scanner/io/RandomAccess.ts"
import { nodeDecompressors } from "../../../adapters/scanner/nodeDecompressors.ts"
import { defaultPolicy } from "../../../adapters/scanner/policy/defaultPolicy.ts"
import { scanPack } from "../../../adapters/scanner/scanPack.ts"

const path = process.argv.at(-1) ?? ""
const bytes = new Uint8Array(await readFile(path))
const report = await scanPack(bytesSource(bytes), { path: "multipart" }, { policy: defaultPolicy, decompressors: nodeDecompressors })
process.stdout.write(JSON.stringify(report))
