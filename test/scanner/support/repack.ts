// Rewrites an exported Godot 3 pack with entries appended (a second copy of a path, which no export
// writes but the engine reads: core/io/file_access_pack.cpp keeps the last entry of a path), with the
// test's pack writer; the header keeps the exporter's engine version.
import { readFileSync, writeFileSync } from "node:fs"
import { utf8 } from "./bytes.ts"
import { withPackContents } from "./packEntries.ts"
import { writePack } from "./packWriter.ts"

export const appendToPack = async (packPath: string, extra: Readonly<Record<string, string>>): Promise<void> => {
  const file = readFileSync(packPath)
  const header = new DataView(file.buffer, file.byteOffset, file.byteLength)
  const format = header.getUint32(4, true)
  const engine = [header.getUint32(8, true), header.getUint32(12, true), header.getUint32(16, true)] as const
  const entries = await withPackContents(packPath, async (contents) =>
    Promise.all([...contents.entries].sort((a, b) => a.index - b.index).map(async (e) => ({ path: e.path, data: await contents.bytesOf(e) }))),
  )
  const appended = Object.entries(extra).map(([path, text]) => ({ path, data: utf8(text) }))
  writeFileSync(packPath, writePack({ format, engine, entries: [...entries, ...appended] }))
}
