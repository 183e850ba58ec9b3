// Installs the Debian packages the test run needs, once per run, when running as root.
// Anywhere else a missing package is a failure that names it: a test that cannot run fails, it is never skipped.
import { spawnSync } from "node:child_process"

export interface DebianRequirement {
  /** Executable whose presence proves the package is installed (absolute path or a name on PATH). */
  readonly binary: string
  readonly pkg: string
}

const onPath = (binary: string): boolean =>
  spawnSync("sh", ["-c", `command -v "$0" >/dev/null 2>&1`, binary]).status === 0

const run = (command: string, args: ReadonlyArray<string>): void => {
  const result = spawnSync(command, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    encoding: "utf8",
  })
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed (exit ${result.status}):\n${result.stderr.slice(-4000)}`)
  }
}

export const ensureDebianPackages = (requirements: ReadonlyArray<DebianRequirement>): void => {
  const missing = requirements.filter((r) => !onPath(r.binary))
  if (missing.length === 0) return
  const pkgs = [...new Set(missing.map((r) => r.pkg))]
  if (process.getuid?.() !== 0) {
    throw new Error(
      `The tests need the Debian package(s) ${pkgs.join(", ")} (missing: ${missing.map((r) => r.binary).join(", ")}). ` +
        `Install them with: sudo apt-get install -y --no-install-recommends ${pkgs.join(" ")} — or run the tests as root and the setup installs them.`,
    )
  }
  process.stderr.write(`[test setup] installing Debian packages: ${pkgs.join(" ")}\n`)
  run("apt-get", ["update"])
  run("apt-get", ["install", "-y", "--no-install-recommends", ...pkgs])
  const still = missing.filter((r) => !onPath(r.binary))
  if (still.length > 0) {
    throw new Error(`apt-get installed ${pkgs.join(" ")} but ${still.map((r) => r.binary).join(", ")} is still missing`)
  }
}
