/** A file or part takes its turn on the organization's import lock, then parses the whole received file inside its transaction. */
export const FILE_TRANSACTION = { maxWait: 20_000, timeout: 30 * 60_000 } as const;
/** Rule changes, deletes and session sweeps: no file to parse. */
export const SHORT_TRANSACTION = { maxWait: 20_000, timeout: 120_000 } as const;
