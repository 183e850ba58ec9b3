// `check-preset <export_presets.cfg> [--json]`: the export settings of spec §1, with the line to change for each problem.
import { readFile, stat } from "node:fs/promises"
import { dirname, join, resolve } from "node:path"
import { checkPresetText, TEMPLATE_FOLDERS } from "../../../adapters/scanner/preset/checkPreset.ts"
import type { Command } from "../commands.ts"
import { type CliIo, EXIT } from "../io.ts"

const USAGE = `usage: check-preset <export_presets.cfg> [--json]
  Checks the "Summer Game PCK" preset: export_filter, include_filter (manifest.json), exclude_filter
  (sdk/*, and core/*, server/*, client/* when those folders exist next to the file), script_export_mode=0.
exit: 0 preset is right, 1 problems found, 2 cannot check`

const isDirectory = (path: string): Promise<boolean> =>
  stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  )

export const command: Command = {
  summary: "validate export_presets.cfg against the export requirements (exit 0 ok, 1 problems, 2 cannot check)",
  run: async (argv, io: CliIo) => {
    const json = argv.includes("--json")
    const rest = argv.filter((a) => a !== "--json")
    const unknown = rest.find((a) => a.startsWith("--"))
    if (rest.length !== 1 || unknown !== undefined) {
      io.stderr(`check-preset: ${unknown !== undefined ? `unknown option ${unknown}` : rest.length === 0 ? "missing <export_presets.cfg>" : `unexpected argument ${rest[1]}`}\n${USAGE}\n`)
      return EXIT.cannotRun
    }
    const file = rest[0] as string
    const path = resolve(file)
    let text: string
    try {
      text = await readFile(path, "utf8")
    } catch (error) {
      io.stderr(`check-preset: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}\n`)
      return EXIT.cannotRun
    }
    const folders: Array<string> = []
    for (const folder of TEMPLATE_FOLDERS) if (await isDirectory(join(dirname(path), folder))) folders.push(folder)
    const problems = checkPresetText(text, folders)
    if (json) io.stdout(`${JSON.stringify({ ok: problems.length === 0, problems }, null, 2)}\n`)
    else {
      const lines = problems.map((p) => `${file}${p.line === null ? "" : `:${p.line}`} ${p.rule} ${p.message} Write: ${p.fix}`)
      lines.push(problems.length === 0 ? `${file}: the "Summer Game PCK" preset meets the export requirements.` : `${problems.length} problem(s).`)
      io.stdout(`${lines.join("\n")}\n`)
    }
    return problems.length === 0 ? EXIT.ok : EXIT.rejectedOrFindings
  },
}
