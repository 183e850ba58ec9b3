// The command line as tools creators know behave: --help and -h everywhere (stdout, exit 0), --version, and an unknown
// command or option refused with the usage on stderr and exit 2.
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, test } from "vitest"
import { type CommandName, commands, isCommandName } from "../../apps/cli/commands.ts"
import type { CliIo } from "../../apps/cli/io.ts"
import { runCli } from "../support/cli.ts"
import { REPO_ROOT } from "../support/server.ts"

const inProcess = async (name: CommandName, argv: ReadonlyArray<string>) => {
  let stdout = ""
  let stderr = ""
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: {}, stderrIsTty: false }
  const code = await (await commands[name]()).run(argv, io)
  return { code, stdout, stderr }
}

const names = Object.keys(commands).filter(isCommandName)

describe("every command", () => {
  test.each(names)("%s --help and -h print its usage on stdout and exit 0", async (name) => {
    for (const flag of ["--help", "-h"]) {
      const run = await inProcess(name, [flag])
      expect([run.code, run.stderr], flag).toEqual([0, ""])
      expect(run.stdout, flag).toMatch(new RegExp(`^usage: ${name} `))
    }
    // Wherever it stands, and whatever else is on the line.
    expect((await inProcess(name, ["some-argument", "-h"])).code).toBe(0)
  })

  test.each(names)("%s refuses an unknown option with the usage on stderr, exit 2", async (name) => {
    const run = await inProcess(name, ["--no-such-option"])
    expect([run.code, run.stdout]).toEqual([2, ""])
    expect(run.stderr).toMatch(new RegExp(`^${name}: unknown option --no-such-option\\nusage: ${name} `))
  })
})

describe("pckgate itself", () => {
  test("--version prints the package's version", async () => {
    const version = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).version
    expect(await runCli(["--version"])).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: "" })
  })

  test("--help, -h and help list every command on stdout; help <command> is that command's --help", async () => {
    for (const flag of ["--help", "-h", "help"]) {
      const run = await runCli([flag])
      expect([run.code, run.stderr], flag).toEqual([0, ""])
      expect(run.stdout).toMatch(/^usage: pckgate <command> \[options\]/)
      for (const name of names) expect(run.stdout).toMatch(new RegExp(`^  ${name}\\b`, "m"))
    }
    const release = await runCli(["help", "release"])
    expect([release.code, release.stdout]).toEqual([0, expect.stringMatching(/^usage: release <file\.pck>/)])
  })

  test("an unknown command or option, or none, exits 2 with the usage on stderr and nothing on stdout", async () => {
    for (const [argv, problem] of [[["publish"], "unknown command 'publish'"], [["--verbose"], "unknown option --verbose"], [[], "missing <command>"]] as const) {
      const run = await runCli(argv)
      expect([run.code, run.stdout], argv.join(" ")).toEqual([2, ""])
      expect(run.stderr).toMatch(new RegExp(`^pckgate: ${problem}\\nusage: pckgate <command>`))
    }
  })

  test("a service command's usage error with --json still exits 2 with the usage on stderr", async () => {
    const run = await runCli(["status", "a", "b", "--json"])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^status: unexpected argument b\nusage: status /)
  })
})
