// The app's work limits, shared by every worker job that reads input (an analysis, a folder, a comparison's sides).

/**
 * Most bytes one file may decompress to in the app: 2 GiB instead of the CLI's 8 GiB. A browser tab has far less
 * memory and patience than a CLI process, and a gzip bomb must reach its limit in seconds, after which the page
 * replaces this worker (src/ui/app.ts). Larger logs are for `ctxray analyze`.
 */
export const APP_MAX_DECOMPRESSED_BYTES = 2 * 1024 * 1024 * 1024;

export const APP_LIMITS = { maxDecompressedBytes: APP_MAX_DECOMPRESSED_BYTES };
