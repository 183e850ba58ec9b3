// The temporary files of writes in progress, under `<root>/incoming/`. Each name carries its owner (host and process
// id), so a sweep can tell a crashed process's partial file from a live write of another process on the same disk: a
// file is removed when no live write of this process owns it and its owner is provably gone (this process, or a
// process of this host that no longer runs), and any other file once it is older than the grace period.
import { randomUUID } from "node:crypto"
import { readdir, stat, unlink } from "node:fs/promises"
import { hostname } from "node:os"
import { join } from "node:path"
import type { AbandonedWrites } from "../../ports/ObjectStorage.ts"

const HOST = hostname().replace(/[^A-Za-z0-9-]/g, "-").slice(0, 63) || "host"
const OWNED_NAME = /^([A-Za-z0-9-]+)~(\d+)~[0-9a-f-]{36}\.part$/

const errno = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code

const processRuns = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, under another user.
    return errno(error) !== "ESRCH"
  }
}

/** True when the file's owner is provably gone; false when it may still be writing (or the name says nothing). */
const ownerGone = (name: string): boolean => {
  const owned = OWNED_NAME.exec(name)
  if (owned === null || owned[1] !== HOST) return false
  const pid = Number(owned[2])
  return pid === process.pid || !processRuns(pid)
}

export interface TemporaryFiles {
  /** A fresh path for one write, owned by this process until `release`. */
  claim(): string
  release(path: string): void
  /** Removes abandoned files (see above); files this process is writing are never touched. */
  sweep(now: Date, graceSeconds: number): Promise<AbandonedWrites>
}

export const makeTemporaryFiles = (directory: string): TemporaryFiles => {
  const live = new Set<string>()
  return {
    claim() {
      const path = join(directory, `${HOST}~${process.pid}~${randomUUID()}.part`)
      live.add(path)
      return path
    },
    release(path) {
      live.delete(path)
    },
    async sweep(now, graceSeconds) {
      let names: Array<string>
      try {
        names = await readdir(directory)
      } catch (error) {
        if (errno(error) === "ENOENT") return { removedFiles: 0, removedBytes: 0 }
        throw error
      }
      let removedFiles = 0
      let removedBytes = 0
      for (const name of names) {
        const path = join(directory, name)
        if (!name.endsWith(".part") || live.has(path)) continue
        const info = await stat(path).catch(() => null)
        if (info === null || !info.isFile()) continue
        const stale = info.mtime.getTime() <= now.getTime() - graceSeconds * 1000
        if (stale || ownerGone(name)) {
          try {
            await unlink(path)
            removedFiles++
            removedBytes += info.size
          } catch (error) {
            if (errno(error) !== "ENOENT") throw error
          }
        }
      }
      return { removedFiles, removedBytes }
    },
  }
}
