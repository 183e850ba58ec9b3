import { execFileSync, spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"

export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Wall time of a command in seconds (the command's own output discarded). */
export const timeCommand = (command: string, args: ReadonlyArray<string>): number => {
  const started = performance.now()
  const result = spawnSync(command, args, { stdio: ["ignore", "ignore", "pipe"] })
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr}`)
  return (performance.now() - started) / 1000
}

export const timeAsync = async (run: () => Promise<unknown>): Promise<number> => {
  const started = performance.now()
  await run()
  return (performance.now() - started) / 1000
}

const statusField = (pid: number, field: "VmRSS" | "VmHWM"): number => {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return match === null ? 0 : Number(match[1]) * 1024
}

/** Resident memory of a process in bytes (Linux). */
export const rssOf = (pid: number): number => statusField(pid, "VmRSS")

/** Samples a process's RSS every 20 ms while `run` goes on; returns the peak seen. */
export const peakRssDuring = async <A>(pid: number, run: () => Promise<A>): Promise<{ result: A; peak: number }> => {
  let peak = rssOf(pid)
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20)
  try {
    const result = await run()
    // The kernel's high-water mark catches peaks between samples (it covers the whole life of the process).
    return { result, peak: Math.max(peak, rssOf(pid), statusField(pid, "VmHWM")) }
  } finally {
    clearInterval(timer)
  }
}

/** CPU time a process has used so far (user + system, all its threads), in seconds (Linux; clock ticks of 10 ms). */
export const cpuSecondsOf = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
  // Fields after the command name, which is in parentheses and may contain spaces: utime and stime are 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[11]) + Number(fields[12])) / 100
}

export const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`
export const ratio = (value: number, baseline: number) => `${(value / baseline).toFixed(2)}×`

export const requireTool = (tool: string) => {
  try {
    execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" })
  } catch {
    throw new Error(`the benchmark needs '${tool}' on PATH`)
  }
}
