// The public API of the ports (`pckgate/ports`): one service per concern. Provide a layer for each port a use case
// needs; the memory adapters (`pckgate/memory`) implement all of them. Each file holds one port and its types, so
// everything it exports is public.
export * from "./BudgetLedger.ts"
export * from "./Clock.ts"
export * from "./GameStore.ts"
export * from "./Identity.ts"
export * from "./Ids.ts"
export * from "./NotificationOutbox.ts"
export * from "./ObjectStorage.ts"
export * from "./PackScanner.ts"
export * from "./ReleaseStore.ts"
export * from "./ReviewNotifier.ts"
export * from "./ScanStore.ts"
export * from "./SessionStore.ts"
export * from "./Sha256Hasher.ts"
export * from "./SubmissionStore.ts"
export * from "./UploadTokens.ts"
