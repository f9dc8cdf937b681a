import { badRequest, HttpError, type RawBody } from "@cloudcost/http";
import type { Tx } from "../../transactions";
import { FocusFormatError, type FocusReadInfo, FocusTooLargeError } from "../focus";
import { insertLines, type LedgerLineInput } from "../ledger";
import type { Allocate } from "./allocation";
import { focusLinesOf, type ReceivedFocusBody, receiveFocusBody } from "./body";
import { ImportTally, textTags, toLedgerLine } from "./import-lines";

const BATCH_LINES = 5000;

/**
 * Parses a received FOCUS file and stores its lines as lines of the import `importId` (inside the
 * caller's transaction): into spend_lines without the roll-up (the caller runs rollupImport), or,
 * `staged`, into spend_staged_lines (a part of an import session). Returns what it counted.
 */
export async function storeFocusLines(
  tx: Tx,
  organizationId: string,
  importId: string,
  received: ReceivedFocusBody,
  allocate: Allocate,
  options: { info: FocusReadInfo; maxBytes: number; staged?: boolean },
): Promise<ImportTally> {
  const tally = new ImportTally();
  // The database stores one batch while the next is parsed: at most one insert in flight.
  let inFlight: Promise<void> = Promise.resolve();
  const store = async (lines: LedgerLineInput[]) => {
    await inFlight;
    inFlight = insertLines(tx, organizationId, lines, { rollup: false, staged: options.staged }).then((stored) => tally.addStored(stored));
  };
  let batch: LedgerLineInput[] = [];
  try {
    for await (const parsed of focusLinesOf(received, options.info, options.maxBytes)) {
      const line = { ...parsed, tags: textTags(parsed.tags) };
      const tenantId = allocate(line);
      tally.add(line, tenantId);
      batch.push(toLedgerLine(line, tenantId, importId));
      if (batch.length === BATCH_LINES) {
        await store(batch);
        batch = [];
      }
    }
    if (batch.length) await store(batch);
  } finally {
    // Never leave the transaction with a statement still running (a parse error rolls back after it).
    await inFlight.catch(() => undefined);
  }
  await inFlight;
  return tally;
}

/**
 * Receives the request's FOCUS file, runs `fn` on it, and removes it. FOCUS errors are 400s (413 past
 * the size bound); the rest of a refused body is read and dropped, so that the answer reaches the client.
 */
export async function withReceivedBody<T>(raw: RawBody, maxBytes: number, fn: (body: ReceivedFocusBody) => Promise<T>): Promise<T> {
  let body: ReceivedFocusBody | undefined;
  try {
    body = await receiveFocusBody(raw, maxBytes);
    return await fn(body);
  } catch (err) {
    if (!raw.stream.readableEnded) raw.stream.resume();
    if (err instanceof FocusFormatError) throw badRequest(`Invalid FOCUS file: ${err.message}`);
    if (err instanceof FocusTooLargeError) throw new HttpError("payload_too_large", err.message);
    throw err;
  } finally {
    await body?.remove();
  }
}
