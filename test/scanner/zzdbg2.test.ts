import { it } from "vitest"
import { readFileSync } from "node:fs"
import { scanBytes } from "./support/scan.ts"

it("dbg2", async () => {
  const report = await scanBytes(new Uint8Array(readFileSync(process.env.DBG_PCK ?? "/tmp/s26/fpa.pck")))
  for (const f of report.findings) console.log(`${f.file}:${f.line} ${f.severity} ${f.message.slice(0, 300)}`)
})
