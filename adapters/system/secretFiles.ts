import { randomBytes } from "node:crypto"
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises"
import { dirname } from "node:path"

/**
 * Reads `path`, or creates it with `create()`'s content when absent. The file appears atomically (written aside, then
 * hard-linked into place), so two processes starting together end up reading the same content. Mode 0600.
 */
export const loadOrCreateFile = async (path: string, create: () => Promise<string>): Promise<string> => {
  try {
    return await readFile(path, "utf8")
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error
  }
  await mkdir(dirname(path), { recursive: true, mode: 0o700 })
  const aside = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`
  await writeFile(aside, await create(), { mode: 0o600, flush: true })
  try {
    await link(aside, path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
  } finally {
    await unlink(aside).catch(() => undefined)
  }
  return readFile(path, "utf8")
}

/** A secret from the environment (at least 32 characters), or a random one kept in DATA_DIR. */
export const loadSecret = async (fromEnv: string | undefined, name: string, path: string): Promise<Uint8Array<ArrayBuffer>> => {
  if (fromEnv !== undefined && fromEnv !== "") {
    if (fromEnv.length < 32) throw new Error(`${name} must be at least 32 characters long`)
    return new TextEncoder().encode(fromEnv)
  }
  const hex = await loadOrCreateFile(path, async () => randomBytes(32).toString("hex"))
  return new TextEncoder().encode(hex.trim())
}
