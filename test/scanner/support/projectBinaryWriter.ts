// A project.binary (ECFG) as the exporter encodes it (core/project_settings.cpp, _save_settings_binary): a count,
// then each key (its bytes as given, so a test can spell one in bytes no editor writes) and its value, here a
// String (type 4 in Godot 3 and 4: a length, the UTF-8 bytes, padding to 4).
import { ByteBuilder, utf8 } from "./bytes.ts"

/** A String variant holding `bytes` exactly. */
export const stringVariant = (bytes: Uint8Array): Uint8Array => new ByteBuilder().u32(4).u32(bytes.length).bytes(bytes).zeros((4 - (bytes.length % 4)) % 4).build()

/** Settings as `[key bytes or text, value bytes or text]`, every value a String. */
export const writeProjectBinary = (settings: ReadonlyArray<readonly [Uint8Array | string, Uint8Array | string]>): Uint8Array => {
  const b = new ByteBuilder().ascii("ECFG").u32(settings.length)
  for (const [key, value] of settings) {
    const k = typeof key === "string" ? utf8(key) : key
    const v = stringVariant(typeof value === "string" ? utf8(value) : value)
    b.u32(k.length).bytes(k).u32(v.length).bytes(v)
  }
  return b.build()
}

/** `text` with the character at `index` spelled as a 3-byte overlong sequence (E0 …), which Godot 3 reads as that character. */
export const overlongAt = (text: string, index: number): Uint8Array => {
  const c = text.charCodeAt(index)
  return Uint8Array.from([...utf8(text.slice(0, index)), 0xe0, 0x80 | (c >> 6), 0x80 | (c & 0x3f), ...utf8(text.slice(index + 1))])
}
