// Exports the Godot 3 fixture projects and the attacker corpus with the real engine, once per test
// run, two at a time; runs each attack's pack headless to prove its payload fires (after appending
// the entries an attack adds to its exported pack). Exports and runs are cached by the project's
// content hash (and the engine's version), so an unchanged project costs a file copy.
import { spawn, spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { type AttackProject, ATTACK_PROJECTS } from "../scanner/fixtures/attackProjects.ts"
import { appendToPack } from "../scanner/support/repack.ts"
import { GODOT_PROJECTS, type GodotProject } from "../scanner/fixtures/godotProjects.ts"

export const GODOT3_BINARY = "godot3-server"
export const PACK_PRESET = "Summer Game PCK"
const PARALLEL = 2
const EXPORT_TIMEOUT_MS = 120_000
const RUN_TIMEOUT_MS = 30_000
/** PCKGATE_GODOT_CACHE_DIR names another cache folder (an empty one measures a cold run). */
const CACHE_DIR = process.env["PCKGATE_GODOT_CACHE_DIR"] ?? resolve(dirname(fileURLToPath(import.meta.url)), "../../node_modules/.cache/pckgate-godot")

/** Layout of the folder handed to tests: `projects/<name>/…` as written, `packs/<name>.pck` as exported, `runs/<name>.json` for attacks. */
export const fixturePackPath = (root: string, name: string): string => join(root, "packs", `${name}.pck`)
export const fixtureProjectPath = (root: string, name: string): string => join(root, "projects", name)
export const attackRunPath = (root: string, name: string): string => join(root, "runs", `${name}.json`)

/** What running an attack's pack headless showed. */
export interface AttackRun {
  /** The payload touched its marker file (for a project of variants: every variant touched its own). */
  readonly fired: boolean
  /**
   * Marker files found under the run's HOME afterwards, relative to it: `payload-fired` for a single
   * payload, `payload-fired.<variant>` for each variant that fired (wherever the payload managed to
   * write it, e.g. another game's data folder).
   */
  readonly markers: ReadonlyArray<string>
  readonly exitCode: number | null
  /** The engine's last output lines, for a failing test's message. */
  readonly output: string
}

const engineVersion = (): string => {
  const result = spawnSync(GODOT3_BINARY, ["--version"], { encoding: "utf8" })
  return (result.stdout ?? "").trim()
}

/**
 * glibc's malloc asks for transparent huge pages (madvise) for its heap. An editor start touches about 110 MB, which
 * in 4 KiB pages is some 25,000 page faults, a fifth of its CPU on this virtual machine; with huge pages 12 exports
 * two at a time took 10.1 s instead of 12.7 s. Where huge pages are off (or always on) the tunable changes nothing.
 */
const ENGINE_MALLOC_TUNABLES = "glibc.malloc.hugetlb=1"

/** A HOME of its own per engine process: the editor and the game write settings and user:// there. */
const isolatedEnv = (home: string, extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  GLIBC_TUNABLES: [process.env["GLIBC_TUNABLES"], ENGINE_MALLOC_TUNABLES].filter((t) => t !== undefined && t !== "").join(":"),
  HOME: home,
  XDG_CONFIG_HOME: join(home, ".config"),
  XDG_DATA_HOME: join(home, ".local/share"),
  XDG_CACHE_HOME: join(home, ".cache"),
  ...extra,
})

/** How often a run that may stop early looks for its markers, and how long it lets the engine go on after they are all there. */
const DONE_POLL_MS = 40
const DONE_GRACE_MS = 80

/**
 * Runs the engine; with `done`, stops it once `done()` holds (every marker of an attack written: what the run is
 * for), instead of waiting for the pack's own quit timer, which is most of an attack run's time and none of its CPU.
 */
const run = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv, timeoutMs: number, cwd?: string, done?: () => boolean): Promise<{ code: number | null; output: string }> =>
  new Promise((resolvePromise) => {
    const child = spawn(GODOT3_BINARY, [...args], { env, stdio: ["ignore", "pipe", "pipe"], ...(cwd === undefined ? {} : { cwd }) })
    let output = ""
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString("utf8")).slice(-8000)
    }
    child.stdout.on("data", keep)
    child.stderr.on("data", keep)
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    const poll =
      done === undefined
        ? undefined
        : setInterval(() => {
            // The engine may be removing a folder the look walks: not done yet, look again.
            let finished = false
            try {
              finished = done()
            } catch {
              finished = false
            }
            if (!finished) return
            clearInterval(poll)
            setTimeout(() => child.kill("SIGKILL"), DONE_GRACE_MS)
          }, DONE_POLL_MS)
    child.on("close", (code) => {
      clearTimeout(timer)
      clearInterval(poll)
      resolvePromise({ code, output })
    })
  })

type Exported = GodotProject & Partial<Pick<AttackProject, "appendEntries" | "appendRawEntries" | "patchResources" | "binaryFiles" | "variants" | "launches" | "startIn">>

const writeProject = (dir: string, project: Exported): void => {
  const files: Array<[string, string | Uint8Array]> = [...Object.entries(project.files), ...Object.entries(project.binaryFiles ?? {}).map(([path, bytes]): [string, Uint8Array] => [path, Uint8Array.from(bytes)])]
  for (const [path, data] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), data)
  }
}

const hashOf = (project: Exported, version: string, attack: boolean): string =>
  createHash("sha256")
    .update(
      JSON.stringify([
        version,
        attack,
        Object.entries(project.files).sort(),
        ...(project.appendEntries === undefined ? [] : [Object.entries(project.appendEntries)]),
        ...(project.appendRawEntries === undefined ? [] : [project.appendRawEntries]),
        ...(project.patchResources === undefined ? [] : [project.patchResources]),
        ...(project.binaryFiles === undefined ? [] : [Object.entries(project.binaryFiles)]),
        ...(project.variants === undefined ? [] : [project.variants.map((v) => v.id), project.launches ?? 1]),
        ...(project.startIn === undefined ? [] : [project.startIn]),
      ]),
    )
    .digest("hex")
    .slice(0, 32)

/**
 * Writes the project and runs `godot3-server --path <project> --export-pack "Summer Game PCK" <abs>.pck`.
 * The engine prints ERROR lines even on success, so only the exit code and the output file decide.
 */
const exportProject = async (root: string, project: Exported, cached: string): Promise<boolean> => {
  const dir = fixtureProjectPath(root, project.name)
  writeProject(dir, project)
  const out = fixturePackPath(root, project.name)
  if (existsSync(cached)) {
    copyFileSync(cached, out)
    return false
  }
  const home = mkdtempSync(join(root, "home-"))
  try {
    const result = await run(["--path", dir, "--export-pack", PACK_PRESET, out], isolatedEnv(home), EXPORT_TIMEOUT_MS)
    if (result.code !== 0 || !existsSync(out)) {
      throw new Error(`${GODOT3_BINARY} failed to export ${project.name} (exit ${result.code}):\n${result.output.slice(-4000)}`)
    }
    if (project.appendEntries !== undefined || project.appendRawEntries !== undefined || project.patchResources !== undefined) {
      await appendToPack(out, project.appendEntries ?? {}, project.appendRawEntries ?? [], project.patchResources ?? [])
    }
    copyFileSync(out, cached)
    return true
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
}

/** Markers under `home` (any depth), relative to it: files, or folders for payloads that make one (make_dir_recursive). */
const markersIn = (home: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === MARKER || entry.name.startsWith(`${MARKER}.`)) found.push(relative(home, join(dir, entry.name)))
      if (entry.isDirectory()) walk(join(dir, entry.name))
    }
  }
  walk(home)
  return found.sort()
}

const MARKER = "payload-fired"

/** The marker of variant `id` (`payload-fired.<id>`, or with an extension a saver insisted on: `payload-fired.<id>.tres`), wherever it landed. */
export const variantMarker = (markers: ReadonlyArray<string>, id: string): string | undefined =>
  markers.find((m) => {
    const name = m.slice(m.lastIndexOf("/") + 1)
    return name === `${MARKER}.${id}` || name.startsWith(`${MARKER}.${id}.`)
  })

const variantFired = (markers: ReadonlyArray<string>, id: string): boolean => variantMarker(markers, id) !== undefined

/**
 * Runs the exported pack headless (`launches` times, for payloads that take effect at the next start);
 * the payload touches PCKGATE_MARKER, each variant PCKGATE_MARKER.<variant>.
 */
const runAttack = async (root: string, project: Exported, cached: string): Promise<boolean> => {
  const target = attackRunPath(root, project.name)
  if (existsSync(cached)) {
    copyFileSync(cached, target)
    return false
  }
  const allFired = (markers: ReadonlyArray<string>): boolean =>
    project.variants === undefined ? markers.some((m) => m.slice(m.lastIndexOf("/") + 1) === MARKER) : project.variants.every((v) => variantFired(markers, v.id))
  let outcome: AttackRun | undefined
  for (let attempt = 1; attempt <= RUN_ATTEMPTS && (outcome === undefined || (!outcome.fired && crashed(outcome.output))); attempt++) {
    const home = mkdtempSync(join(root, "home-"))
    try {
      const marker = join(home, MARKER)
      // Started from the player's home folder, as a desktop launcher does (or a folder below it): a res:// path the pack lacks is read from there.
      const cwd = project.startIn === undefined ? home : join(home, project.startIn)
      mkdirSync(cwd, { recursive: true })
      let result = { code: null as number | null, output: "" }
      const launches = project.launches ?? 1
      for (let launch = 0; launch < launches; launch++) {
        // Only the last launch stops early: an earlier one leaves what the next start acts on, and ends by itself.
        const done = launch === launches - 1 ? () => allFired(markersIn(home)) : undefined
        result = await run(["--main-pack", fixturePackPath(root, project.name)], isolatedEnv(home, { PCKGATE_MARKER: marker }), RUN_TIMEOUT_MS, cwd, done)
      }
      const markers = markersIn(home)
      outcome = { fired: allFired(markers), markers, exitCode: result.code, output: result.output.slice(-2000) }
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  }
  if (outcome === undefined) throw new Error(`${project.name}: no run`)
  writeFileSync(target, JSON.stringify(outcome))
  // Only a run that fired is cached: a failure is looked at again on the next run.
  if (outcome.fired) copyFileSync(target, cached)
  return true
}

/**
 * How many times a run is started afresh when the engine crashed before every marker was there: Godot 3.2.3 itself
 * may crash (signal 11) in a race of its own on a loaded machine (a clean-clone run beside other work lost a bundle's
 * run so, after half of its payloads fired); a run that ends without a crash is never repeated.
 */
const RUN_ATTEMPTS = 3
const crashed = (output: string): boolean => output.includes("handle_crash: Program crashed")

/** A gate letting at most `limit` tasks run at once, the others waiting their turn in order. */
const limiter = (limit: number): (<T>(task: () => Promise<T>) => Promise<T>) => {
  let running = 0
  const waiting: Array<() => void> = []
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((go) => waiting.push(go))
    running++
    try {
      return await task()
    } finally {
      running--
      waiting.shift()?.()
    }
  }
}

export const exportGodotFixtures = async (root: string): Promise<string> => {
  const version = engineVersion()
  mkdirSync(CACHE_DIR, { recursive: true })
  mkdirSync(join(root, "packs"), { recursive: true })
  mkdirSync(join(root, "runs"), { recursive: true })
  const projects = [...GODOT_PROJECTS.map((p) => ({ project: p as Exported, attack: false })), ...ATTACK_PROJECTS.map((p) => ({ project: p, attack: p.run }))]
  // Every project has a folder and a pack of its name: two of one name would overwrite each other, and one would go untested.
  const repeated = projects.map(({ project }) => project.name).filter((name, i, names) => names.indexOf(name) !== i)
  if (repeated.length > 0) throw new Error(`Godot fixture names must be unique; repeated: ${[...new Set(repeated)].join(", ")}`)
  const started = performance.now()
  let exported = 0
  let ran = 0
  // Two exports at a time (the editor's start is the CPU of this work), and beside them two runs at a time: a run
  // mostly waits for the payload's timers, so it would otherwise leave a core idle.
  const exporting = limiter(PARALLEL)
  const running = limiter(PARALLEL)
  await Promise.all(
    projects.map(async ({ project, attack }) => {
      const hash = hashOf(project, version, attack)
      if (await exporting(() => exportProject(root, project, join(CACHE_DIR, `${hash}.pck`)))) exported++
      if (attack && (await running(() => runAttack(root, project, join(CACHE_DIR, `${hash}.run.json`))))) ran++
    }),
  )
  // The issue allows the Godot work at most 3 minutes of `npm test`: the figure is printed, not asserted.
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(`godot fixtures: ${projects.length} projects, ${exported} exported and ${ran} attacks run by ${GODOT3_BINARY} (the rest from ${CACHE_DIR}) in ${seconds} s`)
  return root
}

export const readAttackRun = (root: string, name: string): AttackRun => JSON.parse(readFileSync(attackRunPath(root, name), "utf8")) as AttackRun
