// Effect-free (the standalone `check` process stays small without loading effect).

/** How many directory entries a report lists; `summary.entryCount` always has the full count. */
export const LISTED_FILES_LIMIT = 5000
