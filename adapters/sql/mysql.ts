// MySQL 8 / MariaDB 10.11 (and MySQL-compatible services) through mysql2's pool.
import { loadOptional } from "../system/optionalPackage.ts"
import { CompiledQuery, Kysely, MysqlDialect } from "kysely"
import type { Tables } from "./schema.ts"

/** A new connection must be up within this time; a stopped or unreachable server fails fast instead of hanging. */
const CONNECT_TIMEOUT_MS = 5000

export interface MysqlTarget {
  readonly host: string
  readonly port: number
  readonly user: string
  readonly password: string
  readonly database: string
  readonly connectionLimit: number
  readonly ssl: boolean
}

/** Reads `mysql://user:pass@host:port/db[?connectionLimit=10&ssl=true]`; problems are described without the password. */
export const parseMysqlUrl = (url: string): MysqlTarget | { readonly error: string } => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { error: "DATABASE_URL is not a URL; expected mysql://user:password@host:port/database" }
  }
  if (parsed.protocol !== "mysql:") return { error: `DATABASE_URL must start with mysql:// (got '${parsed.protocol}//')` }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ""))
  if (database === "" || database.includes("/")) return { error: "DATABASE_URL must name one database: mysql://user:password@host:port/database" }
  if (parsed.username === "") return { error: "DATABASE_URL must name a user: mysql://user:password@host:port/database" }
  const limit = Number(parsed.searchParams.get("connectionLimit") ?? "10")
  if (!Number.isSafeInteger(limit) || limit < 1) return { error: "DATABASE_URL connectionLimit must be a positive integer" }
  return {
    host: parsed.hostname,
    port: parsed.port === "" ? 3306 : Number(parsed.port),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database,
    connectionLimit: limit,
    ssl: parsed.searchParams.get("ssl") === "true",
  }
}

/** Where the records are, for the start-up banner: never the password. */
export const describeMysqlTarget = (target: MysqlTarget): string =>
  `MySQL ${target.user}@${target.host}:${target.port}/${target.database}${target.ssl ? " (TLS)" : ""}`

/** mysql2 is loaded only here: a server on the embedded SQLite default never pays for it. */
export const openMysql = async (target: MysqlTarget): Promise<Kysely<Tables>> => {
  const { createPool } = await loadOptional("mysql2", "A MySQL or MariaDB database (DATABASE_URL)", () => import("mysql2"))
  return new Kysely<Tables>({
    dialect: new MysqlDialect({
      pool: createPool({
        host: target.host,
        port: target.port,
        user: target.user,
        password: target.password,
        database: target.database,
        connectionLimit: target.connectionLimit,
        ...(target.ssl ? { ssl: { rejectUnauthorized: true } } : {}),
        // utf8mb4 with a binary collation: emoji round-trip, and '😀' ≠ '😂', '1.0-RC' ≠ '1.0-rc' as on SQLite.
        charset: "UTF8MB4_BIN",
        // DATETIME(3) holds UTC: Dates are written and read as UTC whatever the server's time zone.
        timezone: "Z",
        supportBigNumbers: true,
        connectTimeout: CONNECT_TIMEOUT_MS,
        enableKeepAlive: true,
        idleTimeout: 60_000,
      }),
      // Strict mode everywhere: a value that does not fit fails instead of being truncated.
      onCreateConnection: async (connection) => {
        await connection.executeQuery(CompiledQuery.raw(
          "SET SESSION sql_mode = 'STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'",
        ))
      },
    }),
  })
}
