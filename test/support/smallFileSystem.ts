// A small real file system for disk-full tests: a loop-mounted ext4 image (block device semantics, O_DIRECT works) or
// a tmpfs, created by the test and removed after it. Mounting needs root; elsewhere `canMount` says why not.
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync, statfsSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export interface SmallFileSystem {
  readonly path: string
  /** Bytes an unprivileged writer can still use. */
  readonly freeBytes: () => number
  readonly unmount: () => void
}

/** Null when this process can mount file systems; otherwise the reason, for the test's printed skip. */
export const whyCannotMount = (): string | null =>
  process.getuid?.() === 0 ? null : "mounting a small file system needs root (CI runs as root)"

const run = (command: string, args: ReadonlyArray<string>) => execFileSync(command, args, { stdio: ["ignore", "pipe", "pipe"] })

export const mountSmallFileSystem = (kind: "ext4" | "tmpfs", sizeMiB: number): SmallFileSystem => {
  const base = mkdtempSync(join(tmpdir(), `pckgate-${kind}-`))
  const path = join(base, "mnt")
  run("mkdir", ["-p", path])
  let image: string | null = null
  if (kind === "tmpfs") {
    run("mount", ["-t", "tmpfs", "-o", `size=${sizeMiB}m,mode=0755`, "tmpfs", path])
  } else {
    image = join(base, "fs.img")
    run("truncate", ["-s", `${sizeMiB}M`, image])
    // No journal and no reserved blocks: the whole size is usable, so "full" is reached exactly by the test's writes.
    run("mkfs.ext4", ["-q", "-F", "-O", "^has_journal", "-m", "0", image])
    run("mount", ["-o", "loop", image, path])
  }
  return {
    path,
    freeBytes: () => {
      const stats = statfsSync(path)
      return stats.bavail * stats.bsize
    },
    unmount: () => {
      try {
        run("umount", [path])
      } catch {
        run("umount", ["-l", path])
      }
      rmSync(base, { recursive: true, force: true })
    },
  }
}
