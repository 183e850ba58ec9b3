// The keyset condition of a paginated read (domain/paging/): rows strictly after a position in a multi-column order,
// written so both databases' range optimizers use the order's index (a bound on the first column, then the rest).
import { type Expression, type RawBuilder, type SqlBool, sql } from "kysely"

/** One column of an order and the position's value in it (already in the stored form: a TimeCodec-written time). */
export type KeyPart = readonly [column: string, value: unknown]

/** A column reference; `+column` (SQLite's documented no-op) keeps the planner from reading through the column's index. */
const columnRef = (column: string, indexable: boolean) => (indexable ? sql.ref(column) : sql`+${sql.ref(column)}`)

const strictlyAfter = (parts: ReadonlyArray<KeyPart>, beyond: "<" | ">", indexable: boolean): RawBuilder<SqlBool> => {
  const [[column, value], ...rest] = parts as [KeyPart, ...Array<KeyPart>]
  const ref = columnRef(column, indexable)
  const first = sql<SqlBool>`${ref} ${sql.raw(beyond)} ${value}`
  return rest.length === 0 ? first : sql<SqlBool>`(${first} OR (${ref} = ${value} AND ${strictlyAfter(rest, beyond, indexable)}))`
}

/**
 * Rows after `parts` in an order that is ascending (`asc`) or descending (`desc`) on every column. The leading
 * `first >= value` (or `<=`) is implied by the rest; it is there for the optimizer. With `indexable: false` (SQLite
 * only) the condition filters without steering the planner to the order's index: for a search, whose own index finds
 * far fewer rows.
 */
export const afterPosition = (parts: ReadonlyArray<KeyPart>, direction: "asc" | "desc", indexable = true): Expression<SqlBool> => {
  const beyond = direction === "asc" ? ">" : "<"
  const [column, value] = parts[0]!
  return sql<SqlBool>`(${columnRef(column, indexable)} ${sql.raw(beyond + "=")} ${value} AND ${strictlyAfter(parts, beyond, indexable)})`
}

/**
 * The half-open range [prefix, next) of every string that starts with `prefix`, compared code point by code point (as
 * SQLite's BINARY and MySQL's utf8mb4_bin do): an index range, where LIKE would depend on collations and escapes.
 */
export const prefixRange = (prefix: string): readonly [from: string, below: string] => {
  const codePoints = [...prefix]
  const last = codePoints.pop()!.codePointAt(0)!
  // U+10FFFF has no successor; the range then ends at the longest prefix that has one (a little wider, never narrower).
  return [prefix, last >= 0x10ffff ? prefix + "\u{10ffff}" : codePoints.join("") + String.fromCodePoint(last + 1)]
}
