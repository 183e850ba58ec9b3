/** The two SQL dialects; the differences between them stay inside adapters/sql. */
export type Flavor = "mysql" | "sqlite"
