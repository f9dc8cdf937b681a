import type { Pin, PinKind } from "@cloudcost/contracts";
import { isForeignKeyViolation } from "@cloudcost/db";
import { notFound } from "@cloudcost/http";
import type { Prisma } from "../db";
import { iso } from "../store/columns";
import { inTransaction } from "../store/transaction";

interface PinRow {
  kind: PinKind;
  resource_id: string;
  pricing_id: string;
  created_at: Date;
  updated_at: Date;
}

const PIN_COLUMNS = `kind, resource_id, COALESCE(database_price_id, model_price_id) AS pricing_id, created_at, updated_at`;

const toPin = (row: PinRow): Pin => ({
  kind: row.kind,
  resource_id: row.resource_id,
  pricing_id: row.pricing_id,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/**
 * Pins a resource to an entry of the account: a database entry that exists, or a model row that is
 * not closed. The entry is locked (FOR SHARE) until the pin is written, so a concurrent delete or
 * close waits and then sees the pin; the foreign keys turn a lost race into a 404.
 */
export async function putPin(prisma: Prisma, accountId: string, kind: PinKind, resourceId: string, pricingId: string): Promise<Pin> {
  const missing = () => notFound(`No ${kind === "model" ? "open model" : "database"} pricing entry with id ${pricingId}.`);
  try {
    return await inTransaction(prisma, async (tx) => {
      const now = new Date().toISOString();
      const found =
        kind === "database"
          ? await tx.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM database_prices WHERE account_id = $1 AND id = $2 FOR SHARE`, accountId, pricingId)
          : await tx.$queryRawUnsafe<unknown[]>(
              `SELECT 1 FROM model_prices
                WHERE account_id = $1 AND id = $2 AND (effective_to IS NULL OR effective_to > $3::timestamptz) FOR SHARE`,
              accountId,
              pricingId,
              now,
            );
      if (found.length === 0) throw missing();
      const [row] = await tx.$queryRawUnsafe<PinRow[]>(
        `INSERT INTO pricing_pins (account_id, kind, resource_id, database_price_id, model_price_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $6::timestamptz)
         ON CONFLICT (account_id, kind, resource_id) DO UPDATE SET
           database_price_id = EXCLUDED.database_price_id, model_price_id = EXCLUDED.model_price_id, updated_at = EXCLUDED.updated_at
         RETURNING ${PIN_COLUMNS}`,
        accountId,
        kind,
        resourceId,
        kind === "database" ? pricingId : null,
        kind === "model" ? pricingId : null,
        now,
      );
      return toPin(row);
    });
  } catch (err) {
    if (isForeignKeyViolation(err)) throw missing();
    throw err;
  }
}

export async function deletePin(prisma: Prisma, accountId: string, kind: PinKind, resourceId: string): Promise<void> {
  const rows = await prisma.$queryRawUnsafe<unknown[]>(
    `DELETE FROM pricing_pins WHERE account_id = $1 AND kind = $2 AND resource_id = $3 RETURNING 1`,
    accountId,
    kind,
    resourceId,
  );
  if (rows.length === 0) throw notFound(`No ${kind} pin for resource ${JSON.stringify(resourceId)}.`);
}

export async function listPins(prisma: Prisma, accountId: string, pricingId?: string): Promise<Pin[]> {
  const rows = await prisma.$queryRawUnsafe<PinRow[]>(
    `SELECT ${PIN_COLUMNS} FROM pricing_pins
      WHERE account_id = $1 AND ($2::text IS NULL OR database_price_id = $2 OR model_price_id = $2)
      ORDER BY kind, resource_id COLLATE "C"`,
    accountId,
    pricingId ?? null,
  );
  return rows.map(toPin);
}
