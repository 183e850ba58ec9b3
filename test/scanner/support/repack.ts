// Rewrites an exported Godot 3 pack with entries appended (a second copy of a path, which no export
// writes but the engine reads: core/io/file_access_pack.cpp keeps the last entry of a path; a name in
// bytes no exporter writes) or binary resources patched, with the test's pack writer; the header keeps the
// exporter's engine version.
import { readFileSync, writeFileSync } from "node:fs"
import type { RawEntry, ResourcePatch } from "../fixtures/attackKit.ts"
import { utf8 } from "./bytes.ts"
import { withPackContents } from "./packEntries.ts"
import { writePack } from "./packWriter.ts"

export const appendToPack = async (packPath: string, extra: Readonly<Record<string, string>>, raw: ReadonlyArray<RawEntry> = [], patches: ReadonlyArray<ResourcePatch> = []): Promise<void> => {
  const file = readFileSync(packPath)
  const header = new DataView(file.buffer, file.byteOffset, file.byteLength)
  const format = header.getUint32(4, true)
  const engine = [header.getUint32(8, true), header.getUint32(12, true), header.getUint32(16, true)] as const
  const replaced = new Set(raw.filter((e) => e.replace === true).map((e) => new TextDecoder().decode(Uint8Array.from(e.name))))
  const entries = await withPackContents(packPath, async (contents) =>
    Promise.all(
      [...contents.entries]
        .filter((e) => !replaced.has(e.rawPath))
        .sort((a, b) => a.index - b.index)
        .map(async (e) => {
          const data = await contents.bytesOf(e)
          const patch = patches.find((p) => p.path === e.path)
          // A name stored without res:// stays so (the writer adds it to every other).
          return { path: e.path, data: patch === undefined ? data : patchResource(data, patch), ...(e.rawPath.startsWith("res://") ? {} : { rawPathBytes: utf8(e.rawPath) }) }
        }),
    ),
  )
  const appended = [
    ...Object.entries(extra).map(([path, text]) => ({ path, data: utf8(text) })),
    // Names no text editor writes (overlong UTF-8, no res://): stored byte for byte.
    ...raw.map((e) => ({ path: "raw", data: e.data === undefined ? utf8(e.text) : Uint8Array.from(e.data), rawPathBytes: Uint8Array.from(e.name) })),
  ]
  writeFileSync(packPath, writePack({ format, engine, entries: [...entries, ...appended] }))
}

const indexOf = (bytes: Uint8Array, find: ReadonlyArray<number>, from = 0): number => {
  for (let i = from; i + find.length <= bytes.length; i++) if (find.every((b, k) => bytes[i + k] === b)) return i
  return -1
}

/**
 * A Godot 3 binary resource (uncompressed RSRC) with `find` replaced by `replace`; each internal resource
 * (`local://…` in the table: u32 length, the NUL-terminated name, u64 offset) that starts after the patch
 * moves by the difference in length.
 */
const patchResource = (data: Uint8Array, patch: ResourcePatch): Uint8Array => {
  const at = indexOf(data, patch.find)
  if (at < 0) throw new Error(`${patch.path}: the bytes to patch are not in the exported resource`)
  const delta = patch.replace.length - patch.find.length
  const out = new Uint8Array(data.length + delta)
  out.set(data.subarray(0, at))
  out.set(patch.replace, at)
  out.set(data.subarray(at + patch.find.length), at + patch.replace.length)
  const view = new DataView(out.buffer)
  const local = [..."local://"].map((c) => c.charCodeAt(0))
  for (let i = indexOf(out, local); i >= 0 && i < at; i = indexOf(out, local, i + 1)) {
    const offsetAt = out.indexOf(0, i) + 1
    const offset = Number(view.getBigUint64(offsetAt, true))
    if (offset > at && offset < data.length) view.setBigUint64(offsetAt, BigInt(offset + delta), true)
  }
  return out
}
