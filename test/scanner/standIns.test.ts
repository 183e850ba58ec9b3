// A hundred-and-twenty-fourth red team's: an autoload's member worked out from a function that reads the member itself
// inside nested loops over `[m, …]` (each loop's variable read twice by the next). Values worked out from the member's
// stand-in are kept while it is worked out and dropped once it is known; never kept, each level of the loops doubled
// the work (sixteen levels, 28 lines, scanned for over three minutes).
import { describe, expect, it } from "vitest"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { writeProjectBinary } from "./support/projectBinaryWriter.ts"
import { scanBytes } from "./support/scan.ts"

const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 4 }))
const MAIN = utf8('[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/main.gd" type="Script" id=1]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource( 1 )\n')

const nested = (levels: number): string => {
  const loops = Array.from({ length: levels }, (_, i) => `${"\t".repeat(i + 2)}for a${i + 1} in [a${i}, a${i}]:`)
  return ["extends Node", "var m = g()", "func g():", '\tfor a0 in [m, "get_name"]:', ...loops, `${"\t".repeat(levels + 2)}return a${levels}`, "func _ready():", "\tOS.call(m)", ""].join("\n")
}

const pack = (source: string, more: Readonly<Record<string, string>> = {}): Uint8Array =>
  writePack({
    format: 1,
    entries: [
      { path: "res://manifest.json", data: MANIFEST },
      { path: "res://project.binary", data: writeProjectBinary([["application/config/name", "G"], ["application/run/main_scene", "res://game/main.tscn"], ["autoload/Looper", "*res://game/looper.gd"]]) },
      { path: "res://game/main.tscn", data: MAIN },
      { path: "res://game/main.gd", data: utf8("extends EngineGame\n") },
      { path: "res://game/looper.gd", data: utf8(source) },
      ...Object.entries(more).map(([path, text]) => ({ path, data: utf8(text) })),
    ],
  })

describe("a member read while it is worked out", () => {
  it("is worked out once for nested loops over it, and the call by its value stays an error", async () => {
    const found = (await scanBytes(pack(nested(24)))).findings.filter((f) => f.severity === "error" && f.file === "res://game/looper.gd")
    expect(found.map((f) => `${f.line} ${f.rule}`)).toEqual(["31 banned-api"])
  })
})

// A hundred-and-twenty-fifth red team's: a chain of local copies of parsed JSON (`var d1 = d0`, `var d2 = d1`, …).
// Whether each copy may be changed elsewhere is worked out once, and what a name hands on is looked up by that name: a
// chain of 1600 copies walked the rest of the chain from every copy (131 s).
describe("a chain of local copies of the pack's data", () => {
  it("is followed once, and a call by an entry's value stays an error", async () => {
    const copies = Array.from({ length: 1600 }, (_, i) => `\tvar d${i + 1} = d${i}`)
    const source = ["extends Node", "func _ready():", "\tvar f = File.new()", '\tf.open("res://game/data.json", File.READ)', "\tvar d0 = parse_json(f.get_as_text())", ...copies, "\tOS.call(d1600[\"k\"], \"x\")", ""].join("\n")
    const found = (await scanBytes(pack(source, { "res://game/data.json": '{"k": "get_name"}' }))).findings.filter((f) => f.severity === "error" && f.file === "res://game/looper.gd")
    expect(found.map((f) => `${f.line} ${f.rule}`)).toEqual(["1606 banned-api"])
  })
})
