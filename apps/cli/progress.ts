// A progress bar on stderr, drawn only when stderr is a terminal (CI logs stay clean).
import type { CliIo } from "./io.ts"

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1)

export const progressBar = (io: CliIo, label: string, total: number) => {
  const started = performance.now()
  let lastDraw = 0
  const draw = (done: number, final = false) => {
    if (!io.stderrIsTty) return
    const now = performance.now()
    if (!final && now - lastDraw < 100) return
    lastDraw = now
    const fraction = total > 0 ? Math.min(1, done / total) : 1
    const width = 30
    const filled = Math.round(fraction * width)
    const rate = done / Math.max(0.001, (now - started) / 1000)
    io.stderr(`\r${label} [${"#".repeat(filled)}${" ".repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ${mib(done)}/${mib(total)} MiB ${mib(rate)} MiB/s${final ? "\n" : ""}`)
  }
  return { update: (done: number) => draw(done), finish: (done: number) => draw(done, true) }
}
