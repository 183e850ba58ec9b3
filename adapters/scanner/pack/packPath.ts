// Directory paths: one normal form for every check, and the ways a hostile path can misbehave.

const RES = "res://"

/** `res://` + the path without scheme, whatever form the exporter used (4.4+ stores bare paths). */
export const normalisePackPath = (raw: string): string => RES + (raw.startsWith(RES) ? raw.slice(RES.length) : raw)

/** Why a stored path is unsafe to extract or ambiguous to review, or null when it is fine. */
export const hostilePathReason = (raw: string): string | null => {
  const bare = raw.startsWith(RES) ? raw.slice(RES.length) : raw
  if (bare.length === 0) return "an empty path"
  if (bare.includes("\0")) return "a NUL byte inside the name"
  if (bare.includes("\\")) return "a backslash (Godot paths use '/')"
  if (/[\u0000-\u001f\u007f]/.test(bare)) return "a control character"
  if (bare.startsWith("/")) return "an absolute path"
  if (/^[A-Za-z]:/.test(bare)) return "a drive-letter path"
  if (bare.includes("://")) return "a second scheme inside the path"
  const parts = bare.split("/")
  if (parts.includes("..")) return "a '..' segment that climbs out of res://"
  if (parts.some((p, i) => p === "." || (p === "" && i < parts.length - 1))) return "an empty or '.' segment"
  if (bare.endsWith("/")) return "a trailing '/'"
  return null
}

export const extensionOf = (path: string): string => {
  const name = path.slice(path.lastIndexOf("/") + 1)
  const dot = name.lastIndexOf(".")
  return dot <= 0 ? "" : name.slice(dot).toLowerCase()
}
