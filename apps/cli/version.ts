// The version in package.json, found from this file both in the sources (apps/cli/) and in the package (dist/apps/cli/).
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"

export const cliVersion = (): string => {
  for (let dir = import.meta.dirname, i = 0; i < 5; dir = dirname(dir), i++) {
    try {
      const manifest: unknown = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
      if (typeof manifest === "object" && manifest !== null && "name" in manifest && manifest.name === "pckgate" && "version" in manifest) {
        return String(manifest.version)
      }
    } catch {
      // not this folder
    }
  }
  return "unknown"
}
