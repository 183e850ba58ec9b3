import { defineConfig } from "vitest/config"

// Two workers on this 2-core machine; external services are provisioned once in test/setup/global.ts.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/setup/global.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: ["default"],
  },
})
