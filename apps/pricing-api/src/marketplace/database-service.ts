import {
  DATABASE_NUMBER_FIELDS,
  DATABASE_OPTIONAL_KEY_FIELDS,
  type DatabaseListQuery,
  type DatabasePricingEntry,
  type DatabasePricingEntryData,
} from "@cloudcost/contracts";
import { isForeignKeyViolation, newId } from "@cloudcost/db";
import { conflict, notFound } from "@cloudcost/http";
import type { Prisma } from "../db";
import { keyIn } from "../store/columns";
import { inTransaction } from "../store/transaction";
import { DATABASE_COLUMNS, databaseKeyHash, toDatabaseEntry, type DatabaseRow } from "./database-rows";

const KEY_TEXT_FIELDS = ["provider", "service", "region", ...DATABASE_OPTIONAL_KEY_FIELDS] as const;
const VALUE_FIELDS = ["currency", "capacity_unit", ...DATABASE_NUMBER_FIELDS, "raw_pricing_data", "tags"] as const;

const RECORD_COLUMNS = [
  "id text",
  "key_hash text",
  ...KEY_TEXT_FIELDS.map((field) => `${field} text`),
  "period_billing_hours numeric",
  "currency text",
  "capacity_unit text",
  ...DATABASE_NUMBER_FIELDS.map((field) => `${field} numeric`),
  "raw_pricing_data jsonb",
  "tags jsonb",
].join(", ");

/**
 * Upserts a batch on the natural key in one statement (INSERT ... ON CONFLICT on the account's
 * key hash), so concurrent identical upserts leave one row and a cost change keeps the id. Within
 * one batch the last entry of a key wins; every entry of that key answers with the stored row.
 */
export async function registerDatabases(prisma: Prisma, accountId: string, entries: DatabasePricingEntryData[]): Promise<DatabasePricingEntry[]> {
  const hashes = entries.map(databaseKeyHash);
  const byKey = new Map<string, Record<string, unknown>>();
  entries.forEach((entry, index) => {
    byKey.set(hashes[index], {
      id: newId("dpr"),
      key_hash: hashes[index],
      ...Object.fromEntries(KEY_TEXT_FIELDS.map((field) => [field, keyIn(entry[field])])),
      period_billing_hours: entry.period_billing_hours,
      currency: entry.currency,
      capacity_unit: entry.capacity_unit ?? null,
      ...Object.fromEntries(DATABASE_NUMBER_FIELDS.map((field) => [field, entry[field] ?? null])),
      raw_pricing_data: entry.raw_pricing_data ?? {},
      tags: entry.tags ?? {},
    });
  });
  const names = RECORD_COLUMNS.split(", ").map((column) => column.split(" ")[0]);
  const rows = await prisma.$queryRawUnsafe<DatabaseRow[]>(
    `INSERT INTO database_prices (account_id, ${names.join(", ")}, created_at, updated_at)
     SELECT $1, ${names.map((name) => `v.${name}`).join(", ")}, now(), now()
       FROM jsonb_to_recordset($2::jsonb) AS v(${RECORD_COLUMNS})
     ON CONFLICT (account_id, key_hash) DO UPDATE SET
       ${VALUE_FIELDS.map((field) => `${field} = EXCLUDED.${field}`).join(", ")}, updated_at = EXCLUDED.updated_at
     RETURNING ${DATABASE_COLUMNS}`,
    accountId,
    JSON.stringify([...byKey.values()]),
  );
  const stored = new Map(rows.map((row) => [row.key_hash, toDatabaseEntry(row)]));
  // The upsert returns a row for every key it was sent.
  return hashes.map((hash) => {
    const entry = stored.get(hash);
    if (!entry) throw new Error(`the upsert returned no row for key ${hash}`);
    return entry;
  });
}

const FILTER_FIELDS = [...KEY_TEXT_FIELDS] as const;

export async function listDatabases(prisma: Prisma, accountId: string, query: DatabaseListQuery): Promise<DatabasePricingEntry[]> {
  const params: unknown[] = [accountId];
  const where = ["account_id = $1"];
  for (const field of FILTER_FIELDS) {
    const value = query[field];
    if (value === undefined) continue;
    params.push(value);
    where.push(`${field} = $${params.length}`);
  }
  if (query.period_billing_hours !== undefined) {
    params.push(String(query.period_billing_hours));
    where.push(`period_billing_hours = $${params.length}::numeric`);
  }
  const rows = await prisma.$queryRawUnsafe<DatabaseRow[]>(
    `SELECT ${DATABASE_COLUMNS} FROM database_prices WHERE ${where.join(" AND ")} ORDER BY created_at DESC, id DESC`,
    ...params,
  );
  return rows.map(toDatabaseEntry);
}

const REFERENCE_SAMPLE = 5;

/**
 * Removes an entry unless a pin or a report references it (409 naming them). The row is locked
 * FOR UPDATE first, so no pin or report can start referencing it until this transaction ends (their
 * foreign keys wait on that lock and then fail); the RESTRICT foreign keys back this up.
 */
export async function deleteDatabase(prisma: Prisma, accountId: string, id: string): Promise<DatabasePricingEntry> {
  try {
    return await inTransaction(prisma, async (tx) => {
      const [locked] = await tx.$queryRawUnsafe<{ id: string }[]>(`SELECT id FROM database_prices WHERE account_id = $1 AND id = $2 FOR UPDATE`, accountId, id);
      if (!locked) throw notFound(`No database pricing entry with id ${id}.`);
      const refs = await tx.$queryRawUnsafe<{ what: string; total: number }[]>(
        `(SELECT 'pin ' || kind || '/' || resource_id AS what, (count(*) OVER ())::int AS total
            FROM pricing_pins WHERE account_id = $1 AND database_price_id = $2
           ORDER BY resource_id COLLATE "C" LIMIT ${REFERENCE_SAMPLE})
         UNION ALL
         (SELECT 'report ' || report_id, (count(*) OVER ())::int
            FROM pricing_report_database_refs WHERE account_id = $1 AND database_price_id = $2
           ORDER BY report_id LIMIT ${REFERENCE_SAMPLE})`,
        accountId,
        id,
      );
      if (refs.length > 0) throw conflict(referencedMessage(id, refs));
      const [row] = await tx.$queryRawUnsafe<DatabaseRow[]>(
        `DELETE FROM database_prices WHERE account_id = $1 AND id = $2 RETURNING ${DATABASE_COLUMNS}`,
        accountId,
        id,
      );
      return toDatabaseEntry(row);
    });
  } catch (err) {
    if (isForeignKeyViolation(err)) throw conflict(`Database pricing entry ${id} is still referenced by a pin or a report.`);
    throw err;
  }
}

function referencedMessage(id: string, refs: { what: string; total: number }[]): string {
  const pins = refs.filter((ref) => ref.what.startsWith("pin "));
  const reports = refs.filter((ref) => ref.what.startsWith("report "));
  const describe = (group: typeof refs) => {
    if (group.length === 0) return [];
    const more = group[0].total - group.length;
    return [group.map((ref) => ref.what).join(", ") + (more > 0 ? ` and ${more} more` : "")];
  };
  const steps = [...(pins.length ? ["re-pin or unpin those resources"] : []), ...(reports.length ? ["delete those reports"] : [])];
  return `Database pricing entry ${id} is referenced by ${[...describe(pins), ...describe(reports)].join(" and ")}; ${steps.join(" and ")} first.`;
}
