// Rewrites an exported Godot 3 pack with entries appended (a second copy of a path, which no export
// writes but the engine reads: core/io/file_access_pack.cpp keeps the last entry of a path; a name in
// bytes no exporter writes) or binary resources patched, with the test's pack writer; the header keeps the
// exporter's engine version.
import { readFileSync, writeFileSync } from "node:fs"
import type { RawEntry, ResourcePatch } from "../fixtures/attackKit.ts"
import { utf8 } from "./bytes.ts"
import { withPackContents } from "./packEntries.ts"
import { writePack } from "./packWriter.ts"
import { variant3, writeProjectBinaryVariants } from "./projectBinaryWriter.ts"

/** An exported pack's format and engine version (its header), to write a pack of the same kind. */
const headerOf = (packPath: string): { readonly format: number; readonly engine: readonly [number, number, number] } => {
  const file = readFileSync(packPath)
  const header = new DataView(file.buffer, file.byteOffset, file.byteLength)
  return { format: header.getUint32(4, true), engine: [header.getUint32(8, true), header.getUint32(12, true), header.getUint32(16, true)] }
}

export const appendToPack = async (packPath: string, extra: Readonly<Record<string, string>>, raw: ReadonlyArray<RawEntry> = [], patches: ReadonlyArray<ResourcePatch> = []): Promise<void> => {
  const { format, engine } = headerOf(packPath)
  const replaced = new Set(raw.flatMap((e) => [...(e.replace === true ? [new TextDecoder().decode(Uint8Array.from(e.name))] : []), ...(e.replaces === undefined ? [] : [e.replaces])]))
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
    ...raw.map((e) => {
      const data = e.data === undefined ? utf8(e.text) : Uint8Array.from(e.data)
      return { path: "raw", data, rawPathBytes: Uint8Array.from(e.name), ...(e.offset === undefined ? {} : { offset: e.offset, size: data.length }) }
    }),
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

/** project.binary's settings records (ECFG: a count, then each key and value with their lengths) by key, in order. */
const settingsRecords = (bytes: Uint8Array): ReadonlyArray<readonly [string, Uint8Array]> => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const records: Array<readonly [string, Uint8Array]> = []
  let at = 8
  for (let i = 0; i < view.getUint32(4, true); i++) {
    const keyLength = view.getUint32(at, true)
    const key = new TextDecoder().decode(bytes.subarray(at + 4, at + 4 + keyLength))
    at += 4 + keyLength
    const valueLength = view.getUint32(at, true)
    records.push([key, bytes.subarray(at + 4, at + 4 + valueLength)])
    at += 4 + valueLength
  }
  return records
}

/** A member of a bundle: its folder, its settings as project.binary keys, its registered classes (`[name, base, path]`). */
export interface PackMember {
  readonly folder: string
  readonly settings: ReadonlyArray<string>
  readonly classes: ReadonlyArray<readonly [string, string, string]>
}

const CLASS_KEYS = new Set(["_global_script_classes", "_global_script_class_icons"])

/**
 * An exported Godot 3 pack of several members (fixtures/projectBundles.ts) as if only `member` had been exported:
 * without the entries under the other members' folders (res://<folder>/…), and with a project.binary holding only
 * the member's settings, the bundle's `shared` ones (its entry scene) and the member's own class registrations, encoded as the
 * exporter encodes them.
 */
export const packOfMember = async (packPath: string, member: PackMember, others: ReadonlyArray<string>, shared: ReadonlyArray<string>): Promise<Uint8Array> => {
  const { format, engine } = headerOf(packPath)
  const keep = new Set([...member.settings, ...shared])
  const classes: ReadonlyArray<readonly [string, Uint8Array]> =
    member.classes.length === 0
      ? []
      : [
          ["_global_script_classes", variant3(member.classes.map(([name, base, path]) => ({ dict: [["base", base], ["class", name], ["language", "GDScript"], ["path", path]] as const })))],
          ["_global_script_class_icons", variant3({ dict: member.classes.map(([name]) => [name, ""] as const) })],
        ]
  const settings = (bytes: Uint8Array): Uint8Array => {
    const records = settingsRecords(bytes)
    for (const key of keep) if (!records.some(([k]) => k === key)) throw new Error(`${packPath}: project.binary lacks the member's setting ${key}`)
    return writeProjectBinaryVariants([...classes, ...records.filter(([key]) => keep.has(key) && !CLASS_KEYS.has(key))])
  }
  const entries = await withPackContents(packPath, async (contents) =>
    Promise.all(
      [...contents.entries]
        .filter((e) => !others.some((folder) => e.path.startsWith(`res://${folder}/`)))
        .sort((a, b) => a.index - b.index)
        .map(async (e) => {
          const data = await contents.bytesOf(e)
          return { path: e.path, data: e.path === "res://project.binary" ? settings(data) : data }
        }),
    ),
  )
  return writePack({ format, engine, entries })
}
