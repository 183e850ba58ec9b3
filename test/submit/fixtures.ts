// The real Godot 3 packs the global setup exported, and their manifests.
import { readFileSync } from "node:fs"
import { inject } from "vitest"
import { utf8 } from "../scanner/support/bytes.ts"
import { withPackContents } from "../scanner/support/packEntries.ts"
import { writePack } from "../scanner/support/packWriter.ts"
import { fixturePackPath, fixtureProjectPath } from "../setup/godot.ts"
import "../setup/provided.ts"

export const pack = (name: string) => {
  const root = inject("godotFixtures")
  return {
    path: fixturePackPath(root, name),
    bytes: new Uint8Array(readFileSync(fixturePackPath(root, name))),
    manifestText: readFileSync(`${fixtureProjectPath(root, name)}/manifest.json`, "utf8"),
  }
}

/**
 * The real "clean" pack the engine exported, with its manifest.json replaced: a valid pack for any manifest id, version
 * and name (the scanner requires the pack to carry the submitted manifest).
 */
export const packWithManifest = async (overrides: { readonly id: string; readonly version: string; readonly name?: string }) => {
  const clean = pack("clean")
  const manifestText = JSON.stringify({ ...JSON.parse(clean.manifestText), ...overrides }, null, 2)
  const entries = await withPackContents(clean.path, async (contents) =>
    Promise.all(contents.entries.map(async (entry) => ({
      path: entry.path,
      data: entry.path === "res://manifest.json" ? utf8(manifestText) : await contents.bytesOf(entry),
    }))))
  if (!entries.some((e) => e.path === "res://manifest.json")) throw new Error("the clean pack has no manifest.json")
  return { bytes: writePack({ format: 1, engine: [3, 2, 3], entries }), manifestText }
}
