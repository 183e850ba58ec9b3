// Godot's export filter globs (String::matchn): case-insensitive; `*` matches any run, `/` included;
// `?` matches one character other than `.`. A filter is a comma-separated list of such patterns.

export const matchesGlob = (pattern: string, subject: string): boolean => {
  if (pattern === "" || subject === "") return false
  const p = pattern.toLowerCase()
  const s = subject.toLowerCase()
  // Iterative wildcard matching with backtracking to the last `*`: linear-ish, no recursion.
  let i = 0
  let j = 0
  let star = -1
  let mark = 0
  while (j < s.length) {
    if (i < p.length && (p[i] === s[j] || (p[i] === "?" && s[j] !== "."))) {
      i += 1
      j += 1
    } else if (i < p.length && p[i] === "*") {
      star = i
      mark = j
      i += 1
    } else if (star !== -1) {
      i = star + 1
      mark += 1
      j = mark
    } else return false
  }
  while (i < p.length && p[i] === "*") i += 1
  return i === p.length
}

export const splitFilter = (filter: string): ReadonlyArray<string> =>
  filter
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "")

/** Whether any pattern of the filter matches `path` (tried with and without `res://`, as Godot does). */
export const filterMatches = (filter: string, path: string): boolean =>
  splitFilter(filter).some((p) => matchesGlob(p, path) || matchesGlob(p, `res://${path}`))
