import type { Pin, PinKind } from "@cloudcost/contracts";
import { isForeignKeyViolation } from "@cloudcost/db";
import { notFound } from "@cloudcost/http";
import type { Prisma } from "../db";
import { iso } from "../store/columns";
import { inTransaction } from "../store/transaction";
import type { PinRepository, PinRow } from "./pin-repository";

const toPin = (row: PinRow): Pin => ({
  kind: row.kind,
  resource_id: row.resource_id,
  pricing_id: row.pricing_id,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** An account's pins (built once by references/handlers.ts; every query goes through `pins`). */
export function createPinService({ prisma, pins }: { prisma: Prisma; pins: PinRepository }) {
  /**
   * Pins a resource to an entry of the account: a database entry that exists, or a model row that is
   * not closed. The entry is locked (FOR SHARE) until the pin is written, so a concurrent delete or
   * close waits and then sees the pin; the foreign keys turn a lost race into a 404.
   */
  async function putPin(accountId: string, kind: PinKind, resourceId: string, pricingId: string): Promise<Pin> {
    const missing = () => notFound(`No ${kind === "model" ? "open model" : "database"} pricing entry with id ${pricingId}.`);
    try {
      return await inTransaction(prisma, async (tx) => {
        const now = new Date().toISOString();
        const found =
          kind === "database" ? await pins.shareDatabaseEntry(tx, accountId, pricingId) : await pins.shareOpenModelEntry(tx, accountId, pricingId, now);
        if (!found) throw missing();
        const row = await pins.upsertPin(tx, accountId, kind, resourceId, pricingId, now);
        return toPin(row);
      });
    } catch (err) {
      if (isForeignKeyViolation(err)) throw missing();
      throw err;
    }
  }

  async function deletePin(accountId: string, kind: PinKind, resourceId: string): Promise<void> {
    if (!(await pins.deletePinRow(prisma, accountId, kind, resourceId))) throw notFound(`No ${kind} pin for resource ${JSON.stringify(resourceId)}.`);
  }

  async function listPins(accountId: string, pricingId?: string): Promise<Pin[]> {
    const rows = await pins.findPins(prisma, accountId, pricingId);
    return rows.map(toPin);
  }

  return { putPin, deletePin, listPins };
}
