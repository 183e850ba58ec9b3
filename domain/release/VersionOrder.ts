// Multipart updates must raise `manifest.version` (spec §4.6). The order:
// - the version splits at the first '-' into a core and an optional pre-release suffix;
// - cores compare segment by segment (split on '.' and '_'); numeric segments numerically, missing ones count as 0
//   (so 1.0 = 1.0.0), a numeric segment sorts before an alphanumeric one, alphanumeric ones compare as text;
// - with equal cores, a version with a pre-release suffix sorts before the plain one (1.0.0-rc1 < 1.0.0), and two
//   suffixes compare segment by segment the same way (rc1 < rc2, alpha < beta, rc.2 < rc.10).

const segments = (text: string): ReadonlyArray<string> => (text === "" ? [] : text.split(/[._]/))

const compareSegment = (a: string | undefined, b: string | undefined): number => {
  const x = a ?? "0"
  const y = b ?? "0"
  const xNumeric = /^\d+$/.test(x)
  const yNumeric = /^\d+$/.test(y)
  if (xNumeric && yNumeric) {
    const bx = BigInt(x)
    const by = BigInt(y)
    return bx < by ? -1 : bx > by ? 1 : 0
  }
  if (xNumeric !== yNumeric) return xNumeric ? -1 : 1
  return x < y ? -1 : x > y ? 1 : 0
}

const compareSegments = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const c = compareSegment(a[i], b[i])
    if (c !== 0) return c
  }
  return 0
}

const split = (version: string) => {
  const dash = version.indexOf("-")
  return dash === -1 ? { core: version, pre: null } : { core: version.slice(0, dash), pre: version.slice(dash + 1) }
}

/** Negative when a < b, zero when they are the same version (1.0 = 1.0.0), positive when a > b. */
export const compareVersions = (a: string, b: string): number => {
  const x = split(a)
  const y = split(b)
  const core = compareSegments(segments(x.core), segments(y.core))
  if (core !== 0) return Math.sign(core)
  if (x.pre === null || y.pre === null) return x.pre === y.pre ? 0 : x.pre === null ? 1 : -1
  return Math.sign(compareSegments(segments(x.pre.replace(/-/g, ".")), segments(y.pre.replace(/-/g, "."))))
}
