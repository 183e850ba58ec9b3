import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, test } from "vitest"
import { REPO_ROOT } from "./support/server.ts"

// domain/ and ports/ are the portable core: they import only each other and `effect`, never a runtime or an adapter.

const sourcesUnder = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? sourcesUnder(path) : entry.name.endsWith(".ts") ? [path] : []
  })

const importsOf = (source: string): Array<string> =>
  [...source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1] ?? m[2]!)

describe("purity of domain/ and ports/", () => {
  const files = ["domain", "ports"].flatMap((d) => sourcesUnder(join(REPO_ROOT, d)))

  test("the core has source files to check", () => {
    expect(files.length).toBeGreaterThan(20)
  })

  test.each(files.map((f) => [relative(REPO_ROOT, f), f]))("%s imports only effect and the core", (name, file) => {
    const source = readFileSync(file, "utf8")
    for (const specifier of importsOf(source)) {
      if (specifier === "effect" || specifier.startsWith("effect/")) continue
      expect(specifier, `${name} imports '${specifier}'`).toMatch(/^\.\.?\//)
      const target = relative(REPO_ROOT, join(file, "..", specifier))
      expect(target, `${name} reaches outside the core: ${specifier}`).toMatch(/^(domain|ports)\//)
    }
    expect(source, `${name} reads the clock or randomness`).not.toMatch(/Date\.now\(|Math\.random\(|new Date\(\)|crypto\.getRandomValues|performance\.now/)
    expect(source, `${name} uses a Node global`).not.toMatch(/\b(Buffer|process|__dirname|require)\b\s*[.(]/)
  })
})

describe("runtime", () => {
  test("runs on the runtime this run expects: Deno 2 when `npm test` asks for it, otherwise Node 24", () => {
    const deno = (globalThis as { Deno?: { version?: { deno?: string } } }).Deno?.version?.deno
    if (process.env["PCKGATE_EXPECT_DENO"] === "1") expect(deno).toMatch(/^2\./)
    else expect([deno, process.versions.node.split(".")[0]]).toEqual([undefined, "24"])
  })
})
