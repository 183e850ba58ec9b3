// Regenerates adapters/scanner/resource/smaz-codebook.json: the 254 codebook strings of smaz (thirdparty/misc/smaz.c in
// the engine's source), with which a compressed translation's texts are stored (3.x PHashTranslation, 4.x
// OptimizedTranslation). Read from the C source's `Smaz_rcb` array, C escapes decoded; the byte values 254 and 255
// stand for verbatim bytes instead (resource/compressedTranslation.ts).
//
//   node test/scanner/support/generateSmazCodebook.ts <godot git dir or checkout> [out.json]
import { spawnSync } from "node:child_process"
import { writeFileSync } from "node:fs"

const [repo, out = "adapters/scanner/resource/smaz-codebook.json"] = process.argv.slice(2)
if (repo === undefined) {
  console.error("usage: node test/scanner/support/generateSmazCodebook.ts <godot git dir or checkout> [out.json]")
  process.exit(2)
}
const source = spawnSync("git", ["-C", repo, "show", "HEAD:thirdparty/misc/smaz.c"], { encoding: "utf8" }).stdout
const body = /Smaz_rcb\[254\]\s*=\s*\{([\s\S]*?)\};/.exec(source)?.[1]
if (body === undefined) throw new Error("no Smaz_rcb array in thirdparty/misc/smaz.c")
const ESCAPES: Readonly<Record<string, string>> = { n: "\n", r: "\r", t: "\t", "\\": "\\", '"': '"', "'": "'" }
const entries = [...body.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] ?? "").replace(/\\(.)/g, (_, c: string) => ESCAPES[c] ?? c))
if (entries.length !== 254) throw new Error(`Smaz_rcb has ${entries.length} entries, not 254`)
writeFileSync(out, `${JSON.stringify(entries)}\n`)
