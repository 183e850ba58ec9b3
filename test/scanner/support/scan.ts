// Test helpers: scan bytes or files with the default configuration.
import type { ScanReport } from "../../../domain/scan/ScanReport.ts"
import type { ScanExpectations } from "../../../ports/PackScanner.ts"
import { withFileByteSource } from "../../../adapters/scanner/fileByteSource.ts"
import { bytesSource } from "../../../adapters/scanner/io/RandomAccess.ts"
import { nodeDecompressors } from "../../../adapters/scanner/nodeDecompressors.ts"
import { defaultPolicy } from "../../../adapters/scanner/policy/defaultPolicy.ts"
import type { Policy } from "../../../adapters/scanner/policy/Policy.ts"
import { scanPack } from "../../../adapters/scanner/scanPack.ts"
import { utf8 } from "./bytes.ts"
import { writePack } from "./packWriter.ts"

export const MULTIPART: ScanExpectations = { path: "multipart" }

export const scanBytes = (bytes: Uint8Array, expectations: ScanExpectations = MULTIPART, policy: Policy = defaultPolicy): Promise<ScanReport> =>
  scanPack(bytesSource(bytes), expectations, { policy, decompressors: nodeDecompressors })

export const scanFile = (path: string, expectations: ScanExpectations = MULTIPART, verifyChecksums = false): Promise<ScanReport> =>
  withFileByteSource(path, (source) => scanPack(source, expectations, { policy: defaultPolicy, decompressors: nodeDecompressors, verifyChecksums }))

/** `file:line rule` triples, the shape most assertions compare. */
export const located = (report: ScanReport): ReadonlyArray<string> =>
  report.findings.map((f) => `${f.file}${f.line === null ? "" : `:${f.line}`} ${f.rule}`)

const MANIFEST = utf8(JSON.stringify({ id: "p", name: "P", version: "1.0.0", engine_sdk: "1", entry_scene: "res://main.tscn", min_players: 1, max_players: 1 }))
const SCENE = utf8('[gd_scene load_steps=2 format=3]\n[ext_resource type="Script" path="res://main.gd" id="1"]\n[node name="M" type="Node2D"]\nscript = ExtResource("1")\n')

/**
 * A Godot 4 pack written by the test's pack writer (format 2, a 4.2 export, or 3, a 4.5 one) whose main script is
 * `source`; its findings as `file:line severity pattern-id`, the SDK's EngineGame aside.
 */
export const scan4 = async (source: string, format: 2 | 3 = 2): Promise<ReadonlyArray<string>> => {
  const report = await scanBytes(writePack({ format, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://main.tscn", data: SCENE }, { path: "res://main.gd", data: utf8(source) }] }))
  return report.findings.filter((f) => f.rule !== "entry-scene-not-engine-game").map((f) => `${f.file}:${f.line ?? ""} ${f.severity} ${/\(policy ([a-z0-9-]+)\)/.exec(f.message)?.[1] ?? f.pattern}`)
}

const MANIFEST3 = utf8(JSON.stringify({ id: "p", name: "P", version: "1.0.0", engine_sdk: "1", entry_scene: "res://main.tscn", min_players: 1, max_players: 1 }))
const SCENE3 = utf8('[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://main.gd" type="Script" id=1]\n\n[node name="M" type="Node2D"]\nscript = ExtResource( 1 )\n')

/**
 * A Godot 3 pack written by the test's pack writer whose main scene's script extends the SDK's EngineGame, with
 * `files` (res:// path → text or bytes) beside it; its findings as `file:line severity pattern-id`, the SDK's EngineGame aside.
 */
export const scan3Files = async (files: Readonly<Record<string, string | Uint8Array>>): Promise<ReadonlyArray<string>> => {
  const entries = [{ path: "res://manifest.json", data: MANIFEST3 }, { path: "res://main.tscn", data: SCENE3 }, { path: "res://main.gd", data: utf8("extends EngineGame\n") }]
  const report = await scanBytes(writePack({ format: 1, entries: [...entries, ...Object.entries(files).map(([path, text]) => ({ path, data: typeof text === "string" ? utf8(text) : text }))] }))
  return report.findings.filter((f) => f.rule !== "entry-scene-not-engine-game").map((f) => `${f.file}:${f.line ?? ""} ${f.severity} ${/\(policy ([a-z0-9-]+)\)/.exec(f.message)?.[1] ?? f.pattern}`)
}
