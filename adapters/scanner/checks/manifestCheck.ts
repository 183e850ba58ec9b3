import { decodeManifest } from "../../../domain/manifest/decodeManifest.ts"
import type { Manifest } from "../../../domain/manifest/Manifest.ts"
import { MANIFEST_FIELD_RULES } from "../../../domain/manifest/manifestRules.ts"
import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import type { ScanExpectations } from "../../../ports/PackScanner.ts"
import { finding } from "../findings.ts"
import { decodeUtf8 } from "../io/ByteCursor.ts"
import type { PackContents } from "../PackContents.ts"

export const MANIFEST_PATH = "res://manifest.json"
const MAX_MANIFEST_BYTES = 1024 * 1024

export interface ManifestCheck {
  readonly findings: ReadonlyArray<Finding>
  readonly manifest: Manifest | null
}

/** 1-based line and column of a 0-based offset in `text`. */
const positionOf = (text: string, offset: number): { line: number; column: number } => {
  const before = text.slice(0, offset)
  const line = before.split("\n").length
  return { line, column: offset - before.lastIndexOf("\n") }
}

/** Where `"field":` first appears, to point a finding at it; null when the key is absent. */
const keyPosition = (text: string, field: string): { line: number; column: number } | null => {
  const m = new RegExp(`"${field}"\\s*:`).exec(text)
  return m === null ? null : positionOf(text, m.index)
}

/** Structural equality of parsed JSON values (key order does not matter). */
export const jsonEqual = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]))
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
}

/** Check 1: `manifest.json` at the pack root, valid, and current for this upload. */
export const checkManifest = async (contents: PackContents, expectations: ScanExpectations): Promise<ManifestCheck> => {
  const entry = contents.get(MANIFEST_PATH)
  const at = (input: Omit<Parameters<typeof finding>[0], "file">): Finding => finding({ file: MANIFEST_PATH, ...input })
  if (entry === undefined || !entry.readable) {
    return {
      manifest: null,
      findings: [
        at({
          rule: RULE.manifestMissing,
          pattern: "manifest.json",
          message: `No readable manifest.json at the pack root. Put manifest.json next to project.godot and list it in include_filter of the "Summer Game PCK" preset (include_filter="manifest.json"), then export again.`,
        }),
      ],
    }
  }
  if (entry.size > MAX_MANIFEST_BYTES) {
    return { manifest: null, findings: [at({ rule: RULE.manifestInvalidJson, pattern: "manifest.json", message: `manifest.json is ${entry.size} bytes; a manifest is at most ${MAX_MANIFEST_BYTES} bytes.` })] }
  }
  const text = decodeUtf8(await contents.bytesOf(entry)).replace(/^\ufeff/, "").replace(/\0+$/, "")
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    const offset = /position (\d+)/.exec(reason)?.[1]
    const position = offset === undefined ? null : positionOf(text, Number(offset))
    return {
      manifest: null,
      findings: [
        at({ rule: RULE.manifestInvalidJson, pattern: "manifest.json", line: position?.line ?? null, column: position?.column ?? null, message: `manifest.json is not valid JSON (${reason}).` }),
      ],
    }
  }
  const findings: Array<Finding> = []
  const decoded = decodeManifest(json)
  if (decoded._tag === "Invalid") {
    for (const field of decoded.fields) {
      const position = keyPosition(text, field)
      findings.push(
        at({
          rule: RULE.manifestInvalidField,
          pattern: field,
          line: position?.line ?? null,
          column: position?.column ?? null,
          message: `manifest.json field "${field}" is ${position === null ? "missing" : "invalid"}; it must be ${MANIFEST_FIELD_RULES[field]}.`,
        }),
      )
    }
  }
  findings.push(...currentness(text, json, expectations))
  return { findings, manifest: decoded._tag === "Valid" ? decoded.manifest : null }
}

const currentness = (text: string, json: unknown, expectations: ScanExpectations): ReadonlyArray<Finding> => {
  if (expectations.path === "multipart" && expectations.submittedManifest !== undefined) {
    if (jsonEqual(json, expectations.submittedManifest)) return []
    const submitted = expectations.submittedManifest
    const keys = [
      ...new Set([
        ...(isObject(json) ? Object.keys(json) : []),
        ...(isObject(submitted) ? Object.keys(submitted) : []),
      ]),
    ]
    const differing = isObject(json) && isObject(submitted) ? keys.filter((k) => !jsonEqual(json[k], submitted[k])) : []
    const position = differing[0] === undefined ? null : keyPosition(text, differing[0])
    return [
      finding({
        rule: RULE.manifestNotCurrent,
        file: MANIFEST_PATH,
        pattern: "submitted manifest",
        line: position?.line ?? null,
        column: position?.column ?? null,
        message: `manifest.json inside the pack differs from the manifest submitted with it${differing.length > 0 ? ` (fields: ${differing.join(", ")})` : ""}. Export the pack again after the last manifest change, and submit that same manifest.`,
      }),
    ]
  }
  if (expectations.path === "release_api" && expectations.declaredVersion !== undefined) {
    const version = isObject(json) ? json.version : undefined
    if (version === expectations.declaredVersion) return []
    const position = keyPosition(text, "version")
    return [
      finding({
        rule: RULE.manifestNotCurrent,
        file: MANIFEST_PATH,
        pattern: "declared version",
        line: position?.line ?? null,
        column: position?.column ?? null,
        message: `manifest.json says version ${JSON.stringify(version ?? null)} but this release is declared as ${JSON.stringify(expectations.declaredVersion)}. Set "version" in manifest.json to the release version, export again, and upload that pack.`,
      }),
    ]
  }
  return []
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
