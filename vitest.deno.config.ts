import { defineConfig } from "vitest/config"

// The portable part of the suite, run under Deno by `npm test`: domain, memory adapters and the HTTP app via fetch.
export default defineConfig({
  test: {
    include: ["test/domain/**/*.test.ts", "test/http/**/*.test.ts", "test/adapters/memory.test.ts", "test/adapters/caches.test.ts", "test/purity.test.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
  },
})
