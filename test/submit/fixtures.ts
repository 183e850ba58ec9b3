// The real Godot 3 packs the global setup exported, and their manifests.
import { readFileSync } from "node:fs"
import { inject } from "vitest"
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
