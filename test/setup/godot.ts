// Exports the Godot 3 fixture projects with the real engine, once per test run.
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { GODOT_PROJECTS } from "../scanner/fixtures/godotProjects.ts"

export const GODOT3_BINARY = "godot3-server"
export const PACK_PRESET = "Summer Game PCK"

/** Layout of the folder handed to tests: `projects/<name>/…` as written, `packs/<name>.pck` as exported. */
export const fixturePackPath = (root: string, name: string): string => join(root, "packs", `${name}.pck`)
export const fixtureProjectPath = (root: string, name: string): string => join(root, "projects", name)

/**
 * Writes each project and runs `godot3-server --path <project> --export-pack "Summer Game PCK" <abs>.pck`.
 * Each export gets its own HOME (the editor writes settings and caches there). The engine prints
 * ERROR lines even on success, so only the exit code and the output file decide.
 */
export const exportGodotFixtures = (root: string): string => {
  for (const project of GODOT_PROJECTS) {
    const dir = fixtureProjectPath(root, project.name)
    for (const [path, text] of Object.entries(project.files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true })
      writeFileSync(join(dir, path), text)
    }
    const out = fixturePackPath(root, project.name)
    mkdirSync(dirname(out), { recursive: true })
    const home = mkdtempSync(join(root, "home-"))
    try {
      const result = spawnSync(GODOT3_BINARY, ["--path", dir, "--export-pack", PACK_PRESET, out], {
        env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local/share"), XDG_CACHE_HOME: join(home, ".cache") },
        encoding: "utf8",
        timeout: 120_000,
      })
      if (result.status !== 0) {
        throw new Error(`${GODOT3_BINARY} failed to export ${project.name} (exit ${result.status ?? result.signal}):\n${(result.stderr + result.stdout).slice(-4000)}`)
      }
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  }
  return root
}
