import { badRequest, HttpError, type RawBody } from "@cloudcost/http";
import type { Tx } from "../../transactions";
import { FocusFormatError, type FocusReadInfo, FocusTooLargeError } from "../focus";
import type { LedgerLineInput, SpendLinesRepository } from "../lines-repository";
import type { Allocate } from "./allocation";
import { focusLinesOf, type ReceivedFocusBody, receiveFocusBody } from "./body";
import { ImportTally, textTags, toLedgerLine } from "./import-lines";

/**
 * An insert statement's lines: at most BATCH_LINES, and no more once they hold BATCH_BYTES of the file
 * (its decoded bytes as the reader counts them), since a batch's parameters are built in one turn of
 * the event loop (5,000 lines of 64 long tags each held it for half a second).
 */
const BATCH_LINES = 2000;
const BATCH_BYTES = 2 * 1024 * 1024;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Parses a received FOCUS file and stores its lines as lines of the import `importId` (inside the
 * caller's transaction): into spend_lines without the roll-up (the caller runs rollupImport), or,
 * `staged`, into spend_staged_lines (a part of an import session), through `ledger`. Returns what it counted.
 */
export async function storeFocusLines(
  ledger: Pick<SpendLinesRepository, "insertLines">,
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
    // In its own turn of the event loop, not at the end of the turn that read the last rows.
    await nextTurn();
    inFlight = ledger.insertLines(tx, organizationId, lines, { rollup: false, staged: options.staged }).then((stored) => tally.addStored(stored));
  };
  let batch: LedgerLineInput[] = [];
  const bytesRead = () => options.info.bytes ?? 0;
  let batchStart = bytesRead();
  try {
    for await (const parsed of focusLinesOf(received, options.info, options.maxBytes)) {
      const line = { ...parsed, tags: textTags(parsed.tags) };
      const tenantId = allocate(line);
      tally.add(line, tenantId);
      batch.push(toLedgerLine(line, tenantId, importId));
      if (batch.length === BATCH_LINES || bytesRead() - batchStart >= BATCH_BYTES) {
        await store(batch);
        batch = [];
        batchStart = bytesRead();
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
