/**
 * The text a `NodePath("…")` written in a text resource becomes when the engine converts it to a String (a String
 * property such as `bbcode_text` accepts a NodePath). NodePath(String) splits the names before the first `:` on `/`,
 * dropping empty names (so `[//img]` becomes `[/img]`), keeps the subnames after it, and yields an empty path when a
 * subname other than the last is empty; String(NodePath) joins them back. BBCode is checked on both texts.
 */
export const nodePathText = (raw: string): string => {
  if (raw === "") return ""
  const colon = raw.indexOf(":")
  const subnames = colon === -1 ? [] : raw.slice(colon + 1).split(":")
  if (subnames.length > 0 && subnames[subnames.length - 1] === "") subnames.pop()
  if (subnames.some((s) => s === "")) return ""
  const head = colon === -1 ? raw : raw.slice(0, colon)
  const absolute = head.startsWith("/")
  const names = head.split("/").filter((n) => n !== "")
  if (names.length === 0 && !absolute && subnames.length === 0) return ""
  return `${absolute ? "/" : ""}${names.join("/")}${subnames.map((s) => `:${s}`).join("")}`
}
