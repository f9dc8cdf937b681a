import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { MAX_METRIC_VALUES_PER_REQUEST, type MetricValueInput, MetricValueInput as MetricValueSchema } from "@cloudcost/contracts";
import { badRequest, HttpError, type RawBody } from "@cloudcost/http";
import { CsvError, parse } from "csv-parse/sync";

const COLUMNS = ["date", "amount", "label"] as const;
type Column = (typeof COLUMNS)[number];

const tooLarge = (maxBytes: number) => new HttpError("payload_too_large", `The CSV body is larger than ${maxBytes} bytes.`);
const badLine = (line: number, column: Column | null, message: string) =>
  badRequest(`Invalid CSV: line ${line}${column ? `, column ${column}` : ""}: ${message}`, [
    { path: column ? `line.${line}.${column}` : `line.${line}`, message },
  ]);

/**
 * The request's body, whole, failing with a 413 past `maxBytes` (the declared length is checked
 * first). A refused body is drained, never destroyed, so that the answer reaches the client.
 */
export function receiveBody(raw: Pick<RawBody, "stream" | "contentLength">, maxBytes: number): Promise<Buffer> {
  const stream: Readable = raw.stream;
  if (raw.contentLength !== undefined && raw.contentLength > maxBytes) {
    stream.on("error", () => undefined);
    stream.resume();
    return Promise.reject(tooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let seen = 0;
    let settled = false;
    const settle = (err?: unknown) => {
      if (settled) return;
      settled = true;
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", settle);
      if (err === undefined) return resolve(Buffer.concat(chunks));
      stream.on("error", () => undefined);
      stream.resume();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) return settle(tooLarge(maxBytes));
      chunks.push(chunk);
    };
    const onEnd = () => settle();
    stream.on("data", onData);
    stream.once("end", onEnd);
    stream.once("error", settle);
  });
}

export interface MetricCsv {
  values: MetricValueInput[];
  /** The hex SHA-256 of the body as received (an `Idempotency-Key`'s fingerprint holds it). */
  digest: string;
}

/**
 * A CSV body of amounts: a header naming `date`, `amount` and optionally `label` (in any order,
 * case and surrounding spaces ignored), then 1 to MAX_METRIC_VALUES_PER_REQUEST rows, each checked
 * as a JSON item is (an empty label: none). Each mistake is a 400 naming its line (the header is
 * line 1) and column.
 */
export function parseMetricCsv(body: Buffer): MetricCsv {
  const digest = createHash("sha256").update(body).digest("hex");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    throw badRequest("Invalid CSV: the body is not UTF-8 text.", [{ path: "body", message: "not UTF-8" }]);
  }
  const nul = text.indexOf("\0");
  if (nul !== -1) throw badLine(text.slice(0, nul).split("\n").length, null, "holds a NUL character");
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { bom: true, trim: true, skip_empty_lines: true, info: true, relax_column_count: false }) as unknown as typeof records;
  } catch (err) {
    if (err instanceof CsvError) throw badLine((err as CsvError & { lines?: number }).lines ?? 1, null, err.message);
    throw err;
  }
  if (records.length === 0)
    throw badRequest("Invalid CSV: the body is empty; it starts with the header date,amount,label.", [{ path: "body", message: "empty" }]);
  const [header, ...rows] = records;
  const names = header.record.map((name) => name.toLowerCase());
  const index = new Map<string, number>();
  names.forEach((name, i) => {
    if (!(COLUMNS as readonly string[]).includes(name))
      throw badLine(header.info.lines, null, `unknown column "${name.slice(0, 64)}": the header is date,amount,label`);
    if (index.has(name)) throw badLine(header.info.lines, null, `column ${name} is named twice`);
    index.set(name, i);
  });
  for (const required of ["date", "amount"] as const)
    if (!index.has(required)) throw badLine(header.info.lines, null, `the header has no ${required} column: it is date,amount,label`);
  if (rows.length === 0) throw badLine(header.info.lines, null, "no rows after the header");
  if (rows.length > MAX_METRIC_VALUES_PER_REQUEST)
    throw badLine(rows[MAX_METRIC_VALUES_PER_REQUEST].info.lines, null, `a request holds at most ${MAX_METRIC_VALUES_PER_REQUEST} rows`);
  const cell = (record: string[], column: Column) => {
    const i = index.get(column);
    return i === undefined ? undefined : record[i];
  };
  const values = rows.map(({ record, info }) => {
    const label = cell(record, "label");
    const parsed = MetricValueSchema.safeParse({ date: cell(record, "date"), amount: cell(record, "amount"), label: label === "" ? undefined : label });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw badLine(info.lines, issue.path[0] as Column, issue.message);
    }
    return parsed.data;
  });
  return { values, digest };
}
