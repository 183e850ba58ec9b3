// `check-preset <export_presets.cfg> [--json]`: the export settings of spec §1, with the line to change for each problem.
import { readFile, stat } from "node:fs/promises"
import { dirname, join } from "node:path"
import { checkPresetText, TEMPLATE_FOLDERS } from "../../../adapters/scanner/preset/checkPreset.ts"
import { usageError, withCommandLine } from "../args.ts"
import type { Command } from "../commands.ts"
import { EXIT } from "../exitCodes.ts"
import type { CliIo } from "../io.ts"
import { userPath } from "../userPath.ts"

const LINE = {
  name: "check-preset",
  usage: `usage: check-preset <export_presets.cfg> [--json]
  Checks the "Summer Game PCK" preset: export_filter, include_filter (manifest.json), exclude_filter
  (sdk/*, and core/*, server/*, client/* when those folders exist next to the file), script_export_mode=0.
  --json       print {ok, problems} as JSON
  -h, --help   print this help
exit: 0 preset is right, 1 problems found, 2 cannot check`,
  options: { json: { type: "boolean" } },
} as const

const isDirectory = (path: string): Promise<boolean> =>
  stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  )

export const command: Command = {
  run: (argv, io: CliIo) =>
    withCommandLine(LINE, argv, io, async ({ values, positionals }) => {
      const [file, extra] = positionals
      if (file === undefined || extra !== undefined) throw usageError(LINE, file === undefined ? "missing <export_presets.cfg>" : `unexpected argument ${extra}`)
      const path = userPath(io, file)
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
      if (values.json === true) io.stdout(`${JSON.stringify({ ok: problems.length === 0, problems }, null, 2)}\n`)
      else {
        const lines = problems.map((p) => `${file}${p.line === null ? "" : `:${p.line}`} ${p.rule} ${p.message} Write: ${p.fix}`)
        lines.push(problems.length === 0 ? `${file}: the "Summer Game PCK" preset meets the export requirements.` : `${problems.length} problem(s).`)
        io.stdout(`${lines.join("\n")}\n`)
      }
      return problems.length === 0 ? EXIT.ok : EXIT.rejectedOrFindings
    }),
}
