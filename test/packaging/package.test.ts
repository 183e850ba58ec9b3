// The library as integrators get it: `npm run build`, `npm pack`, an offline install of the tarball into a fresh
// project, then the release flow through the public subpaths on Node 24 (the installed JavaScript) and on Deno (the
// .ts sources through deno.json), the module graph each subpath loads, the docs' examples, and the `pckgate` bin.
// Built and installed once for the whole file (about 10 s); every test reads that one install.
import { execFile } from "node:child_process"
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { REPO_ROOT } from "../support/server.ts"

const CONSUMER_FILES = join(REPO_ROOT, "test/packaging/consumer")
const DENO = join(REPO_ROOT, "node_modules/.bin/deno")
const TSC = join(REPO_ROOT, "node_modules/.bin/tsc")
const NODE = process.execPath // Node 24 (test/purity.test.ts checks the runtime)
const TIMEOUT_MS = 120_000

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const run = (file: string, args: ReadonlyArray<string>, options: { cwd: string; env?: Record<string, string> }): Promise<Run> =>
  new Promise((resolve) => {
    const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", ...options.env }
    // Set by the `npm test` around us; the consumer project is its own root.
    delete env["npm_config_local_prefix"]
    execFile(
      file,
      args,
      { cwd: options.cwd, env, timeout: TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr }),
    )
  })

const succeed = async (file: string, args: ReadonlyArray<string>, options: { cwd: string; env?: Record<string, string> }): Promise<string> => {
  const result = await run(file, args, options)
  if (result.code !== 0) throw new Error(`${file} ${args.join(" ")} exited ${result.code}:\n${result.stderr}\n${result.stdout}`)
  return result.stdout
}

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"))
const repoPackage = readJson(join(REPO_ROOT, "package.json"))
const denoConfig = readJson(join(REPO_ROOT, "deno.json"))
const LICENSE_TEXT = readFileSync(join(REPO_ROOT, "LICENSE"), "utf8")

/** Subpath → the source it compiles from, per package.json (`./dist/x/index.js` ↔ `./x/index.ts`). */
const npmSources = (): Record<string, string> =>
  Object.fromEntries(
    Object.entries(repoPackage.exports as Record<string, unknown>)
      .filter(([, target]) => typeof target === "object")
      .map(([subpath, target]) => [subpath, (target as { default: string }).default.replace(/^\.\/dist\//, "./").replace(/\.js$/, ".ts")]),
  )

// What must stay out of the core: the SQL and GCS adapters and the HTTP framework, with their libraries.
const SQL_GCS = /\/(dist\/)?adapters\/(sql|storage-gcs)\/|\/node_modules\/(kysely|mysql2|@google-cloud)\//
const HEAVY = new RegExp(`${SQL_GCS.source}|/node_modules/h3/|/(dist/)?adapters/http/`)

let work = ""
let app = "" // the npm consumer project
let denoApp = "" // the Deno consumer project
let packedFiles: ReadonlyArray<string> = []

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "pckgate-packaging-"))
  await succeed("npm", ["run", "-s", "build"], { cwd: REPO_ROOT })
  const packed = JSON.parse(await succeed("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], { cwd: REPO_ROOT }))
  packedFiles = packed[0].files.map((f: { path: string }) => f.path)
  const tarball = join(work, packed[0].filename)

  // The consumer depends on effect and the tarball. The repository's lockfile pins every transitive version, so
  // `--offline` installs them from the npm cache `npm ci` filled, never asking the registry.
  app = join(work, "app")
  mkdirSync(app)
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "pckgate-consumer", private: true, type: "module", dependencies: { effect: repoPackage.dependencies.effect } }))
  copyFileSync(join(REPO_ROOT, "package-lock.json"), join(app, "package-lock.json"))
  await succeed("npm", ["install", tarball, "--offline", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: app })
  for (const file of ["release-flow.mjs", "trace-loads.mjs"]) copyFileSync(join(CONSUMER_FILES, file), join(app, file))

  // The Deno consumer links the checkout (deno.json `links`) and shares its node_modules, so pckgate's sources and
  // the program load one copy of effect.
  denoApp = join(work, "deno-app")
  mkdirSync(denoApp)
  symlinkSync(join(REPO_ROOT, "node_modules"), join(denoApp, "node_modules"))
  writeFileSync(
    join(denoApp, "deno.json"),
    JSON.stringify({
      nodeModulesDir: "manual",
      links: [REPO_ROOT],
      imports: { pckgate: `jsr:${denoConfig.name}@^${denoConfig.version}`, effect: `npm:effect@${repoPackage.dependencies.effect}` },
    }),
  )
  copyFileSync(join(CONSUMER_FILES, "release-flow.mjs"), join(denoApp, "release-flow.mjs"))
}, 240_000)

afterAll(() => {
  if (work === "") return
  // The checkout's node_modules stays: remove the link itself before the directory that holds it.
  if (denoApp !== "") rmSync(join(denoApp, "node_modules"), { force: true })
  rmSync(work, { recursive: true, force: true })
})

/** Runs release-flow.mjs once per runtime and keeps its report. */
const once = <A>(f: () => Promise<A>) => {
  let result: Promise<A> | undefined
  return () => (result ??= f())
}
const nodeFlow = once(async () => JSON.parse(await succeed(NODE, ["--import", "./trace-loads.mjs", "release-flow.mjs"], { cwd: app })))
const denoFlow = once(async () =>
  JSON.parse(await succeed(DENO, ["run", "--no-check", "--cached-only", "--quiet", "-A", "release-flow.mjs"], { cwd: denoApp }))
)

/** `storageGcs`: what the GCS subpath gave — its layer where @google-cloud/storage is installed (the checkout, Deno). */
const expectCompleteFlow = (report: any, storageGcs = "function") => {
  expect(report).toMatchObject({
    finalizedStatus: "pending_review",
    notified: ["release_finalized"],
    approvedStatus: "approved",
    approvalOverride: "random bytes for a packaging test",
    activeVersion: "1.0.0",
    downloadSha256: report.declaredSha256,
    downloadedSha256: report.declaredSha256,
    storedKeys: [`releases/${report.gameId}/1.0.0/${report.declaredSha256}.pck`],
  })
  // Every other subpath loads too; the scanner's policy is JSON imported next to its code.
  expect(report.subpaths).toMatchObject({
    sql: "function",
    storageLocal: "function",
    storageGcs,
    identity: "function",
    scanner: "object",
    system: "object",
    root: "function",
  })
  expect(report.subpaths.scannerPolicyPatterns).toBeGreaterThan(0)
}

/**
 * Every package an integrator's install holds (`npm install pckgate effect`, without the optional peers), by name, at any
 * depth of node_modules: a new dependency of pckgate, or a new transitive one, changes this list. Review what it
 * brings (its size below, its install scripts, its licence) before adding it here.
 */
const INTEGRATOR_PACKAGES: ReadonlyArray<string> = [
  "@stablelib/base64", "busboy", "diff", "effect", "fast-sha256", "h3", "jose", "kysely", "pckgate", "rou3", "srvx",
  "standardwebhooks", "streamsearch",
]
/** pckgate's own dependencies, as the installed package.json declares them. */
const PCKGATE_DEPENDENCIES: ReadonlyArray<string> = ["busboy", "diff", "effect", "h3", "jose", "kysely", "srvx", "standardwebhooks"]
/**
 * The ceiling on that install's node_modules, in bytes: its size when the list above was last reviewed (61.4 MB, of
 * which effect is most) plus 25%, room for the patch and minor upgrades the version ranges allow (effect's builds grow
 * from release to release) but not for a new dependency's weight going unnoticed. Raise it with the list, saying why.
 */
const INTEGRATOR_INSTALL_MAX_BYTES = 77_000_000

/** Package names of every node_modules under `root` (scoped ones as `@scope/name`), nested ones included. */
const installedPackages = (root: string): Set<string> => {
  const names = new Set<string>()
  const visit = (modules: string) => {
    if (!existsSync(modules)) return
    for (const entry of readdirSync(modules, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith(".")) continue
      const scoped = entry.name.startsWith("@") ? readdirSync(join(modules, entry.name)).map((name) => `${entry.name}/${name}`) : [entry.name]
      for (const name of scoped) {
        names.add(name)
        visit(join(modules, name, "node_modules"))
      }
    }
  }
  visit(join(root, "node_modules"))
  return names
}

/** Bytes under a folder, as `du` would add them up (apparent sizes). */
const folderBytes = (dir: string): number => {
  let total = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size
  }
  return total
}

describe("npm package", () => {
  test("an integrator's install (domain and memory adapters) holds exactly the reviewed packages, neither mysql2 nor @google-cloud/storage, within its size ceiling", () => {
    const installedPackage = readJson(join(app, "node_modules/pckgate/package.json"))
    for (const optional of ["mysql2", "@google-cloud/storage"]) {
      expect(installedPackage.dependencies[optional], optional).toBeUndefined()
      expect(installedPackage.peerDependenciesMeta[optional], optional).toEqual({ optional: true })
      expect(existsSync(join(app, "node_modules", optional)), optional).toBe(false)
    }
    expect(installedPackage.dependencies["fflate"]).toBeUndefined()
    expect(LICENSE_TEXT.startsWith(`${repoPackage.license} License`)).toBe(true)
    expect(packedFiles).toContain("LICENSE")

    const packages = [...installedPackages(app)].sort()
    const bytes = folderBytes(join(app, "node_modules"))
    console.log(`integrator install: ${packages.length} packages, ${(bytes / 1_000_000).toFixed(1)} MB in node_modules ` +
      `(ceiling ${(INTEGRATOR_INSTALL_MAX_BYTES / 1_000_000).toFixed(1)} MB): ${packages.join(", ")}`)
    const update = "if intended, review the new packages and update INTEGRATOR_PACKAGES / PCKGATE_DEPENDENCIES in test/packaging/package.test.ts"
    expect(Object.keys(installedPackage.dependencies).sort(), `pckgate's dependencies changed: ${update}`).toEqual([...PCKGATE_DEPENDENCIES].sort())
    const expected = new Set(INTEGRATOR_PACKAGES)
    const changed = { added: packages.filter((name) => !expected.has(name)), removed: [...expected].filter((name) => !packages.includes(name)).sort() }
    expect(changed, `the integrator install's packages changed: ${update}`).toEqual({ added: [], removed: [] })
    expect(bytes, `the integrator install grew past its ceiling: find what grew; ${update} and INTEGRATOR_INSTALL_MAX_BYTES, saying why`)
      .toBeLessThanOrEqual(INTEGRATOR_INSTALL_MAX_BYTES)
  })

  test("the tarball holds the compiled JavaScript, declarations, the scanner's JSON policy and the bin; no sources or tests", () => {
    expect(packedFiles).toEqual(expect.arrayContaining([
      "package.json",
      "apps/cli/bin.cjs",
      "dist/apps/cli/main.js",
      "dist/domain/index.js",
      "dist/domain/index.d.ts",
      "dist/adapters/scanner/policy/default-policy.json",
    ]))
    const unexpected = packedFiles.filter((path) =>
      !(/^(package\.json|README\.md|LICEN[CS]E(\.\w+)?|apps\/cli\/bin\.cjs)$/i.test(path) || /^dist\/.*\.(js|d\.ts|json)$/.test(path) || /^dist\/adapters\/http\/pages\/assets\/[\w.-]+\.css$/.test(path))
    )
    expect(unexpected).toEqual([])
    // tsc rewrote every relative import to .js: Node does not strip types inside node_modules.
    const installed = join(app, "node_modules/pckgate")
    const tsImports = packedFiles
      .filter((path) => path.endsWith(".js"))
      .filter((path) => /(from\s*|import\s*\(\s*)["']\.{1,2}\/[^"']*\.ts["']/.test(readFileSync(join(installed, path), "utf8")))
    expect(tsImports).toEqual([])
  })

  test("every subpath in exports points at a JavaScript file and its declarations in the tarball", () => {
    const targets = Object.values(repoPackage.exports as Record<string, unknown>).flatMap((target) =>
      typeof target === "string" ? [target] : Object.values(target as Record<string, string>)
    )
    expect(targets.length).toBeGreaterThan(20)
    for (const target of targets) expect(packedFiles, target).toContain(target.replace(/^\.\//, ""))
  })

  test("on Node 24 the release flow runs through the installed package: create, upload-url, PUT, finalize, approve, download-url", async () => {
    const report = await nodeFlow()
    expect(report.runtime).toMatch(/^node 24\./)
    // The integrator installed neither optional peer: the GCS subpath names the package it needs.
    expectCompleteFlow(report, "needs @google-cloud/storage")
  })

  test("on Node 24 the domain, ports and memory adapters load neither h3 nor the SQL or GCS adapters until they are imported", async () => {
    const { coreModules, httpModules, allModules } = await nodeFlow()
    const own = (modules: ReadonlyArray<string>) => modules.filter((url) => url.includes("/node_modules/pckgate/dist/"))
    // The trace saw the core, so an empty match below is not an empty list.
    expect(own(coreModules).some((url: string) => url.endsWith("/dist/domain/index.js"))).toBe(true)
    expect(own(coreModules).some((url: string) => url.endsWith("/dist/adapters/memory/index.js"))).toBe(true)
    expect(coreModules.filter((url: string) => HEAVY.test(url))).toEqual([])
    // Importing pckgate/http loads h3 and still no SQL or GCS; importing the SQL subpath finally loads Kysely — but
    // neither optional peer: the MySQL driver loads only when a MySQL database is opened, and this integrator did not
    // install the GCS library (the GCS subpath then names it, see expectCompleteFlow).
    expect(httpModules.some((url: string) => url.includes("/node_modules/h3/"))).toBe(true)
    expect(httpModules.filter((url: string) => SQL_GCS.test(url))).toEqual([])
    expect(allModules.some((url: string) => url.includes("/node_modules/kysely/"))).toBe(true)
    for (const library of ["mysql2", "@google-cloud/storage"]) {
      expect(allModules.some((url: string) => url.includes(`/node_modules/${library}/`)), library).toBe(false)
    }
  })

  test("the examples of docs/embedding.md and the README's 'Embedding the domain' type-check against the package's declarations and run on Node 24", async () => {
    const markdown = readFileSync(join(REPO_ROOT, "docs/embedding.md"), "utf8")
    const examples = [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!)
    expect(examples.length).toBeGreaterThanOrEqual(2)
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8")
    const readmeSection = readme.slice(readme.indexOf("## Embedding the domain"), readme.indexOf("### As a package"))
    const readmeExample = /```ts\n([\s\S]*?)```/.exec(readmeSection)?.[1]
    expect(readmeExample, "the README's embedding example").toBeDefined()
    examples.push(readmeExample!)
    const files = examples.map((source, i) => {
      const file = `example-${i + 1}.ts`
      writeFileSync(join(app, file), source)
      return file
    })
    // No @types/node, and the declarations are checked too (skipLibCheck off): what a strict consumer sees.
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "esnext",
          module: "nodenext",
          lib: ["esnext", "dom"],
          types: [],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          verbatimModuleSyntax: true,
          erasableSyntaxOnly: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
        },
        files,
      }),
    )
    await succeed(TSC, ["-p", "tsconfig.json"], { cwd: app })

    const embedded = JSON.parse(await succeed(NODE, [files[0]!], { cwd: app }))
    expect(embedded.result).toMatchObject({ finalized: "pending_review", approved: "approved", published: [{ status: "published", activeVersion: "1.0.0" }] })
    // The custom ReviewNotifier replaced the memory one.
    expect(embedded.reviewQueue).toMatchObject([{ kind: "release_finalized", version: "1.0.0" }])
    expect(await succeed(NODE, [files[1]!], { cwd: app })).toMatch(/^201 /)
    const fromReadme = JSON.parse(await succeed(NODE, [files.at(-1)!], { cwd: app }))
    expect(fromReadme.result).toMatchObject({ finalized: "pending_review", approved: "approved", published: [{ status: "published" }] })
  })

  test("the pckgate bin runs the compiled CLI on Node 24", async () => {
    const bin = join(app, "node_modules/.bin/pckgate")
    // Through its shebang, with Node 24 first on PATH, as npm users run it.
    const help = await run(bin, ["--help"], { cwd: app, env: { PATH: `${join(NODE, "..")}:${process.env["PATH"]}` } })
    expect(help).toMatchObject({ code: 0, stdout: expect.stringContaining("usage: pckgate <command>") })
    const token = await succeed(NODE, [bin, "token", "--user", "alice", "--data-dir", join(work, "data")], { cwd: app })
    expect(token.trim()).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
  })

  test("the pckgate bin refuses Node older than 24 with a message naming the version, before loading the CLI", async () => {
    const bin = join(app, "node_modules/.bin/pckgate")
    // Node 24 pretending to be 18: the check reads process.versions, and nothing after it may run.
    const pretend = 'Object.defineProperty(process, "versions", { value: { ...process.versions, node: "18.20.4" } });' +
      'Object.defineProperty(process, "version", { value: "v18.20.4" }); require(process.argv[1])'
    const simulated = await run(NODE, ["-e", pretend, bin], { cwd: app })
    expect(simulated).toMatchObject({ code: 2, stdout: "" })
    expect(simulated.stderr).toMatch(/^pckgate needs Node\.js 24 or newer, but this is Node\.js v18\.20\.4 /)
    // And a real old Node, where the machine has one (Debian 12's is 20).
    const system = "/usr/bin/node"
    const systemMajor = existsSync(system) ? Number((await run(system, ["--version"], { cwd: app })).stdout.replace(/^v/, "").split(".")[0]) : 0
    if (systemMajor > 0 && systemMajor < 24) {
      const real = await run(system, [bin, "--help"], { cwd: app })
      expect(real).toMatchObject({ code: 2, stderr: expect.stringContaining(`but this is Node.js v${systemMajor}.`) })
    }
  })
})

describe("Deno", () => {
  test("deno.json exports the same subpaths as package.json, from the sources the JavaScript is compiled from", () => {
    expect(denoConfig.exports).toEqual(npmSources())
    for (const source of Object.values(denoConfig.exports as Record<string, string>)) expect(existsSync(join(REPO_ROOT, source)), source).toBe(true)
    // The npm dependencies the sources import, at the versions package.json asks for.
    // Optional peers (mysql2, @google-cloud/storage) too: the SQL and GCS adapters import them when used.
    const imported = { ...repoPackage.dependencies, ...repoPackage.peerDependencies }
    expect(denoConfig.imports).toEqual(Object.fromEntries(Object.entries(imported).map(([name, range]) => [name, `npm:${name}@${range}`])))
  })

  test("the same release flow runs on Deno against the .ts sources through deno.json", async () => {
    const report = await denoFlow()
    expect(report.runtime).toMatch(/^deno 2\./)
    expectCompleteFlow(report)
  })

  test("on Deno the module graph of domain, ports and memory holds neither h3 nor the SQL or GCS adapters", async () => {
    const graphOf = async (...subpaths: ReadonlyArray<string>) => {
      const entry = `graph-${subpaths.join("-").replaceAll("/", "_")}.mjs`
      writeFileSync(join(denoApp, entry), subpaths.map((s) => `import "${s}"\n`).join(""))
      const info = JSON.parse(await succeed(DENO, ["info", "--json", entry], { cwd: denoApp }))
      // Deno loads this whole static graph before running anything; list every module and every resolved import.
      const urls = new Set<string>()
      for (const module of info.modules) {
        urls.add(module.specifier)
        for (const dependency of module.dependencies ?? []) if (dependency.code?.specifier) urls.add(dependency.code.specifier)
      }
      return [...urls]
    }
    const core = await graphOf("pckgate/domain", "pckgate/ports", "pckgate/memory")
    expect(core.some((url) => url.endsWith("/domain/index.ts"))).toBe(true)
    expect(core.some((url) => url.endsWith("/adapters/memory/index.ts"))).toBe(true)
    expect(core.filter((url) => HEAVY.test(url))).toEqual([])
    // The same check sees h3 once pckgate/http is imported.
    expect((await graphOf("pckgate/http")).some((url) => url.includes("/node_modules/h3/"))).toBe(true)
  })
})
