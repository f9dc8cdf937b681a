import { DATABASE_NUMBER_FIELDS, type DatabaseListQuery, type DatabasePricingEntry, type DatabasePricingEntryData } from "@cloudcost/contracts";
import { isForeignKeyViolation, newId } from "@cloudcost/db";
import { conflict, notFound } from "@cloudcost/http";
import type { Prisma } from "../db";
import { keyIn } from "../store/columns";
import { inTransaction } from "../store/transaction";
import { type DatabaseRepository, KEY_TEXT_FIELDS } from "./repository";
import { databaseKeyHash, toDatabaseEntry } from "./rows";

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

/** An account's custom managed-database rates (built once by databases/handlers.ts; every query goes through `databases`). */
export function createDatabaseService({ prisma, databases }: { prisma: Prisma; databases: DatabaseRepository }) {
  /**
   * Upserts a batch on the natural key in one statement (INSERT ... ON CONFLICT on the account's
   * key hash), so concurrent identical upserts leave one row and a cost change keeps the id. Within
   * one batch the last entry of a key wins; every entry of that key answers with the stored row.
   */
  async function registerDatabases(accountId: string, entries: DatabasePricingEntryData[]): Promise<DatabasePricingEntry[]> {
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
    const rows = await databases.upsertDatabases(prisma, accountId, [...byKey.values()]);
    const stored = new Map(rows.map((row) => [row.key_hash, toDatabaseEntry(row)]));
    // The upsert returns a row for every key it was sent.
    return hashes.map((hash) => {
      const entry = stored.get(hash);
      if (!entry) throw new Error(`the upsert returned no row for key ${hash}`);
      return entry;
    });
  }

  async function listDatabases(accountId: string, query: DatabaseListQuery): Promise<DatabasePricingEntry[]> {
    const period = query.period_billing_hours === undefined ? undefined : String(query.period_billing_hours);
    const rows = await databases.findDatabases(prisma, accountId, query, period);
    return rows.map(toDatabaseEntry);
  }

  /**
   * Removes an entry unless a pin or a report references it (409 naming them). The row is locked
   * FOR UPDATE first, so no pin or report can start referencing it until this transaction ends (their
   * foreign keys wait on that lock and then fail); the RESTRICT foreign keys back this up.
   */
  async function deleteDatabase(accountId: string, id: string): Promise<DatabasePricingEntry> {
    try {
      return await inTransaction(prisma, async (tx) => {
        if (!(await databases.lockDatabaseForDelete(tx, accountId, id))) throw notFound(`No database pricing entry with id ${id}.`);
        const refs = await databases.findDatabaseReferences(tx, accountId, id);
        if (refs.length > 0) throw conflict(referencedMessage(id, refs));
        const row = await databases.deleteDatabaseRow(tx, accountId, id);
        return toDatabaseEntry(row);
      });
    } catch (err) {
      if (isForeignKeyViolation(err)) throw conflict(`Database pricing entry ${id} is still referenced by a pin or a report.`);
      throw err;
    }
  }

  return { registerDatabases, listDatabases, deleteDatabase };
}
