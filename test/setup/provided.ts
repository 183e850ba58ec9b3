// Values the global setup hands to test files through vitest's provide/inject.
declare module "vitest" {
  export interface ProvidedContext {
    /** Scratch folder for this run (deleted at the end). */
    readonly runDir: string
    /** Godot 3 fixture projects and the packs the real engine exported from them (test/setup/godot.ts). */
    readonly godotFixtures: string
    /** The run's throwaway MariaDB (utf8mb4_bin): mysql://user:password@127.0.0.1:port/pckgate; see freshDatabase(). */
    readonly mariadbUrl: string
  }
}
export {}
