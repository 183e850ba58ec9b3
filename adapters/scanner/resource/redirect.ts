import { MalformedData } from "../io/errors.ts"
import { type Grammar, type Position, stringOf, type VNode, VariantTextParser } from "./variantText.ts"

// `.remap` and `.import` files as the engine reads them: with VariantParser (parse_tag_assign_eof, simple
// tags), item by item, the value of a key converted to a String.
// - `.remap` (core/io/resource_loader.cpp, ResourceLoader::_path_remap): the first `path` assignment is the
//   target; reading stops there, at any other assignment, or at a tag other than `[remap]`.
// - `.import` (core/io/resource_importer.cpp, ResourceFormatImporter::_get_path_and_type): until a tag other
//   than `[remap]`, the first `path`, or `path.<feature>` for a feature the running engine has, is the target.
// Keys may be quoted (`"path"=`); a value the engine converts to a String (a StringName, a
// `NodePath("user://…")`) is followed like a string. What the scanner cannot read as such a string is kept
// as `path: null`: no exporter writes it, and it is judged an error.

export type RedirectKind = ".remap" | ".import"

export interface RedirectTarget {
  /** The key as the engine compares it (`path`, `path.s3tc`). */
  readonly key: string
  /** The String the engine makes of the value, or null when the value is not one the scanner reads as a string. */
  readonly path: string | null
  readonly at: Position
  /** Whether the engine can take it: the `path` a `.remap` stops at, or any `path`/`path.<feature>` of an `.import` section it reads. */
  readonly followed: boolean
}

export interface Redirect {
  readonly targets: ReadonlyArray<RedirectTarget>
  /** The reader refused the text at some point (the targets are those before it; the engine stops there too). */
  readonly malformed: string | null
}

export const redirectKindOf = (stored: string): RedirectKind | null => (stored.endsWith(".remap") ? ".remap" : stored.endsWith(".import") ? ".import" : null)

const PATH_KEY = /^path(\..*)?$/

/** The String of a value the engine converts (String, StringName, NodePath), or null. */
const pathOf = (value: VNode): string | null => stringOf(value)

/**
 * Reads a redirect file's targets. Every `path`-like key of the part the engine reads is listed (also the
 * ones it passes over, so that a decoy next to the followed key is judged too); `followed` says which
 * ones the engine can load.
 */
export const readRedirect = (text: Uint8Array | string, kind: RedirectKind, grammar: Grammar = 4): Redirect => {
  const targets: Array<RedirectTarget> = []
  let reading = true
  const parser = new VariantTextParser(
    grammar,
    {
      tag: (tag) => {
        if (tag.name !== "remap") reading = false
      },
      assign: (key, value, at) => {
        if (!reading) return
        if (PATH_KEY.test(key)) targets.push({ key, path: pathOf(value), at, followed: kind === ".import" || key === "path" })
        // The `.remap` reader stops at its first assignment, the target or not.
        if (kind === ".remap") reading = false
      },
    },
    { simpleTags: true },
  )
  try {
    parser.feed(typeof text === "string" ? new TextEncoder().encode(text) : text)
    parser.finish()
    return { targets, malformed: null }
  } catch (error) {
    if (!(error instanceof MalformedData)) throw error
    return { targets, malformed: error.message }
  }
}

/** The target the engine loads for a `.remap` file's original path, or null (none, or one that is not a string). */
export const remapTarget = (text: Uint8Array | string, grammar: Grammar = 4): string | null =>
  readRedirect(text, ".remap", grammar).targets.find((t) => t.followed)?.path ?? null
