// Rewrites an exported Godot 3 pack with entries appended (a second copy of a path, which no export
// writes but the engine reads: core/io/file_access_pack.cpp keeps the last entry of a path; a name in
// bytes no exporter writes), with the test's pack writer; the header keeps the exporter's engine version.
import { readFileSync, writeFileSync } from "node:fs"
import { utf8 } from "./bytes.ts"
import { withPackContents } from "./packEntries.ts"
import { writePack } from "./packWriter.ts"

export const appendToPack = async (packPath: string, extra: Readonly<Record<string, string>>, raw: ReadonlyArray<{ readonly name: ReadonlyArray<number>; readonly text: string }> = []): Promise<void> => {
  const file = readFileSync(packPath)
  const header = new DataView(file.buffer, file.byteOffset, file.byteLength)
  const format = header.getUint32(4, true)
  const engine = [header.getUint32(8, true), header.getUint32(12, true), header.getUint32(16, true)] as const
  const entries = await withPackContents(packPath, async (contents) =>
    Promise.all([...contents.entries].sort((a, b) => a.index - b.index).map(async (e) => ({ path: e.path, data: await contents.bytesOf(e) }))),
  )
  const appended = [
    ...Object.entries(extra).map(([path, text]) => ({ path, data: utf8(text) })),
    // Names no text editor writes (overlong UTF-8): stored byte for byte.
    ...raw.map((e) => ({ path: "raw", data: utf8(e.text), rawPathBytes: Uint8Array.from(e.name) })),
  ]
  writeFileSync(packPath, writePack({ format, engine, entries: [...entries, ...appended] }))
}
